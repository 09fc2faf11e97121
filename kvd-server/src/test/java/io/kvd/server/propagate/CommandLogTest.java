package io.kvd.server.propagate;

import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.kvd.server.command.CommandFixture.START_MS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AOF records write commands log: their effect in a form redis-server loads, never relative
 * time, nothing for a write that changed nothing; and MISCONF while the file is failing.
 */
class CommandLogTest {
    private final CommandFixture kvd = new CommandFixture();

    @BeforeEach
    void enableLog() {
        kvd.server.commandLog().setEnabled(true);
        // The first record of a log selects its database; these tests are about the records after it.
        assertThat(kvd.call("SET", "first", "record")).isEqualTo("+OK\r\n");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("SET", "first", "record"));
    }

    /** A record as RESP: an array of bulk strings. */
    private static String record(String... argv) {
        StringBuilder out = new StringBuilder("*").append(argv.length).append("\r\n");
        for (String arg : argv) {
            out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
        }
        return out.toString();
    }

    private static String at(long msFromStart) {
        return Long.toString(START_MS + msFromStart);
    }

    /** What the AOF would write of the records logged so far: those for the replicas alone left out. */
    private String forAof() {
        StringBuilder out = new StringBuilder();
        CommandLog log = kvd.server.commandLog();
        for (ByteBuffer span : log.forAof(log.records().readerIndex())) {
            out.append(StandardCharsets.UTF_8.decode(span));
        }
        return out.toString();
    }

    @Test
    void publishGoesToTheReplicasAloneAndASelectBeforeItToBoth() {
        kvd.server.commandLog().setReplicating(true);
        kvd.call("SELECT", "1");
        kvd.call("PUBLISH", "ch", "hello");
        kvd.call("SET", "k", "v");
        assertThat(forAof()).isEqualTo(record("SELECT", "1") + record("SET", "k", "v"));
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "1") + record("PUBLISH", "ch", "hello")
                + record("SET", "k", "v"));
    }

    @Test
    void publishIsRecordedOnlyForReplicas() {
        kvd.call("PUBLISH", "ch", "hello");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void publishInsideExecJoinsTheBlockTheReplicasGet() {
        kvd.server.commandLog().setReplicating(true);
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("PUBLISH", "ch", "m");
        kvd.call("EXEC");
        assertThat(forAof()).isEqualTo(record("MULTI") + record("SET", "a", "1") + record("EXEC"));
        assertThat(kvd.logged()).isEqualTo(record("MULTI") + record("SET", "a", "1") + record("PUBLISH", "ch", "m")
                + record("EXEC"));
    }

    @Test
    void plainSetIsLoggedAsSent() {
        kvd.call("set", "k", "v");
        assertThat(kvd.logged()).isEqualTo(record("set", "k", "v"));
    }

    @Test
    void setWithRelativeTimeIsLoggedWithAbsolutePxat() {
        kvd.call("SET", "k", "v", "EX", "10");
        kvd.call("SET", "p", "v", "PX", "1500");
        kvd.call("SET", "e", "v", "EXAT", "1800000000");
        assertThat(kvd.logged()).isEqualTo(record("SET", "k", "v", "PXAT", at(10_000))
                + record("SET", "p", "v", "PXAT", at(1_500))
                + record("SET", "e", "v", "PXAT", "1800000000000"));
    }

    @Test
    void successfulSetNxIsLoggedAsPlainSet() {
        kvd.call("SET", "k", "v", "NX", "GET");
        assertThat(kvd.logged()).isEqualTo(record("SET", "k", "v"));
    }

    @Test
    void setNxOnAnExistingKeyIsNotLogged() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("SET", "k", "w", "NX");
        kvd.call("SETNX", "k", "w");
        kvd.call("MSETNX", "k", "w", "other", "x");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void setKeepttlIsLoggedWithKeepttl() {
        kvd.call("SET", "k", "v", "XX", "KEEPTTL");
        kvd.call("SET", "k", "v", "KEEPTTL");
        assertThat(kvd.logged()).isEqualTo(record("SET", "k", "v", "KEEPTTL"));
    }

    @Test
    void setnxSetexPsetexAndGetsetAreLoggedAsSet() {
        kvd.call("SETNX", "a", "1");
        kvd.call("SETEX", "b", "10", "2");
        kvd.call("PSETEX", "c", "10", "3");
        kvd.call("GETSET", "a", "4");
        assertThat(kvd.logged()).isEqualTo(record("SET", "a", "1")
                + record("SET", "b", "2", "PXAT", at(10_000))
                + record("SET", "c", "3", "PXAT", at(10))
                + record("SET", "a", "4"));
    }

    @Test
    void msetnxThatSetsIsLoggedAsMset() {
        kvd.call("MSETNX", "a", "1", "b", "2");
        assertThat(kvd.logged()).isEqualTo(record("MSET", "a", "1", "b", "2"));
    }

    @Test
    void expireFamilyIsLoggedAsPexpireatWithoutConditions() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("EXPIRE", "k", "100", "NX");
        kvd.call("PEXPIRE", "k", "500", "LT");
        kvd.call("EXPIREAT", "k", "1800000000");
        assertThat(kvd.logged()).isEqualTo(record("PEXPIREAT", "k", at(100_000))
                + record("PEXPIREAT", "k", at(500))
                + record("PEXPIREAT", "k", "1800000000000"));
    }

    @Test
    void expireWhoseDeadlineHasPassedIsLoggedAsDel() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("EXPIRE", "k", "-1");
        assertThat(kvd.logged()).isEqualTo(record("DEL", "k"));
    }

    @Test
    void expireThatChangesNothingIsNotLogged() {
        kvd.call("SET", "k", "v", "EX", "100");
        kvd.logged();
        kvd.call("EXPIRE", "k", "50", "GT");
        kvd.call("EXPIRE", "missing", "50");
        kvd.call("PERSIST", "missing");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void getexIsLoggedAsPexpireatPersistOrDel() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("GETEX", "k", "EX", "10");
        kvd.call("GETEX", "k", "PERSIST");
        kvd.call("GETEX", "k", "PXAT", "1");
        assertThat(kvd.logged()).isEqualTo(record("PEXPIREAT", "k", at(10_000))
                + record("PERSIST", "k")
                + record("DEL", "k"));
    }

    @Test
    void getexWithoutChangeIsNotLogged() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("GETEX", "k");
        kvd.call("GETEX", "k", "PERSIST");
        kvd.call("GETEX", "missing", "EX", "10");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void incrbyfloatIsLoggedAsSetOfTheResultKeepingTtl() {
        kvd.call("SET", "f", "10.5");
        kvd.logged();
        kvd.call("INCRBYFLOAT", "f", "0.1");
        assertThat(kvd.logged()).isEqualTo(record("SET", "f", "10.6", "KEEPTTL"));
    }

    @Test
    void getdelIsLoggedAsDel() {
        kvd.call("SET", "k", "v");
        kvd.logged();
        kvd.call("GETDEL", "k");
        kvd.call("GETDEL", "k");
        assertThat(kvd.logged()).isEqualTo(record("DEL", "k"));
    }

    @Test
    void deterministicWritesAreLoggedAsSent() {
        kvd.call("INCR", "n");
        kvd.call("APPEND", "s", "x");
        kvd.call("RENAME", "s", "t");
        kvd.call("DEL", "t", "missing");
        kvd.call("FLUSHALL");
        assertThat(kvd.logged()).isEqualTo(record("INCR", "n") + record("APPEND", "s", "x")
                + record("RENAME", "s", "t") + record("DEL", "t", "missing") + record("FLUSHALL"));
    }

    @Test
    void writesThatChangeNothingAreNotLogged() {
        kvd.call("DEL", "missing");
        kvd.call("SETRANGE", "missing", "0", "");
        kvd.call("INCR", "k", "extra");
        kvd.call("SET", "k", "v", "BAD");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void readsAreNotLogged() {
        kvd.call("GET", "k");
        kvd.call("EXISTS", "k");
        kvd.call("TTL", "k");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void keyThatExpiredIsLoggedAsDelBeforeTheWriteThatMetIt() {
        kvd.call("SET", "n", "5", "PX", "100");
        kvd.logged();
        kvd.setTime(START_MS + 200);
        kvd.call("INCR", "n");
        assertThat(kvd.logged()).isEqualTo(record("DEL", "n") + record("INCR", "n"));
    }

    @Test
    void nothingIsLoggedWhileTheLogIsDisabled() {
        kvd.server.commandLog().setEnabled(false);
        kvd.call("SET", "k", "v");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void failingLogRefusesWritesAndPingWithMisconf() {
        kvd.server.commandLog().setFailure("No space left on device");
        String misconf = "-MISCONF Errors writing to the AOF file: No space left on device\r\n";
        assertThat(kvd.call("SET", "k", "v")).isEqualTo(misconf);
        assertThat(kvd.call("DEL", "k")).isEqualTo(misconf);
        assertThat(kvd.call("PING")).isEqualTo(misconf);
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void failingLogStillServesReads() {
        kvd.call("SET", "k", "v");
        kvd.server.commandLog().setFailure("Input/output error");
        assertThat(kvd.call("GET", "k")).isEqualTo("$1\r\nv\r\n");
        // "first" and "k".
        assertThat(kvd.call("DBSIZE")).isEqualTo(":2\r\n");
    }

    @Test
    void transactionOfSeveralWritesIsLoggedBetweenMultiAndExec() {
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("GET", "a");
        kvd.call("INCR", "a");
        kvd.call("EXEC");
        assertThat(kvd.logged()).isEqualTo(record("MULTI") + record("SET", "a", "1") + record("INCR", "a")
                + record("EXEC"));
    }

    @Test
    void transactionOfOneWriteIsLoggedAsThatWriteAloneAsRedisSevenDoes() {
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("GET", "a");
        kvd.call("EXEC");
        assertThat(kvd.logged()).isEqualTo(record("SET", "a", "1"));
    }

    @Test
    void transactionThatChangedNothingLogsNothing() {
        kvd.call("MULTI");
        kvd.call("GET", "a");
        kvd.call("DEL", "missing");
        kvd.call("EXEC");
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("DISCARD");
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("NOSUCH");
        kvd.call("EXEC");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void transactionAcrossDatabasesSelectsBeforeMultiAndBetweenItsRecords() {
        kvd.call("SELECT", "3");
        kvd.call("MULTI");
        kvd.call("SET", "x", "1");
        kvd.call("SELECT", "0");
        kvd.call("SET", "y", "1");
        kvd.call("EXEC");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "3") + record("MULTI") + record("SET", "x", "1")
                + record("SELECT", "0") + record("SET", "y", "1") + record("EXEC"));
    }

    @Test
    void keyExpiredInsideATransactionIsDeletedBeforeItsBlock() {
        kvd.call("SET", "k", "v", "PX", "1");
        kvd.logged();
        kvd.setTime(START_MS + 10);
        kvd.call("MULTI");
        kvd.call("SET", "z", "1");
        kvd.call("GET", "k");
        kvd.call("SET", "z", "2");
        kvd.call("EXEC");
        assertThat(kvd.logged()).isEqualTo(record("DEL", "k") + record("MULTI") + record("SET", "z", "1")
                + record("SET", "z", "2") + record("EXEC"));
    }
}
