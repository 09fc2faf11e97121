package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kvd.it.AofInteropTest.call;
import static io.kvd.it.AofInteropTest.contents;
import static io.kvd.it.AofInteropTest.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Diskless full syncs as Redis 7.0 makes them: a primary streaming its snapshot to the sockets of
 * replicas that announced capa eof (kvd to kvd, kvd to redis-server), a replica parsing the
 * stream with repl-diskless-load (from kvd and from redis-server), repl-diskless-sync-delay and
 * -max-replicas gathering replicas into one transfer, a replica killed mid transfer, and swapdb
 * keeping the old data when the primary dies mid transfer.
 */
@ExtendWith(ServerLogsOnFailure.class)
class DisklessReplicationTest {
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern OFFSET = Pattern.compile("master_repl_offset:(\\d+)");
    private static final String TO_SOCKETS = "Starting BGSAVE for SYNC with target: replicas sockets";

    @Test
    void kvdStreamsItsSnapshotToAKvdReplicaThatSwapsItIn() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--repl-diskless-sync-delay", "0");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--enable-debug-command", "yes", "--repl-diskless-load", "swapdb");
             RespConnection p = RespConnection.open(primary.port());
             RespConnection r = RespConnection.open(replica.port())) {
            write(primary.port());
            assertThat(p.call("DEBUG", "POPULATE", "20000", "key", "10")).isEqualTo("+OK\r\n");
            r.call("SET", "only-on-the-replica", "1");
            replicaOf(replica.port(), primary.port());
            p.call("SET", "after-the-sync", "1");
            awaitSameOffset(primary.port(), replica.port());
            assertThat(r.call("DEBUG", "DIGEST")).isEqualTo(p.call("DEBUG", "DIGEST"));
            assertThat(r.call("EXISTS", "only-on-the-replica")).isEqualTo(":0\r\n");
            assertThat(primary.log()).contains(TO_SOCKETS)
                    .contains("Synchronization with replica 127.0.0.1:" + replica.port() + " succeeded");
            assertThat(replica.log()).contains("receiving streamed RDB from master with EOF to parser")
                    .contains("Swapping active DB with loaded DB");
            assertThat(dumpFiles(replica)).isFalse();
        }
    }

    @Test
    void kvdLoadsADisklessSyncFromRedisServerIntoAnEmptyDataset() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-primary"),
                "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0");
             KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--repl-diskless-load", "on-empty-db")) {
            write(redis.port());
            replicaOf(kvd.port(), redis.port());
            awaitSameOffset(redis.port(), kvd.port());
            assertThat(contents(kvd.port())).isEqualTo(contents(redis.port()));
            assertThat(kvd.log()).contains("receiving streamed RDB from master with EOF to parser");
        }
    }

    @Test
    void aReplicaHoldingDataLoadsThroughItsDiskWithOnEmptyDb() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--repl-diskless-sync-delay", "0");
             KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                     "--repl-diskless-load", "on-empty-db");
             RespConnection r = RespConnection.open(replica.port())) {
            write(primary.port());
            r.call("SET", "only-on-the-replica", "1");
            replicaOf(replica.port(), primary.port());
            awaitSameOffset(primary.port(), replica.port());
            assertThat(contents(replica.port())).isEqualTo(contents(primary.port()));
            assertThat(replica.log()).contains("receiving streamed RDB from master with EOF to disk");
        }
    }

    @Test
    void redisServerReplicatesFromKvdsSocketStream() throws Exception {
        try (KvdProcess kvd = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--repl-diskless-sync-delay", "0");
             RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis-replica"),
                     "--repl-diskless-load", "swapdb")) {
            write(kvd.port());
            replicaOf(redis.port(), kvd.port());
            try (RespConnection p = RespConnection.open(kvd.port())) {
                p.call("SET", "after-the-sync", "1");
            }
            awaitSameOffset(kvd.port(), redis.port());
            assertThat(contents(redis.port())).isEqualTo(contents(kvd.port()));
            assertThat(kvd.log()).contains(TO_SOCKETS);
        }
    }

    @Test
    void aReplicaWithoutCapaEofGetsTheSnapshotFromDisk() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--repl-diskless-sync-delay", "0");
             Socket socket = new Socket("127.0.0.1", primary.port())) {
            write(primary.port());
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("REPLCONF capa psync2\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readLine(in)).isEqualTo("+OK");
            out.write("PSYNC ? -1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readLine(in)).startsWith("+FULLRESYNC ");
            String header = readLine(in);
            while (header.isEmpty()) {
                header = readLine(in);
            }
            assertThat(header).matches("\\$\\d+");
            assertThat(primary.log()).contains("Starting BGSAVE for SYNC with target: disk");
        }
    }

    @Test
    void theDelayGathersReplicasUntilMaxReplicasAreWaiting() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--repl-diskless-sync-delay", "3600",
                "--repl-diskless-sync-max-replicas", "2");
             KvdProcess first = KvdProcess.startIn(WorkDir.create("kvd-first"), "--appendonly", "no",
                     "--enable-debug-command", "yes");
             KvdProcess second = KvdProcess.startIn(WorkDir.create("kvd-second"), "--appendonly", "no",
                     "--enable-debug-command", "yes");
             RespConnection p = RespConnection.open(primary.port())) {
            assertThat(p.call("DEBUG", "POPULATE", "1000")).isEqualTo("+OK\r\n");
            sendReplicaOf(first.port(), primary.port());
            Poll.until(SYNC_TIMEOUT, "the first replica to wait",
                    () -> primary.log().contains("Delay next BGSAVE for diskless SYNC") ? true : null);
            assertThat(call(p, "INFO", "replication")).contains(",state=wait_bgsave,");
            assertThat(call(p, "INFO", "persistence")).contains("rdb_bgsave_in_progress:0\r\n");
            sendReplicaOf(second.port(), primary.port());
            awaitLinkUp(first.port());
            awaitLinkUp(second.port());
            assertThat(primary.log().split(TO_SOCKETS, -1)).hasSize(2);
            assertThat(call(p, "INFO", "stats")).contains("sync_full:2\r\n");
            String digest = p.call("DEBUG", "DIGEST");
            for (KvdProcess replica : new KvdProcess[] {first, second}) {
                awaitSameOffset(primary.port(), replica.port());
                try (RespConnection r = RespConnection.open(replica.port())) {
                    assertThat(r.call("DEBUG", "DIGEST")).isEqualTo(digest);
                }
            }
        }
    }

    @Test
    void aReplicaKilledMidTransferLeavesTheOtherToFinish() throws Exception {
        // 20,000 keys at 100 µs each: a transfer of two seconds, long enough to kill a replica in.
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--rdb-key-save-delay", "100", "--repl-diskless-sync-delay", "3600",
                "--repl-diskless-sync-max-replicas", "2");
             KvdProcess survivor = KvdProcess.startIn(WorkDir.create("kvd-survivor"), "--appendonly", "no",
                     "--enable-debug-command", "yes");
             RespConnection p = RespConnection.open(primary.port())) {
            assertThat(p.call("DEBUG", "POPULATE", "20000", "key", "10")).isEqualTo("+OK\r\n");
            KvdProcess killed = KvdProcess.startIn(WorkDir.create("kvd-killed"), "--appendonly", "no");
            sendReplicaOf(killed.port(), primary.port());
            sendReplicaOf(survivor.port(), primary.port());
            Poll.until(SYNC_TIMEOUT, "the transfer to start",
                    () -> call(p, "INFO", "persistence").contains("rdb_bgsave_in_progress:1\r\n") ? true : null);
            killed.kill();
            assertThat(p.call("PING")).isEqualTo("+PONG\r\n");
            awaitLinkUp(survivor.port());
            awaitSameOffset(primary.port(), survivor.port());
            try (RespConnection r = RespConnection.open(survivor.port())) {
                assertThat(r.call("DEBUG", "DIGEST")).isEqualTo(p.call("DEBUG", "DIGEST"));
            }
            assertThat(call(p, "INFO", "replication")).contains("connected_slaves:1\r\n");
        }
    }

    @Test
    void theTransferStopsWhenItsLastReplicaIsKilled() throws Exception {
        try (KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--rdb-key-save-delay", "1000", "--repl-diskless-sync-delay", "0");
             RespConnection p = RespConnection.open(primary.port())) {
            assertThat(p.call("DEBUG", "POPULATE", "20000", "key", "10")).isEqualTo("+OK\r\n");
            KvdProcess killed = KvdProcess.startIn(WorkDir.create("kvd-killed"), "--appendonly", "no");
            sendReplicaOf(killed.port(), primary.port());
            Poll.until(SYNC_TIMEOUT, "the transfer to start",
                    () -> call(p, "INFO", "persistence").contains("rdb_bgsave_in_progress:1\r\n") ? true : null);
            killed.kill();
            Poll.until(SYNC_TIMEOUT, "the transfer to stop",
                    () -> call(p, "INFO", "persistence").contains("rdb_bgsave_in_progress:0\r\n") ? true : null);
            assertThat(primary.log()).contains("Diskless rdb transfer, last replica dropped, killing fork child.");
            assertThat(p.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
        }
    }

    @Test
    void swapdbKeepsTheOldDataWhenThePrimaryDiesMidTransfer() throws Exception {
        try (KvdProcess replica = KvdProcess.startIn(WorkDir.create("kvd-replica"), "--appendonly", "no",
                "--enable-debug-command", "yes", "--repl-diskless-load", "swapdb");
             RespConnection r = RespConnection.open(replica.port())) {
            assertThat(r.call("DEBUG", "POPULATE", "500", "old", "10")).isEqualTo("+OK\r\n");
            String before = r.call("DEBUG", "DIGEST");
            String oldValue = r.call("GET", "old:1");
            // A transfer of 20 s: the primary is killed well inside it.
            KvdProcess primary = KvdProcess.startIn(WorkDir.create("kvd-primary"), "--appendonly", "no",
                    "--enable-debug-command", "yes", "--rdb-key-save-delay", "1000", "--repl-diskless-sync-delay", "0");
            try (RespConnection p = RespConnection.open(primary.port())) {
                assertThat(p.call("DEBUG", "POPULATE", "20000", "new", "10")).isEqualTo("+OK\r\n");
            }
            sendReplicaOf(replica.port(), primary.port());
            Poll.until(SYNC_TIMEOUT, "keys of the primary to arrive",
                    () -> syncReadBytes(call(r, "INFO", "replication")) > 0 ? true : null);
            // Another history: as Redis 7.0, the replica is loading and refuses commands meanwhile.
            assertThat(r.call("INFO", "persistence")).contains("loading:1\r\n").contains("async_loading:0\r\n");
            assertThat(r.call("GET", "old:1")).isEqualTo("-LOADING Redis is loading the dataset in memory\r\n");
            primary.kill();
            Poll.until(SYNC_TIMEOUT, "the replica to drop the half-loaded data",
                    () -> replica.log().contains("Discarding temporary DB") ? true : null);
            assertThat(r.call("DEBUG", "DIGEST")).isEqualTo(before);
            assertThat(r.call("DBSIZE")).isEqualTo(":500\r\n");
            assertThat(r.call("GET", "old:1")).isEqualTo(oldValue);
        }
    }

    private static long syncReadBytes(String info) {
        Matcher m = Pattern.compile("master_sync_read_bytes:(-?\\d+)").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Whether the replica left an RDB or a temporary sync file in its directory. */
    private static boolean dumpFiles(KvdProcess kvd) throws IOException {
        try (var files = java.nio.file.Files.list(kvd.dir())) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".rdb"));
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("closed");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    private static void sendReplicaOf(int replica, int primary) throws IOException {
        try (RespConnection c = RespConnection.open(replica)) {
            assertThat(c.call("REPLICAOF", "127.0.0.1", Integer.toString(primary))).isEqualTo("+OK\r\n");
        }
    }

    private static void replicaOf(int replica, int primary) throws IOException {
        sendReplicaOf(replica, primary);
        awaitLinkUp(replica);
    }

    private static void awaitLinkUp(int replica) throws IOException {
        try (RespConnection c = RespConnection.open(replica)) {
            Poll.until(SYNC_TIMEOUT, "the replica's link up",
                    () -> call(c, "INFO", "replication").contains("master_link_status:up\r\n") ? true : null);
        }
    }

    private static void awaitSameOffset(int primary, int replica) throws IOException {
        try (RespConnection p = RespConnection.open(primary); RespConnection r = RespConnection.open(replica)) {
            Poll.until(SYNC_TIMEOUT, "the replica's offset reaching the primary's", () -> {
                long primaryOffset = offset(call(p, "INFO", "replication"));
                return primaryOffset == offset(call(r, "INFO", "replication")) ? true : null;
            });
        }
    }

    private static long offset(String info) {
        Matcher m = OFFSET.matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
