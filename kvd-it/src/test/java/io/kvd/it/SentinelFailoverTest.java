package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.SentinelProcess;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisSentinelPool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kvd.it.AofInteropTest.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis Sentinel drives kvd: three redis-sentinels monitoring a kvd primary with two kvd
 * replicas find the replicas and each other, and when the primary is killed promote a replica
 * and point the other at it. Every write acknowledged by {@code WAIT 1} before the kill reads
 * back from the new primary, and Jedis's JedisSentinelPool finds it.
 */
@ExtendWith(ServerLogsOnFailure.class)
class SentinelFailoverTest {
    private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final int WRITERS = 4;

    @Test
    void sentinelsPromoteAReplicaAndNoWriteAcknowledgedByAReplicaIsLost() throws Exception {
        // Not closed as the others: the test kills it.
        KvdProcess primary = startKvd("primary");
        try (KvdProcess first = startKvd("replica-1", "--replicaof", "127.0.0.1", Integer.toString(primary.port()));
             KvdProcess second = startKvd("replica-2", "--replicaof", "127.0.0.1", Integer.toString(primary.port()));
             SentinelProcess s1 = SentinelProcess.monitor(primary.port(), 2, 1000);
             SentinelProcess s2 = SentinelProcess.monitor(primary.port(), 2, 1000);
             SentinelProcess s3 = SentinelProcess.monitor(primary.port(), 2, 1000)) {
            List<SentinelProcess> sentinels = List.of(s1, s2, s3);
            for (SentinelProcess sentinel : sentinels) {
                awaitDiscovery(sentinel);
            }
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            AtomicInteger total = new AtomicInteger();
            List<Future<Integer>> acknowledged = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                acknowledged.add(pool.submit(() -> writeAndWaitUntilKilled(primary.port(), writer, total)));
            }
            Poll.until(Duration.ofSeconds(30), "200 writes acknowledged by a replica", () -> total.get() >= 200 ? true : null);
            long killedAt = System.nanoTime();
            primary.kill();
            int promoted = Poll.until(DISCOVERY_TIMEOUT, "the sentinels to name a new primary", () -> {
                int port = primaryPort(s1);
                return port != primary.port() ? port : null;
            });
            System.out.printf("Sentinel failover: a new primary named %d ms after the old one was killed%n",
                    (System.nanoTime() - killedAt) / 1_000_000);
            assertThat(promoted).isIn(first.port(), second.port());
            int writes = 0;
            try (RespConnection c = RespConnection.open(promoted)) {
                Poll.until(DISCOVERY_TIMEOUT, "the promoted replica to be a primary",
                        () -> call(c, "ROLE").startsWith("*3\r\n$6\r\nmaster\r\n") ? true : null);
                for (int w = 0; w < WRITERS; w++) {
                    int count = acknowledged.get(w).get();
                    writes += count;
                    for (int i = 0; i < count; i++) {
                        assertThat(c.call("GET", key(w, i))).as("writer %d write %d of %d acknowledged", w, i, count)
                                .isEqualTo("$" + ("v" + i).length() + "\r\nv" + i + "\r\n");
                    }
                }
            }
            pool.shutdown();
            System.out.printf("Sentinel failover: %d writes acknowledged by WAIT 1, all on the new primary%n", writes);
            int other = promoted == first.port() ? second.port() : first.port();
            // A fresh connection per look: Sentinel's reconfiguration ends with CLIENT KILL TYPE normal.
            Poll.until(DISCOVERY_TIMEOUT, "the other replica to follow the new primary", () -> {
                try (RespConnection c = RespConnection.open(other)) {
                    String info = c.call("INFO", "replication");
                    return info.contains("master_port:" + promoted + "\r\n") && info.contains("master_link_status:up\r\n")
                            ? true : null;
                } catch (IOException e) {
                    return null;
                }
            });
            Set<String> sentinelAddresses = Set.of("127.0.0.1:" + s1.port(), "127.0.0.1:" + s2.port(), "127.0.0.1:" + s3.port());
            try (JedisSentinelPool jedisPool = new JedisSentinelPool(SentinelProcess.MASTER_NAME, sentinelAddresses);
                 Jedis jedis = jedisPool.getResource()) {
                assertThat(jedis.set("through", "sentinel")).isEqualTo("OK");
                assertThat(jedis.get("through")).isEqualTo("sentinel");
                assertThat(jedisPool.getCurrentHostMaster().getPort()).isEqualTo(promoted);
            }
        } finally {
            primary.stop();
        }
    }

    /** A kvd with a config file, which Sentinel's CONFIG REWRITE rewrites. */
    private static KvdProcess startKvd(String name, String... options) throws IOException {
        Path dir = WorkDir.create("kvd-" + name);
        Path config = Files.writeString(dir.resolve("kvd.conf"), "appendonly no\n");
        return KvdProcess.startWithConfigFile(dir, config, options);
    }

    /** Until the sentinel knows both replicas and the two other sentinels. */
    private static void awaitDiscovery(SentinelProcess sentinel) throws IOException {
        try (RespConnection c = RespConnection.open(sentinel.port())) {
            Poll.until(DISCOVERY_TIMEOUT, "sentinel " + sentinel.port() + " to find the replicas and the other sentinels", () -> {
                String replicas = call(c, "SENTINEL", "REPLICAS", SentinelProcess.MASTER_NAME);
                String others = call(c, "SENTINEL", "SENTINELS", SentinelProcess.MASTER_NAME);
                return replicas.startsWith("*2\r\n") && !replicas.contains("s_down") && !replicas.contains("disconnected")
                        && others.startsWith("*2\r\n") ? true : null;
            });
        }
    }

    private static int primaryPort(SentinelProcess sentinel) {
        try (RespConnection c = RespConnection.open(sentinel.port())) {
            String reply = c.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", SentinelProcess.MASTER_NAME);
            String[] lines = reply.split("\r\n");
            return Integer.parseInt(lines[lines.length - 1]);
        } catch (IOException e) {
            return -1;
        }
    }

    /** SET then WAIT 1 until the primary dies; returns how many writes a replica acknowledged, in order. */
    private static int writeAndWaitUntilKilled(int port, int writer, AtomicInteger total) {
        int count = 0;
        try (RespConnection c = RespConnection.open(port)) {
            while (c.call("SET", key(writer, count), "v" + count).equals("+OK\r\n")
                    && !c.call("WAIT", "1", "5000").equals(":0\r\n")) {
                count++;
                total.incrementAndGet();
            }
        } catch (IOException e) {
            // The primary was killed: the writes counted so far were acknowledged.
        }
        return count;
    }

    private static String key(int writer, int i) {
        return "w" + writer + ":" + i;
    }
}
