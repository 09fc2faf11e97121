package io.kvd.server.admin;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.server.command.CommandFixture;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.kvd.server.command.CommandFixture.bulk;
import static org.assertj.core.api.Assertions.assertThat;

/** MEMORY's subcommands as Redis 7.0's memoryCommand answers them, with kvd's figures. */
class MemoryCommandTest {
    private static final String SYNTAX = "-ERR syntax error\r\n";

    private final CommandFixture kvd = new CommandFixture();

    @Test
    void usageOfAMissingKeyIsNil() {
        assertThat(kvd.call("MEMORY", "USAGE", "nothing")).isEqualTo("$-1\r\n");
    }

    @Test
    void usageOfAStringIsItsEntryTheSlabIdsAndABucketSlot() {
        kvd.call("SET", "key", "value");
        // Entry: id 4, two 1-byte lengths, 3 + 5 bytes; slab: 6 ints; bucket: 1 int.
        assertThat(kvd.call("MEMORY", "USAGE", "key")).isEqualTo(CommandFixture.integer(4 + 2 + 3 + 5 + 24 + 4));
    }

    @Test
    void usageGrowsWithTheValueAndATtl() {
        kvd.call("SET", "key", "value");
        long small = usage("key");
        kvd.call("SET", "key", "a much longer value than before");
        long longer = usage("key");
        kvd.call("EXPIRE", "key", "100");
        assertThat(longer).isEqualTo(small + 26);
        assertThat(usage("key")).isEqualTo(longer + 16);
    }

    @Test
    void samplesZeroCountsEveryNodeAndAnyCountIsAccepted() {
        for (int i = 0; i < 2000; i++) {
            kvd.call("RPUSH", "list", "element-" + i);
        }
        long all = usage("list", "SAMPLES", "0");
        assertThat(all).isGreaterThan(2000 * 10);
        assertThat(usage("list", "samples", "1")).isPositive();
        assertThat(usage("list", "SAMPLES", "5", "SAMPLES", "0")).isEqualTo(all);
    }

