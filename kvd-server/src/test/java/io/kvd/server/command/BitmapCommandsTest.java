package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/** Bitmap commands as Redis 7.0 answers them; each expected reply was checked against redis-server. */
class BitmapCommandsTest {
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String BAD_OFFSET = "-ERR bit offset is not an integer or out of range\r\n";
    private static final String BAD_BIT = "-ERR bit is not an integer or out of range\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static String bulk(String value) {
        return "$" + value.getBytes(StandardCharsets.ISO_8859_1).length + "\r\n" + value + "\r\n";
    }

    private static String integer(long value) {
        return ":" + value + "\r\n";
    }

    private String raw(String key) {
        return new String(kvd.callRaw("GET", key), StandardCharsets.ISO_8859_1);
    }

    // SETBIT, GETBIT

    @Test
    void setbitCreatesTheStringWithZeroBytesAndReturnsTheOldBit() {
        assertThat(kvd.call("SETBIT", "k", "17", "1")).isEqualTo(integer(0));
        assertThat(raw("k")).isEqualTo(bulk("\0\0@"));
        assertThat(kvd.call("SETBIT", "k", "17", "0")).isEqualTo(integer(1));
        assertThat(raw("k")).isEqualTo(bulk("\0\0\0"));
    }

    @Test
    void setbitGrowsAnExistingStringAndKeepsItsTtl() {
        kvd.call("SET", "k", "a", "EX", "100");
        assertThat(kvd.call("SETBIT", "k", "15", "1")).isEqualTo(integer(0));
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("a\u0001"));
        assertThat(kvd.keyspace.deadline(bytes("k"))).isEqualTo(START_MS + 100_000);
        assertThat(kvd.call("OBJECT", "ENCODING", "k")).isEqualTo(bulk("raw"));
    }

    @Test
    void setbitRefusesOffsetsPastProtoMaxBulkLen() {
        assertThat(kvd.call("SETBIT", "k", "4294967296", "0")).isEqualTo(BAD_OFFSET);
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "1mb");
        assertThat(kvd.call("SETBIT", "k", "8388607", "1")).isEqualTo(integer(0));
        assertThat(kvd.call("STRLEN", "k")).isEqualTo(integer(1048576));
        assertThat(kvd.call("SETBIT", "k", "8388608", "1")).isEqualTo(BAD_OFFSET);
    }

    @Test
    void setbitRefusesBadOffsetsBeforeBadBits() {
        assertThat(kvd.call("SETBIT", "k", "-1", "0")).isEqualTo(BAD_OFFSET);
        assertThat(kvd.call("SETBIT", "k", "x", "2")).isEqualTo(BAD_OFFSET);
        assertThat(kvd.call("SETBIT", "k", "1", "2")).isEqualTo(BAD_BIT);
        assertThat(kvd.call("SETBIT", "k", "1", "-1")).isEqualTo(BAD_BIT);
        assertThat(kvd.call("SETBIT", "k", "1", "one")).isEqualTo(BAD_BIT);
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void setbitOnAnotherTypeIsWrongtype() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("SETBIT", "l", "1", "1")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GETBIT", "l", "1")).isEqualTo(WRONGTYPE);
    }

    @Test
    void setbitIsLoggedOnlyWhenItChangesTheString() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SETBIT", "k", "3", "1");
        kvd.call("SETBIT", "k", "3", "1");
        kvd.call("SETBIT", "k", "5", "0");
        kvd.call("SETBIT", "k", "9", "0");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("SETBIT", "k", "3", "1")
                + record("SETBIT", "k", "9", "0"));
    }

    @Test
    void getbitReadsZeroPastTheEndAndOfMissingKeys() {
        kvd.call("SET", "k", "`");
        assertThat(kvd.call("GETBIT", "k", "1")).isEqualTo(integer(1));
        assertThat(kvd.call("GETBIT", "k", "3")).isEqualTo(integer(0));
        assertThat(kvd.call("GETBIT", "k", "100")).isEqualTo(integer(0));
        assertThat(kvd.call("GETBIT", "missing", "0")).isEqualTo(integer(0));
        assertThat(kvd.call("GETBIT", "k", "4294967296")).isEqualTo(BAD_OFFSET);
    }

    // BITCOUNT

    @Test
    void bitcountCountsTheWholeString() {
        kvd.call("SET", "k", "foobar");
        assertThat(kvd.call("BITCOUNT", "k")).isEqualTo(integer(26));
    }

    @Test
    void bitcountCountsAByteRangeWithNegativeIndexesFromTheEnd() {
        kvd.call("SET", "k", "foobar");
        assertThat(kvd.call("BITCOUNT", "k", "1", "1")).isEqualTo(integer(6));
        assertThat(kvd.call("BITCOUNT", "k", "-3", "-1", "BYTE")).isEqualTo(integer(10));
        assertThat(kvd.call("BITCOUNT", "k", "-100", "-50")).isEqualTo(integer(4));
        assertThat(kvd.call("BITCOUNT", "k", "0", "100")).isEqualTo(integer(26));
        assertThat(kvd.call("BITCOUNT", "k", "2", "1")).isEqualTo(integer(0));
    }

    @Test
    void bitcountCountsABitRange() {
        kvd.call("SET", "k", "foobar");
        assertThat(kvd.call("BITCOUNT", "k", "5", "30", "BIT")).isEqualTo(integer(17));
        assertThat(kvd.call("BITCOUNT", "k", "-13", "-2", "bit")).isEqualTo(integer(5));
        assertThat(kvd.call("BITCOUNT", "k", "9", "40", "BIT")).isEqualTo(integer(18));
        assertThat(kvd.call("BITCOUNT", "k", "1", "1", "BIT")).isEqualTo(integer(1));
    }

    @Test
    void bitcountCountsWordsAndTheBytesAroundThem() {
        kvd.call("SET", "k", "\u007f".repeat(21));
        assertThat(kvd.call("BITCOUNT", "k")).isEqualTo(integer(147));
        assertThat(kvd.call("BITCOUNT", "k", "3", "165", "BIT")).isEqualTo(integer(143));
    }

    @Test
    void bitcountOfAMissingKeyIsZeroWhateverTheArguments() {
        assertThat(kvd.call("BITCOUNT", "missing")).isEqualTo(integer(0));
        assertThat(kvd.call("BITCOUNT", "missing", "a", "b", "c")).isEqualTo(integer(0));
    }

    @Test
    void bitcountSyntaxErrors() {
        kvd.call("SET", "k", "foobar");
        assertThat(kvd.call("BITCOUNT", "k", "1")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITCOUNT", "k", "1", "2", "BIT", "x")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITCOUNT", "k", "-2", "-1", "FOO")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITCOUNT", "k", "-1", "-2", "FOO")).isEqualTo(integer(0));
        assertThat(kvd.call("BITCOUNT", "k", "x", "1")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    // BITPOS

    @Test
    void bitposFindsTheFirstSetOrClearBit() {
        kvd.call("SETBIT", "k", "12", "1");
        assertThat(kvd.call("BITPOS", "k", "1")).isEqualTo(integer(12));
        assertThat(kvd.call("BITPOS", "k", "0")).isEqualTo(integer(0));
        assertThat(kvd.call("BITPOS", "k", "1", "2")).isEqualTo(integer(-1));
    }

    @Test
    void bitposOfAClearBitWithoutAnEndLooksPastTheString() {
        put("k", 0xff, 0xff);
        assertThat(kvd.call("BITPOS", "k", "0")).isEqualTo(integer(16));
        assertThat(kvd.call("BITPOS", "k", "0", "1")).isEqualTo(integer(16));
        assertThat(kvd.call("BITPOS", "k", "0", "0", "-1")).isEqualTo(integer(-1));
        assertThat(kvd.call("BITPOS", "k", "0", "3", "-1", "BIT")).isEqualTo(integer(-1));
    }

    @Test
    void bitposSearchesABitRange() {
        put("k", 0xff, 0xf0, 0x00);
        assertThat(kvd.call("BITPOS", "k", "0", "2", "-1", "BIT")).isEqualTo(integer(12));
        assertThat(kvd.call("BITPOS", "k", "1", "4", "20", "BIT")).isEqualTo(integer(4));
        assertThat(kvd.call("BITPOS", "k", "0", "4", "11", "BIT")).isEqualTo(integer(-1));
        assertThat(kvd.call("BITPOS", "k", "1", "12", "-1", "BIT")).isEqualTo(integer(-1));
        assertThat(kvd.call("BITPOS", "k", "0", "100", "200", "BIT")).isEqualTo(integer(-1));
    }

    @Test
    void bitposSkipsWholeWords() {
        byte[] value = new byte[40];
        value[37] = 0x04;
        kvd.keyspace.put(bytes("k"), value, Keyspace.PERSISTENT);
        assertThat(kvd.call("BITPOS", "k", "1")).isEqualTo(integer(301));
        assertThat(kvd.call("BITPOS", "k", "1", "3", "37")).isEqualTo(integer(301));
        assertThat(kvd.call("BITPOS", "k", "1", "3", "300", "BIT")).isEqualTo(integer(-1));
    }

    @Test
    void bitposOfAMissingKeyIsAnEndlessRunOfClearBits() {
        assertThat(kvd.call("BITPOS", "missing", "0", "x")).isEqualTo(integer(0));
        assertThat(kvd.call("BITPOS", "missing", "1", "x", "y", "z", "w")).isEqualTo(integer(-1));
    }

    @Test
    void bitposErrors() {
        put("k", 0xff);
        assertThat(kvd.call("BITPOS", "k", "2")).isEqualTo("-ERR The bit argument must be 1 or 0.\r\n");
        assertThat(kvd.call("BITPOS", "missing", "2")).isEqualTo("-ERR The bit argument must be 1 or 0.\r\n");
        assertThat(kvd.call("BITPOS", "k", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("BITPOS", "k", "0", "1", "x", "FOO")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITPOS", "k", "0", "1", "2", "BYTE", "x")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITPOS", "k", "0", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    // BITOP

    @Test
    void bitopCombinesSourcesPaddedWithZeroBytesAndReturnsTheLongestLength() {
        kvd.call("SET", "a", "abc");
        kvd.call("SET", "b", "A");
        assertThat(kvd.call("BITOP", "OR", "d", "a", "b")).isEqualTo(integer(3));
        assertThat(kvd.call("GET", "d")).isEqualTo(bulk("abc"));
        assertThat(kvd.call("BITOP", "and", "d", "a", "b", "missing")).isEqualTo(integer(3));
        assertThat(raw("d")).isEqualTo(bulk("\0\0\0"));
        assertThat(kvd.call("BITOP", "XOR", "d", "a", "b")).isEqualTo(integer(3));
        assertThat(kvd.call("GET", "d")).isEqualTo(bulk(" bc"));
        assertThat(kvd.call("OBJECT", "ENCODING", "d")).isEqualTo(bulk("raw"));
    }

    @Test
    void bitopCombinesWordsAndTheBytesAfterThem() {
        kvd.call("SET", "a", "a".repeat(20));
        kvd.call("SET", "b", "!".repeat(12));
        assertThat(kvd.call("BITOP", "XOR", "d", "a", "b")).isEqualTo(integer(20));
        assertThat(kvd.call("GET", "d")).isEqualTo(bulk("@".repeat(12) + "a".repeat(8)));
        assertThat(kvd.call("BITOP", "AND", "d", "a", "b")).isEqualTo(integer(20));
        assertThat(kvd.call("GET", "d")).isEqualTo(bulk("!".repeat(12) + "\0".repeat(8)));
    }

    @Test
    void bitopNotTakesOneSource() {
        kvd.call("SET", "a", "\u007f?");
        assertThat(kvd.call("BITOP", "NOT", "d", "a")).isEqualTo(integer(2));
        assertThat(new String(kvd.callRaw("GET", "d"), StandardCharsets.ISO_8859_1)).isEqualTo("$2\r\n\u0080\u00c0\r\n");
        assertThat(kvd.call("BITOP", "NOT", "d", "a", "a"))
                .isEqualTo("-ERR BITOP NOT must be called with a single source key.\r\n");
    }

    @Test
    void bitopReplacesTheDestinationWithoutItsTtl() {
        kvd.call("SET", "a", "x");
        kvd.call("RPUSH", "d", "item");
        kvd.call("BITOP", "OR", "d", "a");
        assertThat(kvd.call("GET", "d")).isEqualTo(bulk("x"));
        kvd.call("EXPIRE", "d", "100");
        kvd.call("BITOP", "OR", "d", "a");
        assertThat(kvd.call("TTL", "d")).isEqualTo(integer(-1));
    }

    @Test
    void bitopWithAnEmptyResultDeletesTheDestination() {
        kvd.call("SET", "d", "x");
        kvd.call("SET", "empty", "");
        assertThat(kvd.call("BITOP", "AND", "d", "missing", "empty")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void bitopErrors() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("BITOP", "NAND", "d", "a")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BITOP", "OR", "d", "a", "l")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("BITOP", "OR", "d")).isEqualTo("-ERR wrong number of arguments for 'bitop' command\r\n");
    }

    @Test
    void bitopIsLoggedAsSentWhenItChangedTheDestination() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SET", "a", "x");
        kvd.call("BITOP", "OR", "d", "a");
        kvd.call("BITOP", "OR", "e", "missing");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("SET", "a", "x")
                + record("BITOP", "OR", "d", "a"));
    }

    private void put(String key, int... bytes) {
        byte[] value = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            value[i] = (byte) bytes[i];
        }
        kvd.keyspace.put(bytes(key), value, Keyspace.PERSISTENT);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
