package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * maxmemory on the real jar: the store's used memory stays within the limit, and the process's
 * resident set within the limit plus the documented overhead, while ten times as much is written;
 * evicted keys reach the AOF as DEL and subscribers as "evicted" events.
 */
@ExtendWith(ServerLogsOnFailure.class)
class MaxmemoryTest {
    private static final long MAXMEMORY = 16L << 20;
    /** docs/configuration.md: with -Xmx maxmemory + 128 MB, the resident set stays within maxmemory + 256 MB. */
    private static final List<String> JVM = List.of("-Xmx" + ((MAXMEMORY >> 20) + 128) + "m");
    private static final long DOCUMENTED_OVERHEAD = 256L << 20;
    private static final int VALUE_BYTES = 1000;
    private static final int BATCH = 200;

    @Test
    void usedMemoryAndResidentSetStayBoundedWhileWritingTenTimesMaxmemory() throws IOException {
        try (KvdProcess kvd = KvdProcess.startWithJvmOptions(JVM, "--appendonly", "no",
                "--maxmemory", String.valueOf(MAXMEMORY), "--maxmemory-policy", "allkeys-lru");
             RespConnection connection = RespConnection.open(kvd.port())) {
            long largestRss = 0;
            long written = 0;
            SplittableRandom random = new SplittableRandom(34);
            while (written < 10 * MAXMEMORY) {
                written += writeBatch(connection, random);
                largestRss = Math.max(largestRss, residentSet(kvd.pid()));
            }
            assertThat(infoField(connection, "used_memory")).isLessThanOrEqualTo(MAXMEMORY);
            assertThat(infoField(connection, "evicted_keys")).isPositive();
            assertThat(infoField(connection, "maxmemory")).isEqualTo(MAXMEMORY);
            System.out.println("MaxmemoryTest: wrote " + (written >> 20) + " MB, largest RSS " + (largestRss >> 20) + " MB");
            assertThat(largestRss).isLessThanOrEqualTo(MAXMEMORY + DOCUMENTED_OVERHEAD);
        }
    }

    @Test
    void replayAfterEvictionsHoldsExactlyTheKeysLeft() throws IOException {
        Path dir = WorkDir.create("maxmemory-aof");
        TreeSet<String> before;
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--appendonly", "yes", "--maxmemory", "2mb",
                "--maxmemory-policy", "allkeys-random");
             RespConnection connection = RespConnection.open(kvd.port())) {
            SplittableRandom random = new SplittableRandom(35);
            for (long written = 0; written < (8L << 20); ) {
                written += writeBatch(connection, random);
            }
            assertThat(infoField(connection, "evicted_keys")).isPositive();
            before = keys(connection);
        }
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--appendonly", "yes");
             RespConnection connection = RespConnection.open(kvd.port())) {
            assertThat(keys(connection)).isEqualTo(before);
        }
    }

    @Test
    void evictedKeysAreAnnouncedToKeyEventSubscribers() throws IOException {
        try (KvdProcess kvd = KvdProcess.start("--appendonly", "no", "--maxmemory", "1mb",
                "--maxmemory-policy", "allkeys-lru", "--notify-keyspace-events", "Ee");
             RespConnection subscriber = RespConnection.open(kvd.port());
             RespConnection writer = RespConnection.open(kvd.port())) {
            subscriber.call("SUBSCRIBE", "__keyevent@0__:evicted");
            SplittableRandom random = new SplittableRandom(36);
            while (infoField(writer, "evicted_keys") == 0) {
                writeBatch(writer, random);
            }
            String message = new String(subscriber.readReply(), StandardCharsets.UTF_8);
            assertThat(message).startsWith("*3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@0__:evicted\r\n$")
                    .contains("key:");
        }
    }

    /** Pipelines {@link #BATCH} SETs of random keys; returns the bytes of values written. */
    private static long writeBatch(RespConnection connection, SplittableRandom random) throws IOException {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) 'v');
        for (int i = 0; i < BATCH; i++) {
            connection.send("SET".getBytes(StandardCharsets.US_ASCII),
                    ("key:" + random.nextInt(10_000_000)).getBytes(StandardCharsets.US_ASCII), value);
        }
        for (int i = 0; i < BATCH; i++) {
            assertThat(new String(connection.readReply(), StandardCharsets.UTF_8)).isEqualTo("+OK\r\n");
        }
        return (long) BATCH * VALUE_BYTES;
    }

    private static TreeSet<String> keys(RespConnection connection) throws IOException {
        String reply = connection.call("KEYS", "*");
        TreeSet<String> keys = new TreeSet<>();
        for (String line : reply.split("\r\n")) {
            if (line.startsWith("key:")) {
                keys.add(line);
            }
        }
        return keys;
    }

    private static long infoField(RespConnection connection, String field) throws IOException {
        for (String line : connection.call("INFO", "everything").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("INFO has no " + field);
    }

    /** VmRSS of the process, in bytes. */
    private static long residentSet(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).replace("kB", "").strip()) * 1024;
            }
        }
        throw new AssertionError("no VmRSS for " + pid);
    }
}