    @Test
    void usageRefusesBadOptionsAsRedis() {
        kvd.call("SET", "key", "value");
        assertThat(kvd.call("MEMORY", "USAGE", "key", "SAMPLES", "-1")).isEqualTo(SYNTAX);
        assertThat(kvd.call("MEMORY", "USAGE", "key", "SAMPLES")).isEqualTo(SYNTAX);
        assertThat(kvd.call("MEMORY", "USAGE", "key", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("MEMORY", "USAGE", "nothing", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("MEMORY", "USAGE", "key", "SAMPLES", "x"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("MEMORY", "USAGE"))
                .isEqualTo("-ERR wrong number of arguments for 'memory|usage' command\r\n");
        assertThat(kvd.call("MEMORY", "STATS", "x"))
                .isEqualTo("-ERR wrong number of arguments for 'memory|stats' command\r\n");
        assertThat(kvd.call("MEMORY", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try MEMORY HELP.\r\n");
    }

    @Test
    void helpIsRedisText() {
        assertThat(kvd.call("MEMORY", "HELP")).isEqualTo("*14\r\n"
                + "+MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
                + "+DOCTOR\r\n+    Return memory problems reports.\r\n"
                + "+MALLOC-STATS\r\n+    Return internal statistics report from the memory allocator.\r\n"
                + "+PURGE\r\n+    Attempt to purge dirty pages for reclamation by the allocator.\r\n"
                + "+STATS\r\n+    Return information about the memory usage of the server.\r\n"
                + "+USAGE <key> [SAMPLES <count>]\r\n"
                + "+    Return memory in bytes used by <key> and its value. Nested values are\r\n"
                + "+    sampled up to <count> times (default: 5, 0 means sample all).\r\n"
                + "+HELP\r\n+    Prints this help.\r\n");
    }

    @Test
    void statsListRedisFieldsInOrderWithADatabaseEntryPerDatabaseHoldingKeys() {
        kvd.call("SET", "a", "1");
        kvd.call("SELECT", "3");
        kvd.call("SET", "b", "2", "EX", "100");
        List<RespReply> stats = elements(parse(kvd.call("MEMORY", "STATS")));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < stats.size(); i += 2) {
            names.add(text(stats.get(i)));
        }
        assertThat(names).containsExactly("peak.allocated", "total.allocated", "startup.allocated",
                "replication.backlog", "clients.slaves", "clients.normal", "cluster.links", "aof.buffer",
                "lua.caches", "functions.caches", "db.0", "db.3", "overhead.total", "keys.count",
                "keys.bytes-per-key", "dataset.bytes", "dataset.percentage", "peak.percentage",
                "allocator.allocated", "allocator.active", "allocator.resident", "allocator-fragmentation.ratio",
                "allocator-fragmentation.bytes", "allocator-rss.ratio", "allocator-rss.bytes", "rss-overhead.ratio",
                "rss-overhead.bytes", "fragmentation", "fragmentation.bytes");
        assertThat(integer(value(stats, "keys.count"))).isEqualTo(2);
        assertThat(integer(value(stats, "dataset.bytes"))).isPositive();
        List<RespReply> db3 = elements(value(stats, "db.3"));
        assertThat(text(db3.get(0))).isEqualTo("overhead.hashtable.main");
        assertThat(text(db3.get(2))).isEqualTo("overhead.hashtable.expires");
        assertThat(integer(db3.get(3))).isPositive();
        assertThat(text(db3.get(4))).isEqualTo("overhead.hashtable.slot-to-keys");
        assertThat(Double.parseDouble(text(value(stats, "peak.percentage")))).isPositive();
    }

    @Test
    void doctorSaysAnAlmostEmptyInstanceIsEmpty() {
        assertThat(kvd.call("MEMORY", "DOCTOR")).isEqualTo(bulk("Hi Sam, this instance is empty or is using very"
                + " little memory, my issues detector can't be used in these conditions. Please, leave for your"
                + " mission on Earth and fill it with some data. The new Sam and I will be back to our programming"
                + " as soon as I finished rebooting.\n"));
    }

    @Test
    void mallocStatsReportsTheJvmsPoolsAndPurgeIsOk() {
        assertThat(kvd.call("MEMORY", "MALLOC-STATS")).contains("___ Begin JVM memory statistics ___\n")
                .contains("heap: used: ").contains("--- End JVM memory statistics ---\n");
        assertThat(kvd.call("MEMORY", "PURGE")).isEqualTo("+OK\r\n");
    }

    @Test
    void infoMemoryShowsTheDatasetAndOverheadFields() {
        String info = kvd.call("INFO", "memory");
        assertThat(info).contains("\r\nused_memory_peak:").contains("\r\nused_memory_overhead:")
                .contains("\r\nused_memory_startup:").contains("\r\nused_memory_dataset:")
                .containsPattern("\r\nused_memory_dataset_perc:-?\\d+\\.\\d\\d%\r\n")
                .contains("\r\nmem_fragmentation_ratio:");
    }

    private long usage(String... keyAndOptions) {
        String[] argv = new String[keyAndOptions.length + 2];
        argv[0] = "MEMORY";
        argv[1] = "USAGE";
        System.arraycopy(keyAndOptions, 0, argv, 2, keyAndOptions.length);
        return integer(parse(kvd.call(argv)));
    }

    private static RespReply value(List<RespReply> map, String name) {
        for (int i = 0; i < map.size(); i += 2) {
            if (text(map.get(i)).equals(name)) {
                return map.get(i + 1);
            }
        }
        throw new AssertionError("no field " + name);
    }

    private static RespReply parse(String reply) {
        return RespReplyParser.parse(Unpooled.copiedBuffer(reply, StandardCharsets.UTF_8));
    }

    private static List<RespReply> elements(RespReply reply) {
        return ((RespReply.Array) reply).elements();
    }

    private static long integer(RespReply reply) {
        return ((RespReply.Integer) reply).value();
    }

    private static String text(RespReply reply) {
        return ((RespReply.BulkString) reply).utf8();
    }
}
