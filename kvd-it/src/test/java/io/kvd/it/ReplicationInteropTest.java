package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kvd.it.AofInteropTest.call;
import static io.kvd.it.AofInteropTest.contents;
import static io.kvd.it.AofInteropTest.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis 7.0's replication protocol both ways: redis-server replicating from kvd, kvd from
 * redis-server (disk and diskless full syncs), kvd from kvd, a chain mixing them; each replica's
 * contents compared type by type with its primary's once their offsets agree; partial resyncs
 * after a cut link and after a promotion; WAIT, READONLY and NOREPLICAS.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ReplicationInteropTest {
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern OFFSET = Pattern.compile("master_repl_offset:(\\d+)");

    @Test
    void redisServerReplicatesFromKvd() throws Exception {
        try (KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no");
             RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-replica"))) {
            assertReplicates(kvd.port(), redis.port());
        }
    }

    /**
     * As Redis outside cluster mode, PUBLISH on a primary goes to its replicas, whose subscribers
     * get the message, a redis-server replica's as a kvd replica's.
     */
    @Test
    void aMessagePublishedOnTheKvdPrimaryReachesSubscribersOfEachReplica() throws Exception {
        try (KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no");
             KvdProcess kvdReplica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no");
             RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-replica"))) {
            replicaOf(kvdReplica.port(), kvd.port());
            replicaOf(redis.port(), kvd.port());
            try (RespConnection onKvd = RespConnection.open(kvdReplica.port());
                 RespConnection onRedis = RespConnection.open(redis.port());
                 RespConnection primary = RespConnection.open(kvd.port())) {
                String subscribed = "*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n";
                assertThat(onKvd.call("SUBSCRIBE", "news")).isEqualTo(subscribed);
                assertThat(onRedis.call("SUBSCRIBE", "news")).isEqualTo(subscribed);
                assertThat(primary.call("PUBLISH", "news", "hello")).isEqualTo(":0\r\n");
                String message = "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n";
                assertThat(new String(onKvd.readReply(), StandardCharsets.UTF_8)).isEqualTo(message);
                assertThat(new String(onRedis.readReply(), StandardCharsets.UTF_8)).isEqualTo(message);
            }
        }
    }

    @Test
    void kvdReplicatesFromRedisServerWithADisklessSync() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-primary"),
                "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0");
             KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no")) {
            assertReplicates(redis.port(), kvd.port());
        }
    }

    @Test
    void kvdReplicatesFromRedisServerThroughItsDisk() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-primary"),
                "--repl-diskless-sync", "no");
             KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "yes")) {
            assertReplicates(redis.port(), kvd.port());
        }
    }

    @Test
    void aChainOfRedisKvdRedisCarriesTheSameStream() throws Exception {
        try (RedisServerProcess top = RedisServerProcess.startIn(WorkDir.create("redis-top"),
                "--repl-diskless-sync-delay", "0");
             KvdProcess middle = KvdProcess.startIn(WorkDir.create("kvd-middle"), "--appendonly", "no");
             RedisServerProcess bottom = RedisServerProcess.startIn(WorkDir.create("redis-bottom"))) {
            write(top.port());
            replicaOf(middle.port(), top.port());
            replicaOf(bottom.port(), middle.port());
            writeMore(top.port());
            assertSameContents(top.port(), middle.port());
            assertSameContents(top.port(), bottom.port());
        }
    }

    @Test
    void aCutLinkResumesWithAPartialResync() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no");
             RespConnection p = RespConnection.open(primary.port());
             RespConnection r = RespConnection.open(replica.port())) {
            write(primary.port());
            replicaOf(replica.port(), primary.port());
            assertSameContents(primary.port(), replica.port());
            assertThat(r.call("CLIENT", "KILL", "TYPE", "master")).isEqualTo(":1\r\n");
            p.call("SET", "written", "while the link was down");
            p.call("INCRBY", "counter", "100");
            assertSameContents(primary.port(), replica.port());
            assertThat(r.call("GET", "written")).isEqualTo("$23\r\nwhile the link was down\r\n");
            String stats = call(p, "INFO", "stats");
            assertThat(stats).contains("sync_full:1\r\n").contains("sync_partial_ok:1\r\n");
        }
    }

    @Test
    void aRestartedReplicaContinuesFromItsRdbWithAPartialResync() throws Exception {
        Path replicaDir = WorkDir.create("kvd-replica");
        try (RedisServerProcess primary = RedisServerProcess.startIn(WorkDir.create("redis-primary"),
                "--repl-diskless-sync-delay", "0");
             RespConnection p = RespConnection.open(primary.port())) {
            write(primary.port());
            String[] asReplica = {"--appendonly", "no", "--save", "3600 1", "--replicaof", "127.0.0.1",
                    Integer.toString(primary.port())};
            try (KvdProcess replica = KvdProcess.startIn(replicaDir, asReplica)) {
                awaitLinkUp(replica.port());
                assertSameContents(primary.port(), replica.port());
            }
            // Stopped, the replica saved its dataset with the stream's id and offset; the primary went on.
            p.call("SET", "written", "while the replica was down");
            try (KvdProcess replica = KvdProcess.startIn(replicaDir, asReplica)) {
                awaitLinkUp(replica.port());
                assertSameContents(primary.port(), replica.port());
            }
            assertThat(call(p, "INFO", "stats")).contains("sync_full:1\r\n").contains("sync_partial_ok:1\r\n");
        }
    }

    @Test
    void aReplicaKilledMidSyncLeavesThePrimaryServingAndSyncsAgainWhenRestarted() throws Exception {
        Path replicaDir = WorkDir.create("kvd-replica");
        // 20,000 keys at 100 µs each: a snapshot of two seconds, long enough to be killed in.
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--rdb-key-save-delay", "100");
             RespConnection p = RespConnection.open(primary.port())) {
            assertThat(p.call("DEBUG", "POPULATE", "20000", "key", "10")).isEqualTo("+OK\r\n");
            String[] asReplica = {"--appendonly", "no", "--enable-debug-command", "yes", "--replicaof", "127.0.0.1",
                    Integer.toString(primary.port())};
            KvdProcess killed = KvdProcess.startIn(replicaDir, asReplica);
            Poll.until(SYNC_TIMEOUT, "the full sync to start",
                    () -> call(p, "INFO", "replication").contains(",state=wait_bgsave,") ? true : null);
            killed.kill();
            assertThat(p.call("PING")).isEqualTo("+PONG\r\n");
            Poll.until(SYNC_TIMEOUT, "the primary to drop the killed replica",
                    () -> call(p, "INFO", "replication").contains("connected_slaves:0\r\n") ? true : null);
            p.call("SET", "written", "while the replica was down");
            assertThat(p.call("CONFIG", "SET", "rdb-key-save-delay", "0")).isEqualTo("+OK\r\n");
            try (KvdProcess replica = KvdProcess.startIn(replicaDir, asReplica);
                 RespConnection r = RespConnection.open(replica.port())) {
                awaitLinkUp(replica.port());
                Poll.until(SYNC_TIMEOUT, "the replica to hold the primary's dataset",
                        () -> call(r, "DEBUG", "DIGEST").equals(call(p, "DEBUG", "DIGEST")) ? true : null);
                assertThat(r.call("DBSIZE")).isEqualTo(":20001\r\n");
            }
        }
    }

    @Test
    void aPromotedReplicaContinuesTheHistoryForTheOldPrimary() throws Exception {
        try (KvdProcess first = KvdProcess.startIn(WorkDir.create("kvd-first"), "--appendonly", "no");
             RedisServerProcess second = RedisServerProcess.startIn(WorkDir.create("redis-second"));
             RespConnection f = RespConnection.open(first.port());
             RespConnection s = RespConnection.open(second.port())) {
            write(first.port());
            replicaOf(second.port(), first.port());
            assertSameContents(first.port(), second.port());
            // The failover Sentinel performs: the replica promoted, the old primary turned replica of it.
            assertThat(s.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
            s.call("SET", "after", "promotion");
            replicaOf(first.port(), second.port());
            assertSameContents(second.port(), first.port());
            assertThat(f.call("GET", "after")).isEqualTo("$9\r\npromotion\r\n");
            assertThat(call(s, "INFO", "stats")).contains("sync_partial_ok:1\r\n").contains("sync_full:0\r\n");
            // Back: kvd promoted, redis-server its replica again, by PSYNC of kvd's secondary history.
            assertThat(f.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
            f.call("SET", "again", "kvd");
            replicaOf(second.port(), first.port());
            assertSameContents(first.port(), second.port());
            assertThat(call(f, "INFO", "stats")).contains("sync_partial_ok:1\r\n");
        }
    }

    @Test
    void failoverHandsThePrimaryRoleToAReplicaBothWays() throws Exception {
        try (KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd"), "--appendonly", "no");
             RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis"));
             RespConnection k = RespConnection.open(kvd.port());
             RespConnection r = RespConnection.open(redis.port())) {
            write(kvd.port());
            replicaOf(redis.port(), kvd.port());
            assertSameContents(kvd.port(), redis.port());
            assertThat(k.call("FAILOVER", "TO", "127.0.0.1", "1")).isEqualTo(
                    "-ERR FAILOVER target HOST and PORT is not a replica.\r\n");
            assertThat(k.call("FAILOVER", "ABORT")).isEqualTo("-ERR No failover in progress.\r\n");
            // kvd hands over to redis-server: redis-server promoted by kvd's PSYNC ... FAILOVER.
            assertThat(k.call("FAILOVER", "TO", "127.0.0.1", Integer.toString(redis.port()))).isEqualTo("+OK\r\n");
            awaitRoles(r, k, redis.port());
            r.call("SET", "after", "failover");
            assertSameContents(redis.port(), kvd.port());
            // And back: redis-server hands over to kvd, any replica.
            assertThat(r.call("FAILOVER")).isEqualTo("+OK\r\n");
            awaitRoles(k, r, kvd.port());
            k.call("SET", "again", "kvd");
            assertSameContents(kvd.port(), redis.port());
            assertThat(call(k, "INFO", "replication")).contains("master_failover_state:no-failover\r\n");
        }
    }

    /** Until {@code primary} is a primary and {@code replica} follows it on {@code primaryPort} with its link up. */
    private static void awaitRoles(RespConnection primary, RespConnection replica, int primaryPort) {
        Poll.until(SYNC_TIMEOUT, "the roles to swap", () -> {
            String replicaInfo = call(replica, "INFO", "replication");
            return call(primary, "ROLE").startsWith("*3\r\n$6\r\nmaster\r\n")
                    && replicaInfo.contains("master_port:" + primaryPort + "\r\n")
                    && replicaInfo.contains("master_link_status:up\r\n") ? true : null;
        });
    }

    @Test
    void aReplicaAnnouncesTheAddressItIsGiven() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-primary"));
             KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--replica-announce-ip", "10.1.2.3", "--replica-announce-port", "16379");
             RespConnection r = RespConnection.open(redis.port());
             RespConnection k = RespConnection.open(kvd.port())) {
            for (int primary : new int[] {redis.port(), kvd.port()}) {
                replicaOf(replica.port(), primary);
                RespConnection c = primary == redis.port() ? r : k;
                Poll.until(SYNC_TIMEOUT, "the primary to list the replica",
                        () -> call(c, "INFO", "replication").contains("slave0:ip=10.1.2.3,port=16379,state=online") ? true : null);
            }
        }
    }

    @Test
    void aReplicaConnectsFromItsBindSourceAddress() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-primary"));
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--bind-source-addr", "127.0.0.2");
             RespConnection r = RespConnection.open(redis.port())) {
            // 127.0.0.2 is not one of the two addresses protected mode lets in.
            r.call("CONFIG", "SET", "protected-mode", "no");
            replicaOf(replica.port(), redis.port());
            Poll.until(SYNC_TIMEOUT, "the primary to list the replica at 127.0.0.2",
                    () -> call(r, "INFO", "replication").contains("slave0:ip=127.0.0.2,") ? true : null);
        }
    }

    @Test
    void aReplicaLogsTheErrorsItsPrimarysStreamCauses() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no");
             RespConnection p = RespConnection.open(primary.port())) {
            replicaOf(replica.port(), primary.port());
            assertThat(p.call("DEBUG", "REPLICATE", "fake-command-1")).isEqualTo("+OK\r\n");
            p.call("SET", "after", "it");
            assertSameContents(primary.port(), replica.port());
            assertThat(replica.log()).contains("== CRITICAL == This replica is sending an error to its master: "
                    + "'ERR unknown command 'fake-command-1', with args beginning with: ' after processing the command "
                    + "'<unknown>'");
        }
    }

    @Test
    void aReplicaLeavesExpiryToItsPrimary() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no");
             RespConnection p = RespConnection.open(primary.port());
             RespConnection r = RespConnection.open(replica.port())) {
            replicaOf(replica.port(), primary.port());
            assertThat(p.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
            p.call("SET", "k", "v", "PX", "50");
            assertSameContents(primary.port(), replica.port());
            // Past the deadline a read on the replica finds nothing, yet the key stays for the primary's DEL.
            Poll.until(SYNC_TIMEOUT, "the deadline to pass on the replica",
                    () -> call(r, "GET", "k").equals("$-1\r\n") ? true : null);
            assertThat(r.call("DBSIZE")).isEqualTo(":1\r\n");
            assertThat(r.call("EXISTS", "k")).isEqualTo(":0\r\n");
            // The primary's own lookup expires it and sends the DEL.
            assertThat(p.call("GET", "k")).isEqualTo("$-1\r\n");
            Poll.until(SYNC_TIMEOUT, "the primary's DEL on the replica",
                    () -> call(r, "DBSIZE").equals(":0\r\n") ? true : null);
            // A key a client wrote on a writable replica is the replica's own to expire, unread.
            assertThat(r.call("CONFIG", "SET", "replica-read-only", "no")).isEqualTo("+OK\r\n");
            assertThat(r.call("SET", "own", "v", "PX", "50")).isEqualTo("+OK\r\n");
            Poll.until(SYNC_TIMEOUT, "the replica to expire its own key",
                    () -> call(r, "DBSIZE").equals(":0\r\n") ? true : null);
        }
    }

    /** TIME's milliseconds. */
    private static long primaryTimeMs(RespConnection c) {
        String[] lines = call(c, "TIME").split("\r\n");
        return Long.parseLong(lines[2]) * 1000 + Long.parseLong(lines[4]) / 1000;
    }

    @Test
    void aFullSyncKeepsKeysPastTheirDeadlineForThePrimarysDel() throws Exception {
        // redis-server's snapshot holds a key past its deadline that nothing read (kvd's skips it).
        try (RedisServerProcess primary = RedisServerProcess.startIn(WorkDir.create("redis-primary"),
                "--enable-debug-command", "yes");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--enable-debug-command", "yes");
             RespConnection p = RespConnection.open(primary.port());
             RespConnection r = RespConnection.open(replica.port())) {
            assertThat(p.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
            p.call("SET", "k", "v", "PX", "1");
            p.call("SET", "live", "v");
            // Past the deadline, unread on the primary (a read would expire it); its clock says when.
            long setAtMs = primaryTimeMs(p);
            Poll.until(SYNC_TIMEOUT, "the deadline to pass", () -> primaryTimeMs(p) > setAtMs + 2 ? true : null);
            replicaOf(replica.port(), primary.port());
            Poll.until(SYNC_TIMEOUT, "the replica to load the snapshot",
                    () -> call(r, "EXISTS", "live").equals(":1\r\n") ? true : null);
            // As Redis's rdbLoad on a replica: loaded, hidden from reads, left for the primary's DEL.
            assertThat(r.call("DEBUG", "OBJECT", "k")).startsWith("+Value at:");
            assertThat(r.call("GET", "k")).isEqualTo("$-1\r\n");
            assertThat(p.call("GET", "k")).isEqualTo("$-1\r\n");
            Poll.until(SYNC_TIMEOUT, "the primary's DEL on the replica",
                    () -> call(r, "DBSIZE").equals(":1\r\n") ? true : null);
        }
    }

    @Test
    void waitCountsTheReplicasThatAcknowledgedAndAReplicaRefusesWrites() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no");
             RespConnection p = RespConnection.open(primary.port());
             RespConnection r = RespConnection.open(replica.port())) {
            assertThat(p.call("WAIT", "1", "10")).isEqualTo(":0\r\n");
            replicaOf(replica.port(), primary.port());
            p.call("SET", "k", "v");
            assertThat(p.call("WAIT", "1", "0")).isEqualTo(":1\r\n");
            assertThat(r.call("GET", "k")).isEqualTo("$1\r\nv\r\n");
            assertThat(r.call("SET", "k", "w")).isEqualTo("-READONLY You can't write against a read only replica.\r\n");
            assertThat(r.call("EVAL", "return redis.call('SET', 'k', 'w')", "0"))
                    .startsWith("-READONLY You can't write against a read only replica. script: ");
            assertThat(r.call("WAIT", "1", "0")).startsWith("-ERR WAIT cannot be used with replica instances.");
            assertThat(p.call("ROLE")).matches("(?s)\\*3\r\n\\$6\r\nmaster\r\n:\\d+\r\n\\*1\r\n\\*3\r\n\\$9\r\n127\\.0\\.0\\.1"
                    + "\r\n\\$\\d+\r\n" + replica.port() + "\r\n.*");
            assertThat(r.call("ROLE")).matches("(?s)\\*5\r\n\\$5\r\nslave\r\n\\$9\r\n127\\.0\\.0\\.1\r\n:" + primary.port()
                    + "\r\n\\$9\r\nconnected\r\n:\\d+\r\n");
            assertThat(p.call("CONFIG", "SET", "min-replicas-to-write", "2")).isEqualTo("+OK\r\n");
            assertThat(p.call("SET", "k", "x")).isEqualTo("-NOREPLICAS Not enough good replicas to write.\r\n");
            assertThat(p.call("EVAL", "return redis.call('SET', 'k', 'x')", "0"))
                    .startsWith("-NOREPLICAS Not enough good replicas to write. script: ");
            assertThat(p.call("CONFIG", "SET", "min-replicas-to-write", "1")).isEqualTo("+OK\r\n");
            assertThat(p.call("SET", "k", "x")).isEqualTo("+OK\r\n");
        }
    }

    /** The replica gets the primary's data by a full sync, then its later writes by the stream. */
    private static void assertReplicates(int primary, int replica) throws Exception {
        write(primary);
        replicaOf(replica, primary);
        assertSameContents(primary, replica);
        writeMore(primary);
        assertSameContents(primary, replica);
    }

    /** Writes after the sync, of the kinds a stream carries as rewritten: scripts, transactions, expiry. */
    private static void writeMore(int port) throws IOException {
        try (RespConnection c = RespConnection.open(port)) {
            c.call("EVAL", "redis.call('SET', KEYS[1], 'lua'); return redis.call('INCR', KEYS[2])", "2", "plain", "counter");
            c.call("MULTI");
            c.call("HSET", "hash", "f4", "multi");
            c.call("LPUSH", "list", "multi");
            c.call("EXEC");
            c.call("SET", "ex", "v", "PX", "1");
            c.call("SELECT", "3");
            c.call("SET", "in3", "changed");
            c.call("SPOP", "moving");
        }
    }

    private static void replicaOf(int replica, int primary) throws IOException {
        try (RespConnection c = RespConnection.open(replica)) {
            assertThat(c.call("REPLICAOF", "127.0.0.1", Integer.toString(primary))).isEqualTo("+OK\r\n");
        }
        awaitLinkUp(replica);
    }

    private static void awaitLinkUp(int replica) throws IOException {
        try (RespConnection c = RespConnection.open(replica)) {
            Poll.until(SYNC_TIMEOUT, "the replica's link up",
                    () -> call(c, "INFO", "replication").contains("master_link_status:up\r\n") ? true : null);
        }
    }

    /** Waits until the replica has the primary's whole stream, then compares their contents. */
    private static void assertSameContents(int primary, int replica) throws Exception {
        try (RespConnection p = RespConnection.open(primary); RespConnection r = RespConnection.open(replica)) {
            Poll.until(SYNC_TIMEOUT, "the replica's offset reaching the primary's", () -> {
                long primaryOffset = offset(call(p, "INFO", "replication"));
                return primaryOffset == offset(call(r, "INFO", "replication")) ? true : null;
            });
        }
        assertThat(contents(replica)).isEqualTo(contents(primary));
    }

    private static long offset(String info) {
        Matcher m = OFFSET.matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
