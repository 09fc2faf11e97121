package io.kvd.server.aof;

import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static io.kvd.server.aof.AofFixture.START_MS;
import static io.kvd.server.aof.AofFixture.cmd;
import static io.kvd.server.aof.AofFixture.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Startup replay: what a file holds comes back; a torn end is cut off; garbage stops the start. */
class AofLoaderTest {
    private static final String[] SET_A = cmd("SET", "a", "1");
    private static final String[] SET_B = cmd("SET", "b", "2", "PXAT", "1800000000000");
    private static final String[] INCR_A = cmd("INCR", "a");

    @TempDir
    Path dir;

    private Path file(String text) {
        return AofFixture.write(dir.resolve("appendonly.aof"), text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void replayRestoresValuesAndDeadlines() throws Exception {
        AofFixture kvd = new AofFixture();
        AofLoader.Result result = kvd.load(file(records(SET_A, SET_B, INCR_A)));
        assertThat(kvd.get("a")).isEqualTo("2");
        assertThat(kvd.get("b")).isEqualTo("2");
        assertThat(kvd.deadline("b")).isEqualTo(1_800_000_000_000L);
        assertThat(result.records()).isEqualTo(3);
        assertThat(result.truncatedBytes()).isZero();
    }

    @Test
    void replayNeedsNoPasswordWhenRequirepassIsSet() throws Exception {
        AofFixture kvd = new AofFixture();
        kvd.server.config().set("requirepass", "secret");
        kvd.load(file(records(SET_A)));
        assertThat(kvd.get("a")).isEqualTo("1");
    }

    @Test
    void fileAsRedisWritesItWithSelectFirstLoads() throws Exception {
        AofFixture kvd = new AofFixture();
        kvd.load(file(records(cmd("SELECT", "0"), SET_A)));
        assertThat(kvd.get("a")).isEqualTo("1");
    }

    @Test
    void replayOfManyKeysLoadsEveryOneIntoAConsistentTable() throws Exception {
        String[][] sets = new String[5_000][];
        for (int i = 0; i < sets.length; i++) {
            sets[i] = cmd("SET", "key" + i, "v" + i);
        }
        AofFixture kvd = new AofFixture();
        kvd.load(file(records(sets)));
        assertThat(kvd.keyspace.size()).isEqualTo(5_000);
        assertThat(kvd.get("key4999")).isEqualTo("v4999");
        kvd.keyspace.checkInvariants();
    }

    @Test
    void replayOfManyRecordsOnOneKeyLeavesNoTableSizedForTheRecords() throws Exception {
        String[][] incrs = new String[5_000][];
        Arrays.fill(incrs, INCR_A);
        AofFixture kvd = new AofFixture();
        kvd.load(file(records(incrs)));
        assertThat(kvd.get("a")).isEqualTo("5000");
        // The table sized from the record count is released, so it shrinks back for one key.
        kvd.keyspace.checkInvariants();
    }

    @Test
    void missingFileLoadsNothing() throws Exception {
        AofFixture kvd = new AofFixture();
        assertThat(kvd.load(dir.resolve("none.aof")).records()).isZero();
        assertThat(kvd.keyspace.size()).isZero();
    }

    @Test
    void replayDoesNotLogItsOwnRecords() throws Exception {
        AofFixture kvd = new AofFixture();
        kvd.server.commandLog().setEnabled(true);
        kvd.load(file(records(SET_A)));
        assertThat(kvd.server.commandLog().records().readableBytes()).isZero();
        assertThat(kvd.server.commandLog().isEnabled()).isTrue();
    }

    @Test
    void nothingExpiresDuringReplaySoLaterRecordsApplyAsTheyDidWhenLogged() throws Exception {
        AofFixture kvd = new AofFixture();
        // Logged while k was live: APPEND extended it. Replayed long after its deadline.
        kvd.load(file(records(cmd("SET", "k", "v", "PXAT", Long.toString(START_MS - 1000)), cmd("APPEND", "k", "x"))));
        kvd.keyspace.setTime(0);
        assertThat(kvd.get("k")).isEqualTo("vx");
        assertThat(kvd.deadline("k")).isEqualTo(START_MS - 1000);
        kvd.keyspace.setTime(START_MS);
        assertThat(kvd.keyspace.removeExpired()).isEqualTo(1);
        assertThat(kvd.keyspace.size()).isZero();
    }

    @Test
    void tornLastRecordAtEveryByteOffsetLoadsEveryEarlierRecord() throws Exception {
        assertEveryCutOfTheTailLoadsAsIfItWasNeverWritten(records(cmd("SET", "c", "3", "PXAT", "1800000000000")));
    }

    /**
     * SET_A and SET_B, then {@code tail} (which would set c) cut at every byte offset: a and b
     * load, c does not, and the file is cut back to before the tail.
     */
    private void assertEveryCutOfTheTailLoadsAsIfItWasNeverWritten(String tail) throws Exception {
        String complete = records(SET_A, SET_B);
        for (int cut = 1; cut < tail.length(); cut++) {
            AofFixture kvd = new AofFixture();
            Path file = file(complete + tail.substring(0, cut));
            AofLoader.Result result = kvd.load(file);
            assertThat(kvd.get("a")).as("cut at %d", cut).isEqualTo("1");
            assertThat(kvd.get("b")).as("cut at %d", cut).isEqualTo("2");
            assertThat(kvd.get("c")).as("cut at %d", cut).isNull();
            assertThat(result.truncatedBytes()).as("cut at %d", cut).isEqualTo(cut);
            assertThat(Files.size(file)).as("cut at %d", cut).isEqualTo(complete.length());
            // The file now ends where a write may follow: it loads again without a cut.
            assertThat(new AofFixture().load(file).truncatedBytes()).as("cut at %d", cut).isZero();
        }
    }

    @Test
    void garbageBetweenRecordsIsRefusedNamingItsOffset() {
        String first = records(SET_A);
        Path file = file(first + "xx" + records(SET_B));
        assertThatThrownBy(() -> new AofFixture().load(file))
                .isInstanceOf(AofFormatException.class)
                .hasMessage("expected '*' at offset " + first.length())
                .extracting(e -> ((AofFormatException) e).validUpTo()).isEqualTo((long) first.length());
    }

    @Test
    void corruptLengthInsideARecordIsRefused() {
        String first = records(SET_A);
        Path file = file(first + "*3\r\n$3\r\nSET\r\n$x\r\n" + records(SET_B));
        assertThatThrownBy(() -> new AofFixture().load(file))
                .hasMessage("invalid number at offset " + (first.length() + 14));
    }

    @Test
    void bulkWithoutItsCrlfIsRefused() {
        Path file = file("*1\r\n$4\r\nPINGxx" + records(SET_A));
        assertThatThrownBy(() -> new AofFixture().load(file)).hasMessage("bulk string not followed by CRLF at offset 12");
    }

    @Test
    void unknownCommandIsRefused() {
        String first = records(SET_A);
        Path file = file(first + records(cmd("NOSUCHCOMMAND", "h")));
        assertThatThrownBy(() -> new AofFixture().load(file))
                .hasMessage("unknown command 'NOSUCHCOMMAND' at offset " + first.length());
    }

    @Test
    void loggedRecordsReplayToTheSameKeyspace() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20240601L);
        System.out.println("AofLoaderTest seed " + seed + " (rerun with -Dkvd.test.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        AofFixture live = new AofFixture();
        live.server.commandLog().setEnabled(true);
        String[] commands = {"SET", "SETEX", "INCR", "INCRBYFLOAT", "APPEND", "DEL", "EXPIRE", "PEXPIREAT", "PERSIST",
                "GETEX", "GETDEL", "RENAME", "SETRANGE", "MSETNX", "GET"};
        long now = START_MS;
        for (int i = 0; i < 5_000; i++) {
            now += random.nextInt(50);
            live.keyspace.setTime(now);
            String key = "k" + random.nextInt(20);
            String other = "k" + random.nextInt(20);
            String n = Integer.toString(random.nextInt(1, 3000));
            switch (commands[random.nextInt(commands.length)]) {
                case "SET" -> live.call("SET", key, "v" + i, random.nextBoolean() ? "PX" : "NX", n);
                case "SETEX" -> live.call("SETEX", key, "1", "s" + i);
                case "INCR" -> live.call("INCR", key);
                case "INCRBYFLOAT" -> live.call("INCRBYFLOAT", key, "0.1");
                case "APPEND" -> live.call("APPEND", key, "a");
                case "DEL" -> live.call("DEL", key, other);
                case "EXPIRE" -> live.call("PEXPIRE", key, Integer.toString(random.nextInt(-100, 3000)));
                case "PEXPIREAT" -> live.call("PEXPIREAT", key, Long.toString(now + random.nextInt(-100, 3000)));
                case "PERSIST" -> live.call("PERSIST", key);
                case "GETEX" -> live.call("GETEX", key, "PX", n);
                case "GETDEL" -> live.call("GETDEL", key);
                case "RENAME" -> live.call("RENAME", key, other);
                case "SETRANGE" -> live.call("SETRANGE", key, "2", "r");
                case "MSETNX" -> live.call("MSETNX", key, "m", other, "n");
                default -> live.call("GET", key);
            }
        }
        byte[] logged = new byte[live.server.commandLog().records().readableBytes()];
        live.server.commandLog().records().readBytes(logged);
        AofFixture replayed = new AofFixture();
        replayed.load(AofFixture.write(dir.resolve("appendonly.aof"), logged));
        replayed.keyspace.setTime(now);
        replayed.keyspace.removeExpired();
        assertThat(contents(replayed)).isEqualTo(contents(live));
    }

    @Test
    void everyRecordKeepsItsOwnArgumentsThoughLaterRecordsAreParsedIntoTheSameArrays() throws Exception {
        // Far more records than the reader keeps in flight, all of the same lengths: once the
        // reader refills the arrays of records already run, a command that kept one would change.
        TreeMap<String, String> expected = new TreeMap<>();
        String[][] records = new String[40_000][];
        for (int i = 0; i < records.length; i += 2) {
            String key = String.format("key:%06d", i);
            String next = String.format("key:%06d", i + 1);
            records[i] = i % 4 == 0 ? cmd("SET", key, "v" + key) : cmd("GETSET", key, "v" + key);
            records[i + 1] = cmd("MSET", next, "v" + next, key, "w" + key);
            expected.put(key, "w" + key + " @-1");
            expected.put(next, "v" + next + " @-1");
        }
        AofFixture kvd = new AofFixture();
        kvd.load(file(records(records)));
        assertThat(contents(kvd)).isEqualTo(expected);
    }

    /** Every live key with its value and deadline, sorted. */
    private static TreeMap<String, String> contents(AofFixture kvd) {
        TreeMap<String, String> all = new TreeMap<>();
        kvd.keyspace.forEachKey(key -> all.put(new String(key, StandardCharsets.UTF_8),
                new String(kvd.keyspace.get(key), StandardCharsets.UTF_8) + " @" + kvd.keyspace.deadline(key)));
        return all;
    }

    private static final String[] MULTI = cmd("MULTI");
    private static final String[] EXEC = cmd("EXEC");

    @Test
    void transactionReplaysAsABlock() throws Exception {
        AofFixture kvd = new AofFixture();
        AofLoader.Result result = kvd.load(file(records(SET_A, MULTI, INCR_A, cmd("SET", "c", "3"), EXEC)));
        assertThat(kvd.get("a")).isEqualTo("2");
        assertThat(kvd.get("c")).isEqualTo("3");
        assertThat(result.truncatedBytes()).isZero();
        assertThat(kvd.client.inTransaction()).isFalse();
    }

    @Test
    void tornTransactionAtEveryByteOffsetOfItsBlockLoadsAsIfItNeverRan() throws Exception {
        // INCR a inside: a transaction applied in part would leave a at 2.
        assertEveryCutOfTheTailLoadsAsIfItWasNeverWritten(records(MULTI, INCR_A, cmd("SET", "c", "3"), EXEC));
    }

    @Test
    void loggedTransactionReplaysToTheSameKeyspace() throws Exception {
        AofFixture writer = new AofFixture();
        writer.server.commandLog().setEnabled(true);
        writer.call("MULTI");
        writer.call("SET", "a", "1");
        writer.call("SADD", "s", "x", "y");
        writer.call("SELECT", "2");
        writer.call("INCR", "a");
        writer.call("EXEC");
        byte[] logged = new byte[writer.server.commandLog().records().readableBytes()];
        writer.server.commandLog().records().readBytes(logged);
        assertThat(new String(logged, StandardCharsets.UTF_8)).contains("MULTI").endsWith(records(EXEC));
        AofFixture reader = new AofFixture();
        reader.load(AofFixture.write(dir.resolve("appendonly.aof"), logged));
        assertThat(reader.get("a")).isEqualTo("1");
        assertThat(reader.call("SMEMBERS", "s")).isEqualTo("*2\r\n$1\r\nx\r\n$1\r\ny\r\n");
        reader.call("SELECT", "2");
        assertThat(reader.call("GET", "a")).isEqualTo("$1\r\n1\r\n");
    }

    @Test
    void aScriptUsingRandomAndTimeReplaysWhatItDidNotTheScript() throws Exception {
        AofFixture writer = new AofFixture();
        writer.server.commandLog().setEnabled(true);
        writer.call("EVAL", """
                redis.call('SADD', 's', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')
                local picked = redis.call('SRANDMEMBER', 's') .. redis.call('SPOP', 's')
                redis.call('SET', 'picked', picked .. ':' .. redis.call('TIME')[1])
                return picked""", "0");
        byte[] logged = new byte[writer.server.commandLog().records().readableBytes()];
        writer.server.commandLog().records().readBytes(logged);
        assertThat(new String(logged, StandardCharsets.UTF_8)).doesNotContain("EVAL").contains("SREM")
                .endsWith(records(EXEC));
        AofFixture reader = new AofFixture();
        reader.load(AofFixture.write(dir.resolve("appendonly.aof"), logged));
        assertThat(reader.get("picked")).isEqualTo(writer.get("picked"));
        assertThat(reader.call("SCARD", "s")).isEqualTo(":7\r\n");
        assertThat(reader.call("SINTERCARD", "1", "s")).isEqualTo(writer.call("SINTERCARD", "1", "s"));
        assertThat(reader.call("SMISMEMBER", "s", "a", "b", "c", "d", "e", "f", "g", "h"))
                .isEqualTo(writer.call("SMISMEMBER", "s", "a", "b", "c", "d", "e", "f", "g", "h"));
    }

    @Test
    void aScriptsWritesUnderSetReplWithoutAofAreNotLogged() {
        AofFixture writer = new AofFixture();
        writer.server.commandLog().setEnabled(true);
        writer.call("EVAL", """
                redis.call('SET', 'a', '1')
                redis.set_repl(redis.REPL_NONE)
                redis.call('SET', 'b', '2')
                redis.set_repl(redis.REPL_REPLICA)
                redis.call('SET', 'c', '3')
                redis.set_repl(redis.REPL_ALL)
                redis.call('SET', 'd', '4')""", "0");
        byte[] logged = new byte[writer.server.commandLog().records().readableBytes()];
        writer.server.commandLog().records().readBytes(logged);
        assertThat(new String(logged, StandardCharsets.UTF_8))
                .contains("$1\r\na\r\n$1\r\n1").contains("$1\r\nd\r\n$1\r\n4")
                .doesNotContain("$1\r\nb\r\n").doesNotContain("$1\r\nc\r\n")
                .contains("MULTI").endsWith(records(EXEC));
    }
}
