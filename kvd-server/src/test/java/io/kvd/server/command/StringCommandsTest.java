package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.START_MS;
import static org.assertj.core.api.Assertions.assertThat;

/** String commands as Redis 7.0 answers them; each expected reply was checked against redis-server. */
class StringCommandsTest {
    private static final String OK = "+OK\r\n";
    private static final String NIL = "$-1\r\n";
    private static final String EMPTY = "$0\r\n\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String NOT_A_FLOAT = "-ERR value is not a valid float\r\n";
    private static final String OVERFLOW = "-ERR increment or decrement would overflow\r\n";
    private static final String TOO_LONG = "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static String invalidExpireTime(String command) {
        return "-ERR invalid expire time in '" + command + "' command\r\n";
    }

    private long deadline(String key) {
        return kvd.keyspace.deadline(key.getBytes(StandardCharsets.UTF_8));
    }

    // GET, SET

    @Test
    void getOfMissingKeyIsNil() {
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void setThenGetReturnsTheValue() {
        assertThat(kvd.call("SET", "k", "hello")).isEqualTo(OK);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("hello"));
    }

    @Test
    void setStoresAnEmptyValue() {
        kvd.call("SET", "k", "");
        assertThat(kvd.call("GET", "k")).isEqualTo(EMPTY);
    }

    @Test
    void setWithoutOptionsClearsTheTtl() {
        kvd.call("SET", "k", "v", "EX", "100");
        kvd.call("SET", "k", "w");
        assertThat(deadline("k")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void setNxSetsOnlyAMissingKey() {
        assertThat(kvd.call("SET", "k", "a", "NX")).isEqualTo(OK);
        assertThat(kvd.call("SET", "k", "b", "nx")).isEqualTo(NIL);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("a"));
    }

    @Test
    void setXxSetsOnlyAnExistingKey() {
        assertThat(kvd.call("SET", "k", "a", "XX")).isEqualTo(NIL);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
        kvd.call("SET", "k", "a");
        assertThat(kvd.call("SET", "k", "b", "XX")).isEqualTo(OK);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("b"));
    }

    @Test
    void setGetRepliesWithTheOldValue() {
        assertThat(kvd.call("SET", "k", "a", "GET")).isEqualTo(NIL);
        assertThat(kvd.call("SET", "k", "b", "GET")).isEqualTo(bulk("a"));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("b"));
    }

    @Test
    void setNxGetOnExistingKeyRepliesOldValueAndDoesNotSet() {
        kvd.call("SET", "k", "a");
        assertThat(kvd.call("SET", "k", "b", "NX", "GET")).isEqualTo(bulk("a"));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("a"));
    }

    @Test
    void setXxGetOnMissingKeyRepliesNilAndDoesNotSet() {
        assertThat(kvd.call("SET", "k", "b", "XX", "GET")).isEqualTo(NIL);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void setOptionsMayRepeat() {
        assertThat(kvd.call("SET", "k", "v", "NX", "nx", "GET", "get", "EX", "10", "EX", "20")).isEqualTo(NIL);
        assertThat(deadline("k")).isEqualTo(START_MS + 20_000);
        assertThat(kvd.call("SET", "k", "v", "KEEPTTL", "KEEPTTL")).isEqualTo(OK);
    }

    @Test
    void setConflictingOptionsAreSyntaxErrors() {
        assertThat(kvd.call("SET", "k", "v", "NX", "XX")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "XX", "NX")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "EX", "10", "PX", "100")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "EXAT", "10", "PXAT", "100")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "KEEPTTL", "EX", "10")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "PX", "10", "KEEPTTL")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void setUnknownOrIncompleteOptionsAreSyntaxErrors() {
        assertThat(kvd.call("SET", "k", "v", "PERSIST")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SET", "k", "v", "EX")).isEqualTo(SYNTAX);
    }

    @Test
    void setSyntaxIsCheckedBeforeTheTime() {
        assertThat(kvd.call("SET", "k", "v", "EX", "abc", "NX", "XX")).isEqualTo(SYNTAX);
    }

    @Test
    void setTimeThatIsNotAnIntegerIsAnIntegerError() {
        assertThat(kvd.call("SET", "k", "v", "EX", "abc")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("SET", "k", "v", "PX", "1.5")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void setTimeThatIsNotPositiveIsInvalid() {
        assertThat(kvd.call("SET", "k", "v", "EX", "0")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "PX", "-1")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "EXAT", "0")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "PXAT", "-5")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void setTimeOverflowingAbsoluteMillisecondsIsInvalid() {
        assertThat(kvd.call("SET", "k", "v", "EX", "9223372036854775807")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "EX", "9223372036854775")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "PX", "9223372036854775807")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("SET", "k", "v", "EXAT", "9223372036854776")).isEqualTo(invalidExpireTime("set"));
    }

    @Test
    void setLargestAbsoluteTimesAreValid() {
        assertThat(kvd.call("SET", "k", "v", "PXAT", "9223372036854775807")).isEqualTo(OK);
        assertThat(deadline("k")).isEqualTo(Long.MAX_VALUE);
        assertThat(kvd.call("SET", "k", "v", "PX", String.valueOf(Long.MAX_VALUE - START_MS))).isEqualTo(OK);
        assertThat(deadline("k")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void setTimeIsCheckedBeforeGetReplies() {
        kvd.call("SET", "k", "a");
        assertThat(kvd.call("SET", "k", "b", "GET", "EX", "0")).isEqualTo(invalidExpireTime("set"));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("a"));
    }

    @Test
    void setExAndPxAreRelativeToNow() {
        kvd.call("SET", "a", "v", "EX", "10");
        kvd.call("SET", "b", "v", "PX", "1500");
        assertThat(deadline("a")).isEqualTo(START_MS + 10_000);
        assertThat(deadline("b")).isEqualTo(START_MS + 1500);
    }

    @Test
    void setExatAndPxatAreAbsolute() {
        kvd.call("SET", "a", "v", "EXAT", "1800000000");
        kvd.call("SET", "b", "v", "PXAT", "1800000000123");
        assertThat(deadline("a")).isEqualTo(1_800_000_000_000L);
        assertThat(deadline("b")).isEqualTo(1_800_000_000_123L);
    }

    @Test
    void setWithExpiryIsGoneOnceTheClockPassesTheDeadline() {
        kvd.call("SET", "k", "v", "PX", "100");
        kvd.setTime(START_MS + 99);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("v"));
        kvd.setTime(START_MS + 100);
        assertThat(kvd.call("GET", "k")).as("Redis keeps a key until the clock passes its deadline").isEqualTo(bulk("v"));
        kvd.setTime(START_MS + 101);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void setWithAbsoluteTimeInThePastRepliesOkAndTheKeyIsGone() {
        assertThat(kvd.call("SET", "k", "v", "EXAT", "1")).isEqualTo(OK);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
        assertThat(kvd.call("SET", "k", "v", "PXAT", "1", "GET")).isEqualTo(NIL);
    }

    @Test
    void setKeepttlKeepsTheDeadline() {
        kvd.call("SET", "k", "a", "EX", "100");
        assertThat(kvd.call("SET", "k", "b", "KEEPTTL")).isEqualTo(OK);
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("b"));
    }

    @Test
    void setKeepttlOnMissingKeyCreatesItWithoutTtl() {
        kvd.call("SET", "k", "a", "KEEPTTL");
        assertThat(deadline("k")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void setWithTooFewArgumentsIsAnArityError() {
        assertThat(kvd.call("SET", "k")).isEqualTo("-ERR wrong number of arguments for 'set' command\r\n");
    }

    // SETNX, SETEX, PSETEX, GETSET, GETDEL

    @Test
    void setnxRepliesOneWhenItSetsAndZeroWhenTheKeyExists() {
        assertThat(kvd.call("SETNX", "k", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("SETNX", "k", "b")).isEqualTo(integer(0));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("a"));
    }

    @Test
    void setnxSetsAKeyWhoseTtlHasPassed() {
        kvd.call("SET", "k", "a", "PX", "10");
        kvd.setTime(START_MS + 11);
        assertThat(kvd.call("SETNX", "k", "b")).isEqualTo(integer(1));
        assertThat(deadline("k")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void setexSetsValueAndDeadlineInSeconds() {
        assertThat(kvd.call("SETEX", "k", "100", "v")).isEqualTo(OK);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("v"));
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void psetexSetsValueAndDeadlineInMilliseconds() {
        assertThat(kvd.call("PSETEX", "k", "1500", "v")).isEqualTo(OK);
        assertThat(deadline("k")).isEqualTo(START_MS + 1500);
    }

    @Test
    void setexAndPsetexNameThemselvesInTheInvalidTimeError() {
        assertThat(kvd.call("SETEX", "k", "0", "v")).isEqualTo(invalidExpireTime("setex"));
        assertThat(kvd.call("SETEX", "k", "9223372036854775", "v")).isEqualTo(invalidExpireTime("setex"));
        assertThat(kvd.call("PSETEX", "k", "-1", "v")).isEqualTo(invalidExpireTime("psetex"));
        assertThat(kvd.call("SETEX", "k", "x", "v")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    @Test
    void getsetRepliesOldValueAndClearsTheTtl() {
        assertThat(kvd.call("GETSET", "k", "a")).isEqualTo(NIL);
        kvd.call("SETEX", "k", "100", "b");
        assertThat(kvd.call("GETSET", "k", "c")).isEqualTo(bulk("b"));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("c"));
        assertThat(deadline("k")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void getdelRepliesTheValueAndRemovesTheKey() {
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("GETDEL", "k")).isEqualTo(bulk("v"));
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
        assertThat(kvd.call("GETDEL", "k")).isEqualTo(NIL);
    }

    // GETEX

    @Test
    void getexWithoutOptionsIsGetAndKeepsTheTtl() {
        kvd.call("SETEX", "k", "100", "v");
        assertThat(kvd.call("GETEX", "k")).isEqualTo(bulk("v"));
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void getexSetsTheDeadline() {
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("GETEX", "k", "EX", "100")).isEqualTo(bulk("v"));
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
        kvd.call("GETEX", "k", "PX", "100");
        assertThat(deadline("k")).isEqualTo(START_MS + 100);
        kvd.call("GETEX", "k", "EXAT", "1800000000");
        assertThat(deadline("k")).isEqualTo(1_800_000_000_000L);
        kvd.call("GETEX", "k", "PXAT", "1800000000001");
        assertThat(deadline("k")).isEqualTo(1_800_000_000_001L);
    }

    @Test
    void getexPersistRemovesTheTtl() {
        kvd.call("SETEX", "k", "100", "v");
        assertThat(kvd.call("GETEX", "k", "PERSIST")).isEqualTo(bulk("v"));
        assertThat(deadline("k")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void getexWithAbsoluteTimeNotInTheFutureRepliesTheValueAndDeletes() {
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("GETEX", "k", "PXAT", String.valueOf(START_MS))).isEqualTo(bulk("v"));
        assertThat(kvd.keyspace.size()).isZero();
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("GETEX", "k", "EXAT", "1")).isEqualTo(bulk("v"));
        assertThat(kvd.keyspace.size()).isZero();
    }

    @Test
    void getexOnMissingKeyIsNilBeforeTheTimeIsChecked() {
        assertThat(kvd.call("GETEX", "k", "EX", "abc")).isEqualTo(NIL);
        assertThat(kvd.call("GETEX", "k", "EX", "0")).isEqualTo(NIL);
    }

    @Test
    void getexChecksSyntaxEvenForMissingKey() {
        assertThat(kvd.call("GETEX", "k", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "NX")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "KEEPTTL")).isEqualTo(SYNTAX);
    }

    @Test
    void getexConflictingOptionsAreSyntaxErrors() {
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("GETEX", "k", "EX", "10", "PX", "10")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "PERSIST", "EX", "10")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "EX", "10", "PERSIST")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "EX")).isEqualTo(SYNTAX);
        assertThat(kvd.call("GETEX", "k", "PERSIST", "PERSIST")).isEqualTo(bulk("v"));
    }

    @Test
    void getexInvalidTimeNamesGetexAndChangesNothing() {
        kvd.call("SETEX", "k", "100", "v");
        assertThat(kvd.call("GETEX", "k", "EX", "0")).isEqualTo(invalidExpireTime("getex"));
        assertThat(kvd.call("GETEX", "k", "EX", "9223372036854775807")).isEqualTo(invalidExpireTime("getex"));
        assertThat(kvd.call("GETEX", "k", "PX", "x")).isEqualTo(NOT_AN_INTEGER);
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    // MGET, MSET, MSETNX

    @Test
    void mgetRepliesNilForMissingKeys() {
        kvd.call("SET", "a", "1");
        assertThat(kvd.call("MGET", "a", "b", "a")).isEqualTo("*3\r\n" + bulk("1") + NIL + bulk("1"));
    }

    @Test
    void msetSetsEveryPairAndTheLastOfARepeatedKeyWins() {
        assertThat(kvd.call("MSET", "a", "1", "b", "2", "a", "3")).isEqualTo(OK);
        assertThat(kvd.call("MGET", "a", "b")).isEqualTo("*2\r\n" + bulk("3") + bulk("2"));
    }

    @Test
    void msetClearsTtls() {
        kvd.call("SETEX", "a", "100", "v");
        kvd.call("MSET", "a", "w");
        assertThat(deadline("a")).isEqualTo(Keyspace.PERSISTENT);
    }

    @Test
    void msetAndMsetnxWithAKeyWithoutValueAreArityErrors() {
        assertThat(kvd.call("MSET", "a")).isEqualTo("-ERR wrong number of arguments for 'mset' command\r\n");
        assertThat(kvd.call("MSET", "a", "1", "b")).isEqualTo("-ERR wrong number of arguments for 'mset' command\r\n");
        assertThat(kvd.call("MSETNX", "a", "1", "b")).isEqualTo("-ERR wrong number of arguments for 'msetnx' command\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo(NIL);
    }

    @Test
    void msetnxSetsAllOnlyWhenNoKeyExists() {
        kvd.call("SET", "b", "old");
        assertThat(kvd.call("MSETNX", "a", "1", "b", "2")).isEqualTo(integer(0));
        assertThat(kvd.call("MGET", "a", "b")).isEqualTo("*2\r\n" + NIL + bulk("old"));
        assertThat(kvd.call("MSETNX", "a", "1", "c", "3")).isEqualTo(integer(1));
        assertThat(kvd.call("MGET", "a", "c")).isEqualTo("*2\r\n" + bulk("1") + bulk("3"));
    }

    // APPEND, STRLEN

    @Test
    void appendCreatesThenExtendsAndRepliesTheLength() {
        assertThat(kvd.call("APPEND", "k", "hello")).isEqualTo(integer(5));
        assertThat(kvd.call("APPEND", "k", " world")).isEqualTo(integer(11));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("hello world"));
    }

    @Test
    void appendToAMissingKeyStoresTheValueAsSetWouldAndToAnExistingOneMakesItRaw() {
        kvd.call("APPEND", "word", "v8");
        kvd.call("APPEND", "number", "12");
        assertThat(kvd.call("OBJECT", "ENCODING", "word")).isEqualTo(bulk("embstr"));
        assertThat(kvd.call("OBJECT", "ENCODING", "number")).isEqualTo(bulk("int"));
        kvd.call("APPEND", "word", "x");
        assertThat(kvd.call("OBJECT", "ENCODING", "word")).isEqualTo(bulk("raw"));
    }

    @Test
    void appendKeepsTheTtl() {
        kvd.call("SETEX", "k", "100", "a");
        kvd.call("APPEND", "k", "b");
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void appendPastProtoMaxBulkLenIsRefused() {
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "1mb");
        kvd.call("SET", "k", "x".repeat(1024 * 1024 - 1));
        assertThat(kvd.call("APPEND", "k", "y")).isEqualTo(integer(1024 * 1024));
        assertThat(kvd.call("APPEND", "k", "z")).isEqualTo(TOO_LONG);
        assertThat(kvd.call("STRLEN", "k")).isEqualTo(integer(1024 * 1024));
    }

    @Test
    void strlenCountsBytesAndIsZeroForMissingKey() {
        kvd.call("SET", "k", "é");
        assertThat(kvd.call("STRLEN", "k")).isEqualTo(integer(2));
        assertThat(kvd.call("STRLEN", "missing")).isEqualTo(integer(0));
    }

    // GETRANGE, SUBSTR

    @Test
    void getrangeWithIndexesInsideTheString() {
        kvd.call("SET", "k", "This is a string");
        assertThat(kvd.call("GETRANGE", "k", "0", "3")).isEqualTo(bulk("This"));
        assertThat(kvd.call("GETRANGE", "k", "-3", "-1")).isEqualTo(bulk("ing"));
        assertThat(kvd.call("GETRANGE", "k", "0", "-1")).isEqualTo(bulk("This is a string"));
        assertThat(kvd.call("SUBSTR", "k", "5", "6")).isEqualTo(bulk("is"));
    }

    @Test
    void getrangeClampsIndexesOutsideTheString() {
        kvd.call("SET", "k", "This is a string");
        assertThat(kvd.call("GETRANGE", "k", "10", "100")).isEqualTo(bulk("string"));
        assertThat(kvd.call("GETRANGE", "k", "-100", "3")).isEqualTo(bulk("This"));
        assertThat(kvd.call("GETRANGE", "k", "-9223372036854775808", "9223372036854775807"))
                .isEqualTo(bulk("This is a string"));
    }

    @Test
    void getrangeOfAnEmptyRangeIsEmpty() {
        kvd.call("SET", "k", "This is a string");
        assertThat(kvd.call("GETRANGE", "k", "-1", "-5")).isEqualTo(EMPTY);
        assertThat(kvd.call("GETRANGE", "k", "5", "2")).isEqualTo(EMPTY);
        assertThat(kvd.call("GETRANGE", "k", "100", "200")).isEqualTo(EMPTY);
        assertThat(kvd.call("GETRANGE", "k", "2", "-100")).isEqualTo(EMPTY);
    }

    @Test
    void getrangeOfAnEmptyOrMissingValueIsEmpty() {
        assertThat(kvd.call("GETRANGE", "k", "0", "-1")).isEqualTo(EMPTY);
        kvd.call("SET", "k", "");
        assertThat(kvd.call("GETRANGE", "k", "0", "0")).isEqualTo(EMPTY);
    }

    @Test
    void getrangeIndexesMustBeIntegersEvenForMissingKey() {
        assertThat(kvd.call("GETRANGE", "k", "a", "1")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("GETRANGE", "k", "1", "1.0")).isEqualTo(NOT_AN_INTEGER);
    }

    // SETRANGE

    @Test
    void setrangeOnMissingKeyPadsWithZeroBytes() {
        assertThat(kvd.call("SETRANGE", "k", "3", "abc")).isEqualTo(integer(6));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("\0\0\0abc"));
    }

    @Test
    void setrangeOverwritesInsideAndExtendsPastTheEnd() {
        kvd.call("SET", "k", "Hello World");
        assertThat(kvd.call("SETRANGE", "k", "6", "Redis")).isEqualTo(integer(11));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("Hello Redis"));
        assertThat(kvd.call("SETRANGE", "k", "10", "!!!")).isEqualTo(integer(13));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("Hello Redi!!!"));
    }

    @Test
    void setrangeWithEmptyValueRepliesTheLengthAndCreatesNothing() {
        assertThat(kvd.call("SETRANGE", "k", "5", "")).isEqualTo(integer(0));
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
        kvd.call("SET", "k", "abc");
        assertThat(kvd.call("SETRANGE", "k", "9223372036854775807", "")).isEqualTo(integer(3));
    }

    @Test
    void setrangeKeepsTheTtl() {
        kvd.call("SETEX", "k", "100", "hello");
        kvd.call("SETRANGE", "k", "0", "J");
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void setrangeDoesNotChangeTheArrayAnEarlierCommandStored() {
        byte[] value = "hello".getBytes(StandardCharsets.US_ASCII);
        kvd.keyspace.put("k".getBytes(StandardCharsets.US_ASCII), value, Keyspace.PERSISTENT);
        kvd.call("SETRANGE", "k", "0", "J");
        assertThat(value).asString(StandardCharsets.US_ASCII).isEqualTo("hello");
    }

    @Test
    void setrangeNegativeOffsetIsOutOfRange() {
        assertThat(kvd.call("SETRANGE", "k", "-1", "x")).isEqualTo("-ERR offset is out of range\r\n");
        assertThat(kvd.call("SETRANGE", "k", "x", "x")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void setrangePastProtoMaxBulkLenIsRefused() {
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "1mb");
        assertThat(kvd.call("SETRANGE", "k", "1048575", "x")).isEqualTo(integer(1024 * 1024));
        assertThat(kvd.call("SETRANGE", "k", "1048576", "x")).isEqualTo(TOO_LONG);
        assertThat(kvd.call("SETRANGE", "other", "1048575", "xy")).isEqualTo(TOO_LONG);
        assertThat(kvd.call("SETRANGE", "other", "9223372036854775807", "x")).isEqualTo(TOO_LONG);
        assertThat(kvd.call("GET", "other")).isEqualTo(NIL);
    }

    // INCR, DECR, INCRBY, DECRBY

    @Test
    void incrAndDecrStartFromZero() {
        assertThat(kvd.call("INCR", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("DECR", "b")).isEqualTo(integer(-1));
        assertThat(kvd.call("GET", "b")).isEqualTo(bulk("-1"));
    }

    @Test
    void incrbyAndDecrbyAddTheirArgument() {
        kvd.call("SET", "k", "10");
        assertThat(kvd.call("INCRBY", "k", "100")).isEqualTo(integer(110));
        assertThat(kvd.call("DECRBY", "k", "-5")).isEqualTo(integer(115));
        assertThat(kvd.call("DECRBY", "k", "200")).isEqualTo(integer(-85));
    }

    @Test
    void incrKeepsTheTtl() {
        kvd.call("SETEX", "k", "100", "5");
        assertThat(kvd.call("INCR", "k")).isEqualTo(integer(6));
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void incrOfAValueThatIsNotACanonicalIntegerIsAnError() {
        for (String value : new String[]{"abc", " 1", "1 ", "+1", "01", "-0", "", "1.0", "99999999999999999999"}) {
            kvd.call("SET", "k", value);
            assertThat(kvd.call("INCR", "k")).as(value).isEqualTo(NOT_AN_INTEGER);
        }
    }

    @Test
    void incrbyArgumentMustBeAnInteger() {
        assertThat(kvd.call("INCRBY", "k", "1.5")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("INCRBY", "k", "9223372036854775808")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("DECRBY", "k", " 1")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void incrementPastLongMaxOverflows() {
        kvd.call("SET", "k", "9223372036854775806");
        assertThat(kvd.call("INCR", "k")).isEqualTo(integer(Long.MAX_VALUE));
        assertThat(kvd.call("INCR", "k")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("INCRBY", "k", "1")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("DECRBY", "k", "-1")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("9223372036854775807"));
    }

    @Test
    void decrementPastLongMinOverflows() {
        kvd.call("SET", "k", "-9223372036854775807");
        assertThat(kvd.call("DECR", "k")).isEqualTo(integer(Long.MIN_VALUE));
        assertThat(kvd.call("DECR", "k")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("INCRBY", "k", "-1")).isEqualTo(OVERFLOW);
    }

    @Test
    void oppositeSignsNeverOverflow() {
        kvd.call("SET", "k", "-9223372036854775808");
        assertThat(kvd.call("INCRBY", "k", "9223372036854775807")).isEqualTo(integer(-1));
    }

    @Test
    void decrbyOfLongMinIsItsOwnError() {
        assertThat(kvd.call("DECRBY", "k", "-9223372036854775808")).isEqualTo("-ERR decrement would overflow\r\n");
        assertThat(kvd.call("GET", "k")).isEqualTo(NIL);
    }

    // INCRBYFLOAT

    @Test
    void incrbyfloatPrintsWithoutTrailingZeros() {
        assertThat(kvd.call("INCRBYFLOAT", "k", "10.5")).isEqualTo(bulk("10.5"));
        assertThat(kvd.call("INCRBYFLOAT", "k", "0.1")).isEqualTo(bulk("10.6"));
        assertThat(kvd.call("INCRBYFLOAT", "k", "-5")).isEqualTo(bulk("5.6"));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("5.6"));
    }

    @Test
    void incrbyfloatOfExponentFormIsPrintedInFull() {
        kvd.call("SET", "k", "3.0e3");
        assertThat(kvd.call("INCRBYFLOAT", "k", "0")).isEqualTo(bulk("3000"));
        assertThat(kvd.call("INCRBYFLOAT", "k", "5.0e-1")).isEqualTo(bulk("3000.5"));
    }

    @Test
    void incrbyfloatRoundsAsLongDouble() {
        kvd.call("SET", "k", "1");
        assertThat(kvd.call("INCRBYFLOAT", "k", "-1.1")).isEqualTo(bulk("-0.1"));
        kvd.call("SET", "k", "100000000000000000000");
        assertThat(kvd.call("INCRBYFLOAT", "k", "1")).isEqualTo(bulk("100000000000000000000"));
        kvd.call("SET", "k", "0");
        assertThat(kvd.call("INCRBYFLOAT", "k", "-1e-20")).isEqualTo(bulk("0"));
        kvd.call("SET", "k", "5.6");
        assertThat(kvd.call("INCRBYFLOAT", "k", "5.0e3")).isEqualTo(bulk("5005.60000000000000009"));
    }

    @Test
    void incrbyfloatKeepsTheTtl() {
        kvd.call("SETEX", "k", "100", "1.5");
        assertThat(kvd.call("INCRBYFLOAT", "k", "1")).isEqualTo(bulk("2.5"));
        assertThat(deadline("k")).isEqualTo(START_MS + 100_000);
    }

    @Test
    void incrbyfloatOfSomethingNotAFloatIsAnError() {
        for (String arg : new String[]{"abc", "", " 1", "1 ", "1e", "nan", "0x", "1.2.3", "1e5000", "1e-5000"}) {
            assertThat(kvd.call("INCRBYFLOAT", "k", arg)).as(arg).isEqualTo(NOT_A_FLOAT);
        }
        kvd.call("SET", "k", "abc");
        assertThat(kvd.call("INCRBYFLOAT", "k", "1")).isEqualTo(NOT_A_FLOAT);
    }

    @Test
    void incrbyfloatToInfinityIsRefused() {
        String error = "-ERR increment would produce NaN or Infinity\r\n";
        assertThat(kvd.call("INCRBYFLOAT", "k", "inf")).isEqualTo(error);
        kvd.call("SET", "k", "1e4932");
        assertThat(kvd.call("INCRBYFLOAT", "k", "1e4932")).isEqualTo(error);
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("1e4932"));
    }
}
