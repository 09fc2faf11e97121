package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.NutcrackerProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisDataException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three kvd nodes (AOF on) behind a real twemproxy configured by {@code config/twemproxy.yml}.
 * 30,000 keys are written through the proxy before the tests; nutcracker splits multi-key commands
 * (MGET, DEL, MSET) into one fragment per node and joins the replies. It answers PING itself and
 * sends nothing to a backend unasked, except AUTH on each new backend connection under redis_auth
 * (and SELECT under redis_db, which kvd's one database does not need).
 */
@ExtendWith(ServerLogsOnFailure.class)
class TwemproxyTest {
    private static final String PASSWORD = "twemproxy-secret";
    private static final int KEYS = 30_000;
    private static final int BATCH = 1_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final List<KvdProcess> nodes = new ArrayList<>();
    private static NutcrackerProcess proxy;
    private static JedisPooled jedis;
    /** The nodes' requirepass while a test has set one, else null. */
    private static String nodePassword;

    @BeforeAll
    static void startNodesAndProxyAndLoadKeys() {
        Tools.require("nutcracker", "apt-get install nutcracker");
        for (int i = 0; i < 3; i++) {
            nodes.add(KvdProcess.start("--appendonly", "yes"));
        }
        proxy = NutcrackerProcess.start(nodePorts());
        jedis = jedisThrough(proxy, null);
        // In windows: a client that writes everything before reading a reply stalls twemproxy.
        for (int first = 0; first < KEYS; first += BATCH) {
            try (Pipeline pipeline = jedis.pipelined()) {
                for (int i = first; i < first + BATCH; i++) {
                    pipeline.set(key(i), value(i));
                }
            }
        }
    }

    @AfterAll
    static void stopAll() {
        if (jedis != null) {
            jedis.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        nodes.forEach(KvdProcess::close);
    }

    @Test
    void everyNodeHoldsBetween20And47PercentOfTheKeys() {
        for (KvdProcess node : nodes) {
            assertThat(keysOn(node)).as("keys on the node on port %d", node.port())
                    .isBetween(KEYS * 20L / 100, KEYS * 47L / 100);
        }
    }

    @Test
    void mgetOfKeysOnAllThreeNodesReturnsEveryValueInRequestOrder() {
        for (int batch = 0; batch < KEYS / BATCH; batch++) {
            List<String> keys = batch(batch).mapToObj(TwemproxyTest::key).toList();
            assertThat(nodesHolding(keys)).hasSize(3);
            assertThat(jedis.mget(keys.toArray(String[]::new)))
                    .containsExactlyElementsOf(batch(batch).mapToObj(TwemproxyTest::value).toList());
        }
    }

    @Test
    void mgetOfMissingKeysOnAllNodesAnswersNullForEach() {
        assertThat(jedis.mget("missing:1", "missing:20000", "missing:300", "missing:4000000")).containsExactly(null, null, null, null);
    }

    @Test
    void delOfKeysOnAllThreeNodesCountsTheDeletionsOfEveryNode() {
        List<String> keys = spreadKeys("del:");
        keys.forEach(k -> jedis.set(k, "v"));
        assertThat(nodesHolding(keys)).hasSize(3);
        List<String> withMissing = new ArrayList<>(keys);
        withMissing.add("del:missing");
        assertThat(jedis.del(withMissing.toArray(String[]::new))).isEqualTo(keys.size());
        assertThat(nodesHolding(keys)).isEmpty();
    }

    @Test
    void msetOfKeysOnAllThreeNodesWritesEachOnItsNode() {
        List<String> keys = spreadKeys("mset:");
        String[] keysAndValues = keys.stream().flatMap(k -> List.of(k, "v" + k).stream()).toArray(String[]::new);
        assertThat(jedis.mset(keysAndValues)).isEqualTo("OK");
        assertThat(nodesHolding(keys)).hasSize(3);
        assertThat(jedis.mget(keys.toArray(String[]::new))).containsExactlyElementsOf(keys.stream().map(k -> "v" + k).toList());
    }

    @Test
    void incrCountsOnTheKeysNode() {
        assertThat(jedis.incr("counter:twemproxy")).isEqualTo(1);
        assertThat(jedis.incrBy("counter:twemproxy", 41)).isEqualTo(42);
        assertThat(jedis.get("counter:twemproxy")).isEqualTo("42");
    }

    @Test
    void expireSetsATtlThatTtlReads() {
        jedis.set("expire:twemproxy", "v");
        assertThat(jedis.expire("expire:twemproxy", 100)).isEqualTo(1);
        assertThat(jedis.ttl("expire:twemproxy")).isBetween(1L, 100L);
        assertThat(jedis.expire("expire:missing", 100)).isZero();
    }

    @Test
    void redisCliSetsAndReadsThroughTheProxy() {
        assertThat(redisCli("SET", "cli:a", "1")).isEqualTo("OK\n");
        assertThat(redisCli("SET", "cli:b", "2")).isEqualTo("OK\n");
        assertThat(redisCli("INCR", "cli:a")).isEqualTo("2\n");
        assertThat(redisCli("MGET", "cli:a", "cli:missing", "cli:b", key(12_345))).isEqualTo("2\n\n2\n" + value(12_345) + "\n");
        assertThat(redisCli("DEL", "cli:a", "cli:b", "cli:missing")).isEqualTo("2\n");
    }

    @Test
    void aNodeKilledAndRestartedOnItsAofServesItsKeysAgain() {
        KvdProcess victim = nodes.get(1);
        long held = keysOn(victim);
        String randomKey = askNode(victim, "RANDOMKEY");
        String victimsKey = randomKey.substring(randomKey.indexOf("\r\n") + 2, randomKey.length() - 2);
        // Every write was in the AOF file before its reply left; SIGKILL loses nothing the kernel has.
        victim.kill();
        // auto_eject_hosts is off: the node's keys fail, nothing is remapped to the other nodes.
        assertThatThrownBy(() -> jedis.get(victimsKey)).isInstanceOf(JedisDataException.class);
        KvdProcess restarted = KvdProcess.startIn(victim.dir(), "--appendonly", "yes", "--port", String.valueOf(victim.port()));
        nodes.set(1, restarted);
        assertThat(keysOn(restarted)).isEqualTo(held);
        // nutcracker reconnects (and sends AUTH) on the first request for the node after it is back.
        Poll.until(TIMEOUT, "the proxy to reach the restarted node", () -> readable(victimsKey) ? true : null);
        for (int batch = 0; batch < KEYS / BATCH; batch++) {
            String[] keys = batch(batch).mapToObj(TwemproxyTest::key).toArray(String[]::new);
            assertThat(jedis.mget(keys)).containsExactlyElementsOf(batch(batch).mapToObj(TwemproxyTest::value).toList());
        }
    }

    @Test
    void underRedisAuthEveryBackendConnectionAuthenticatesFirst() {
        nodes.forEach(node -> assertThat(askNode(node, "CONFIG", "SET", "requirepass", PASSWORD)).isEqualTo("+OK\r\n"));
        nodePassword = PASSWORD;
        try (NutcrackerProcess authProxy = NutcrackerProcess.start(nodePorts(), "redis_auth: " + PASSWORD);
             JedisPooled authJedis = jedisThrough(authProxy, PASSWORD)) {
            List<String> keys = spreadKeys("auth:");
            String[] keysAndValues = keys.stream().flatMap(k -> List.of(k, "v" + k).stream()).toArray(String[]::new);
            assertThat(authJedis.mset(keysAndValues)).isEqualTo("OK");
            assertThat(nodesHolding(keys)).hasSize(3);
            assertThat(authJedis.mget(keys.toArray(String[]::new))).containsExactlyElementsOf(keys.stream().map(k -> "v" + k).toList());
        } finally {
            nodes.forEach(node -> askNode(node, "CONFIG", "SET", "requirepass", ""));
            nodePassword = null;
        }
    }

    private static boolean readable(String key) {
        try {
            return jedis.get(key) != null;
        } catch (JedisDataException e) {
            return false;
        }
    }

    /** Which nodes hold at least one of {@code keys}, asked directly (EXISTS counts the keys it finds). */
    private static Set<Integer> nodesHolding(List<String> keys) {
        List<String> exists = new ArrayList<>(List.of("EXISTS"));
        exists.addAll(keys);
        Set<Integer> holding = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (!askNode(nodes.get(i), exists.toArray(String[]::new)).equals(":0\r\n")) {
                holding.add(i);
            }
        }
        return holding;
    }

    private static long keysOn(KvdProcess node) {
        String reply = askNode(node, "DBSIZE");
        return Long.parseLong(reply.substring(1, reply.length() - 2));
    }

    private static String askNode(KvdProcess node, String... command) {
        try (RespConnection connection = RespConnection.open(node.port())) {
            if (nodePassword != null) {
                assertThat(connection.call("AUTH", nodePassword)).isEqualTo("+OK\r\n");
            }
            return connection.call(command);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Integer> nodePorts() {
        return nodes.stream().map(KvdProcess::port).toList();
    }

    /**
     * A pool of connections to the proxy, authenticating with {@code password} unless null. Without
     * CLIENT SETINFO: twemproxy closes the connection on a command it does not route.
     */
    private static JedisPooled jedisThrough(NutcrackerProcess proxy, String password) {
        return new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()), DefaultJedisClientConfig.builder()
                .password(password).clientSetInfoConfig(ClientSetInfoConfig.DISABLED).build());
    }

    private static String redisCli(String... command) {
        List<String> args = new ArrayList<>(List.of("-p", String.valueOf(proxy.port())));
        args.addAll(List.of(command));
        Tools.Result result = Tools.run(TIMEOUT, null, "redis-cli", args.toArray(String[]::new));
        assertThat(result.exitCode()).as("%s", result).isZero();
        return result.stdout();
    }

    /** The key numbers of MGET batch {@code batch}: every 30th, so that each batch spans the nodes. */
    private static IntStream batch(int batch) {
        return IntStream.range(0, BATCH).map(j -> batch + j * (KEYS / BATCH));
    }

    /**
     * 300 keys under {@code prefix} that land on every node. twemproxy's fnv1a_64 keeps 32 bits of the
     * hash, so keys that differ only in their last character hash close together, often to one node.
     */
    private static List<String> spreadKeys(String prefix) {
        return IntStream.range(0, 300).mapToObj(i -> prefix + i * 1009).toList();
    }

    private static String key(int i) {
        return "key:" + i;
    }

    private static String value(int i) {
        return "value:" + i;
    }
}
