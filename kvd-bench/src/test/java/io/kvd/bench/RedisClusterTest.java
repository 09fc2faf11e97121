package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;
import io.kvd.bench.ServerProcess.Kind;
import io.kvd.bench.ServerProcess.ServerBinaries;
import io.kvd.codec.KeySlot;
import io.kvd.codec.RespReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * kvbench {@code --cluster} against a real three-master Redis Cluster (redis-server with
 * cluster-enabled, joined by {@code redis-cli --cluster create}); skipped where either is not installed.
 * A request sent to the wrong master would be answered -MOVED and counted as an error.
 */
class RedisClusterTest {
    private static final int NODES = 3;
    private static final long READY_TIMEOUT_MS = 60_000;

    @TempDir
    static Path dir;

    private static final List<ServerProcess> nodes = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        Path redisServer = onPath("redis-server");
        Path redisCli = onPath("redis-cli");
        ServerBinaries binaries = new ServerBinaries(null, null, redisServer);
        for (int i = 0; i < NODES; i++) {
            // The bus port is by default the port + 10000, past 65535 for most ephemeral ports.
            nodes.add(ServerProcess.start(Kind.REDIS, binaries, dir.resolve("node-" + i), SuiteServers.directives(
                    "appendonly", "no", "cluster-enabled", "yes", "cluster-config-file", "nodes.conf",
                    "cluster-port", String.valueOf(freePort()))));
        }
        List<String> create = new ArrayList<>(List.of(redisCli.toString(), "--cluster", "create"));
        nodes.forEach(node -> create.add(node.address().toString()));
        create.add("--cluster-yes");
        Process process = new ProcessBuilder(create).redirectErrorStream(true)
                .redirectOutput(dir.resolve("cluster-create.log").toFile()).start();
        assertThat(process.waitFor(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS)).as("redis-cli --cluster create finished").isTrue();
        assertThat(process.exitValue()).as(Files.readString(dir.resolve("cluster-create.log"))).isZero();
        for (ServerProcess node : nodes) {
            awaitClusterStateOk(node.address());
        }
    }

    @AfterAll
    static void stopCluster() throws InterruptedException {
        for (ServerProcess node : nodes) {
            node.close();
        }
    }

    @Test
    void everyRequestGoesToTheMasterOfItsKeysSlot() throws Exception {
        BenchResult result = LoadGenerator.run(Cli.settings("--cluster", nodes.get(0).address().toString(),
                "-n", "30000", "-r", "3000", "-c", "4", "-P", "8", "--threads", "2", "-w", "mix", "--verify", "-d", "16"));

        assertThat(result.requests()).isEqualTo(30_000);
        assertThat(result.errors()).as("first error: %s", result.firstError()).isZero();
        assertThat(result.latencyMicros(Percentile.P50)).isPositive();
        SlotMap slots = SlotMap.discover(nodes.get(0).address());
        long keys = 0;
        for (int i = 0; i < slots.masters().size(); i++) {
            try (RespClient master = RespClient.connect(slots.masters().get(i))) {
                List<String> held = keys(master.call("KEYS", "*"));
                assertThat(held).as("keys on %s", slots.masters().get(i)).isNotEmpty();
                for (String key : held) {
                    assertThat(slots.masterOf(KeySlot.of(key.getBytes(StandardCharsets.US_ASCII)))).as(key).isEqualTo(i);
                }
                keys += held.size();
            }
        }
        assertThat(keys).isPositive().isLessThanOrEqualTo(3000);
    }

    @Test
    void theSlotMapNamesTheThreeMasters() throws IOException {
        assertThat(SlotMap.discover(nodes.get(1).address()).masters())
                .containsExactlyInAnyOrderElementsOf(nodes.stream().map(ServerProcess::address).toList());
    }

    private static void awaitClusterStateOk(ServerAddress node) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        try (RespClient client = RespClient.connect(node)) {
            while (!InfoFields.parse(client.callForText("CLUSTER", "INFO")).get("cluster_state").equals("ok")) {
                assertThat(System.nanoTime() - deadline).as("cluster_state:ok on %s within %d ms", node, READY_TIMEOUT_MS)
                        .isNegative();
                Thread.sleep(20);
            }
        }
    }

    private static List<String> keys(RespReply reply) {
        return ((RespReply.Array) reply).elements().stream().map(k -> ((RespReply.BulkString) k).utf8()).toList();
    }

    private static Path onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(d, program);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        assumeTrue(false, program + " is not installed (apt-get install redis-server redis-tools)");
        throw new AssertionError("unreachable");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
