package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * BITFIELD and BITFIELD_RO as Redis 7.0 answers them (the fixed cases were checked against
 * redis-server; compat/bitfield.txt compares many more byte for byte), and random sequences
 * against a model of fields in a bit string.
 */
class BitfieldCommandTest {
    private static final String NIL = "$-1\r\n";
    private static final String BAD_TYPE =
            "-ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.\r\n";
    private static final String BAD_OFFSET = "-ERR bit offset is not an integer or out of range\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static String replies(String... replies) {
        return "*" + replies.length + "\r\n" + String.join("", replies);
    }

    private static String integers(long... values) {
        return replies(Arrays.stream(values).mapToObj(CommandFixture::integer).toArray(String[]::new));
    }

    private byte[] value(String key) {
        byte[] reply = kvd.callRaw("GET", key);
        String header = new String(reply, 0, Math.min(reply.length, 12), StandardCharsets.ISO_8859_1);
        int start = header.indexOf("\r\n") + 2;
        return Arrays.copyOfRange(reply, start, reply.length - 2);
    }

    // Overflow modes, at every width

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 31, 32, 63, 64})
    void signedIncrementPastEitherLimitWrapsSaturatesOrFails(int bits) {
        String type = "i" + bits;
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        String top = Long.toString(max);
        String bottom = Long.toString(min);
        assertThat(kvd.call("BITFIELD", "k", "SET", type, "5", top, "INCRBY", type, "5", "1"))
                .isEqualTo(integers(0, min));
        assertThat(kvd.call("BITFIELD", "k", "INCRBY", type, "5", "-1")).isEqualTo(integers(max));
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", type, "5", "1", "SET", type, "5", bottom,
                "INCRBY", type, "5", "-1")).isEqualTo(integers(max, max, min));
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", type, "5", "-1", "GET", type, "5",
                "SET", type, "5", top, "INCRBY", type, "5", "1", "GET", type, "5"))
                .isEqualTo(replies(NIL, integer(min), integer(min), NIL, integer(max)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 31, 32, 63})
    void unsignedIncrementPastEitherLimitWrapsSaturatesOrFails(int bits) {
        String type = "u" + bits;
        long max = (1L << bits) - 1;
        String top = Long.toString(max);
        assertThat(kvd.call("BITFIELD", "k", "SET", type, "3", top, "INCRBY", type, "3", "1", "INCRBY", type, "3", "-1"))
                .isEqualTo(integers(0, 0, max));
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", type, "3", "1", "SET", type, "3", "0",
                "INCRBY", type, "3", "-1")).isEqualTo(integers(max, max, 0));
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", type, "3", "-1", "SET", type, "3", top,
                "INCRBY", type, "3", "1", "GET", type, "3")).isEqualTo(replies(NIL, integer(0), NIL, integer(max)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 8, 31, 32, 63})
    void setOfAValueOutsideTheFieldWrapsOrSaturatesIt(int bits) {
        String type = "u" + bits;
        long max = (1L << bits) - 1;
        assertThat(kvd.call("BITFIELD", "k", "SET", type, "0", Long.toString(max + 2), "GET", type, "0"))
                .isEqualTo(integers(0, 1));
        // Read as C's unsigned value, a negative value is past the top.
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "SAT", "SET", type, "0", "-1", "GET", type, "0"))
                .isEqualTo(integers(1, max));
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "FAIL", "SET", type, "0", "-5", "GET", type, "0"))
                .isEqualTo(replies(NIL, integer(max)));
    }

    @Test
    void signedSetOfTheSmallestLongSaturatesToTheTopAsRedisDoes() {
        // checkSignedBitfieldOverflow's max - value wraps for it, so it counts as past the top.
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "SAT", "SET", "i8", "0", "-9223372036854775808",
                "GET", "i8", "0")).isEqualTo(integers(0, 127));
    }

    @Test
    void overflowAppliesToTheOperationsAfterIt() {
        assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "0", "255", "INCRBY", "u8", "0", "10", "OVERFLOW", "SAT",
                "INCRBY", "u8", "0", "300", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "1", "OVERFLOW", "wrap",
                "INCRBY", "u8", "0", "1")).isEqualTo(replies(integer(0), integer(9), integer(255), NIL, integer(0)));
    }

    // Offsets, growth, reads

    @Test
    void hashOffsetsCountFieldsOfTheType() {
        assertThat(kvd.call("BITFIELD", "k", "SET", "u4", "#1", "15", "SET", "i16", "#1", "-2")).isEqualTo(integers(0, 0));
        assertThat(value("k")).containsExactly(0x0F, 0x00, 0xFF, 0xFE);
        assertThat(kvd.call("BITFIELD_RO", "k", "GET", "u8", "#0", "GET", "u12", "4")).isEqualTo(integers(15, 0xF00));
    }

    @Test
    void writesGrowTheStringWithZeroBytesOnceAndKeepItsTtl() {
        kvd.call("SET", "k", "a", "EX", "100");
        assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "#3", "66", "GET", "u8", "#0")).isEqualTo(integers(0, 97));
        assertThat(kvd.call("GET", "k")).isEqualTo("$4\r\na\0\0B\r\n");
        assertThat(kvd.keyspace.deadline("k".getBytes(StandardCharsets.UTF_8))).isEqualTo(START_MS + 100_000);
        assertThat(kvd.call("OBJECT", "ENCODING", "k")).isEqualTo("$3\r\nraw\r\n");
    }

    @Test
    void getReadsZerosPastTheEndAndNeverCreatesTheKey() {
        kvd.call("SET", "k", "\u007f");
        assertThat(kvd.call("BITFIELD", "k", "GET", "i8", "0", "GET", "u4", "4", "GET", "i64", "4", "GET", "u8", "100"))
                .isEqualTo(integers(127, 15, 0xF000_0000_0000_0000L, 0));
        assertThat(kvd.call("BITFIELD", "missing", "GET", "i64", "0")).isEqualTo(integers(0));
        assertThat(kvd.call("BITFIELD", "missing")).isEqualTo("*0\r\n");
        assertThat(kvd.call("EXISTS", "missing")).isEqualTo(integer(0));
    }

    @Test
    void aWriteThatOverflowFailRefusesStillCreatesTheString() {
        assertThat(kvd.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u2", "100", "5")).isEqualTo(replies(NIL));
        assertThat(kvd.call("STRLEN", "k")).isEqualTo(integer(13));
    }

    @Test
    void offsetsArePastTheLimitFromProtoMaxBulkLen() {
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "1mb");
        assertThat(kvd.call("BITFIELD", "k", "SET", "i64", "8388607", "-1")).isEqualTo(integers(0));
        assertThat(kvd.call("STRLEN", "k")).isEqualTo(integer(1048584));
        assertThat(kvd.call("BITFIELD", "k", "GET", "u8", "8388608")).isEqualTo(BAD_OFFSET);
        assertThat(kvd.call("BITFIELD", "k", "GET", "u8", "#1048576")).isEqualTo(BAD_OFFSET);
    }

    @Test
    void aFieldEndingPastWhatAnArrayHoldsIsRefusedAtTheLargestProtoMaxBulkLen() {
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "2147483647");
        assertThat(kvd.call("BITFIELD", "k", "SET", "i64", "#268435455", "1"))
                .isEqualTo("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    // Errors: each before anything runs

    @Test
    void typesAreLowerCaseIOrUWithAWidthInRange() {
        for (String type : new String[] {"u64", "i65", "i0", "U8", "I8", "x8", "i", "i08", "u+8", "u-8", ""}) {
            assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "0", "1", "GET", type, "0")).as(type).isEqualTo(BAD_TYPE);
        }
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void badOffsetsAndValuesAreRefused() {
        for (String offset : new String[] {"-1", "x", "1.5", "#-1", "#", "##1", "4294967296", "#536870912"}) {
            assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "0", "1", "GET", "u8", offset)).as(offset)
                    .isEqualTo(BAD_OFFSET);
        }
        assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "0", "x"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("BITFIELD", "k", "INCRBY", "u8", "0", "9223372036854775808"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void syntaxAndOverflowErrors() {
        assertThat(kvd.call("BITFIELD", "k", "SET", "u8", "0", "1", "OVERFLOW", "BAD"))
                .isEqualTo("-ERR Invalid OVERFLOW type specified\r\n");
        for (String[] argv : new String[][] {{"OVERFLOW"}, {"FOO"}, {"SET", "u8", "0"}, {"GET", "u8"},
                {"INCRBY", "u8", "0"}, {"GET", "u8", "0", "GET"}}) {
            String[] command = new String[argv.length + 2];
            command[0] = "BITFIELD";
            command[1] = "k";
            System.arraycopy(argv, 0, command, 2, argv.length);
            assertThat(kvd.call(command)).as(String.join(" ", argv)).isEqualTo("-ERR syntax error\r\n");
        }
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void bitfieldRoRefusesWritesAfterParsingEverything() {
        kvd.call("SET", "k", "a");
        assertThat(kvd.call("BITFIELD_RO", "k", "GET", "u8", "0", "SET", "u8", "0", "1"))
                .isEqualTo("-ERR BITFIELD_RO only supports the GET subcommand\r\n");
        assertThat(kvd.call("BITFIELD_RO", "k", "INCRBY", "u8", "0", "1", "GET", "u64", "0")).isEqualTo(BAD_TYPE);
        assertThat(kvd.call("BITFIELD_RO", "k", "OVERFLOW", "FAIL", "GET", "u8", "0")).isEqualTo(integers(97));
        assertThat(kvd.call("GET", "k")).isEqualTo("$1\r\na\r\n");
    }

    @Test
    void anotherTypeIsWrongtypeAfterTheArgumentsAreChecked() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("BITFIELD", "l", "GET", "u8", "0")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("BITFIELD", "l", "SET", "u8", "0", "1")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("BITFIELD_RO", "l", "GET", "u8", "0")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("BITFIELD", "l", "GET", "u99", "0")).isEqualTo(BAD_TYPE);
    }

    // Propagation

    @Test
    void onlyBitfieldsWithAWriteAreLoggedAsTheyCame() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("BITFIELD", "k", "GET", "u8", "0");
        kvd.call("BITFIELD", "k", "SET", "u8", "0", "1", "GET", "u8", "0");
        kvd.call("BITFIELD_RO", "k", "GET", "u8", "0");
        kvd.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "255");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("BITFIELD", "k", "SET", "u8", "0", "1", "GET", "u8", "0")
                + record("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "255"));
    }

    @Test
    void aWriteInvalidatesAWatchAndAReadDoesNot() {
        kvd.call("SET", "k", "a");
        kvd.call("WATCH", "k");
        Client other = kvd.newClient();
        kvd.callAs(other, "BITFIELD", "k", "GET", "u8", "0");
        kvd.call("MULTI");
        kvd.call("PING");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n+PONG\r\n");
        kvd.call("WATCH", "k");
        kvd.callAs(other, "BITFIELD", "k", "INCRBY", "u8", "0", "1");
        kvd.call("MULTI");
        kvd.call("PING");
        assertThat(kvd.call("EXEC")).isEqualTo("*-1\r\n");
    }

    // Random sequences against a model

    /**
     * Random BITFIELD commands, a few operations each with OVERFLOW modes between them, on one
     * key: every reply and the string itself match a model that computes each field exactly
     * (BigInteger) and applies the overflow mode to the exact result.
     */
    @Test
    void randomSequencesMatchAModelOfExactArithmetic() {
        long seed = Long.getLong("kvd.test.seed", 20_261_203L);
        System.out.println("BitfieldCommandTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        BitString model = new BitString();
        for (int command = 0; command < 3000; command++) {
            List<String> argv = new ArrayList<>(List.of("BITFIELD", "bits"));
            List<String> expected = new ArrayList<>();
            String overflow = "WRAP";
            for (int op = 1 + random.nextInt(4); op > 0; op--) {
                if (random.nextInt(4) == 0) {
                    overflow = new String[] {"WRAP", "SAT", "FAIL"}[random.nextInt(3)];
                    argv.add("OVERFLOW");
                    argv.add(overflow);
                }
                boolean signed = random.nextBoolean();
                int bits = 1 + random.nextInt(signed ? 64 : 63);
                long offset = random.nextInt(300);
                boolean fieldOffset = random.nextInt(4) == 0;
                if (fieldOffset) {
                    offset = random.nextInt(300 / bits + 1);
                }
                String type = (signed ? "i" : "u") + bits;
                String offsetArg = fieldOffset ? "#" + offset : Long.toString(offset);
                long at = fieldOffset ? offset * bits : offset;
                int kind = random.nextInt(3);
                BigInteger old = model.get(at, bits, signed);
                if (kind == 0) {
                    argv.addAll(List.of("GET", type, offsetArg));
                    expected.add(integer(old.longValueExact()));
                    continue;
                }
                long operand = operand(random, bits, signed);
                argv.addAll(List.of(kind == 1 ? "SET" : "INCRBY", type, offsetArg, Long.toString(operand)));
                // A SET's value as C reads it for the field: an unsigned field takes the long's 64 bits unsigned.
                BigInteger exact = kind == 1
                        ? (signed || operand >= 0 ? BigInteger.valueOf(operand)
                                : BigInteger.valueOf(operand).add(BigInteger.ONE.shiftLeft(64)))
                        : old.add(BigInteger.valueOf(operand));
                BigInteger stored = model.fit(exact, bits, signed, overflow);
                model.grow(at + bits);
                if (stored == null) {
                    expected.add(NIL);
                } else {
                    model.set(at, bits, stored);
                    expected.add(integer((kind == 1 ? old : stored).longValueExact()));
                }
            }
            String reply = kvd.call(argv.toArray(String[]::new));
            assertThat(reply).as("seed %d, command %d: %s", seed, command, argv)
                    .isEqualTo(replies(expected.toArray(String[]::new)));
        }
        assertThat(value("bits")).isEqualTo(model.bytes());
    }

    /**
     * Mostly values at and around the field's limits. A signed SET's value stays above -2^62,
     * where Redis's own check wraps (see {@link #signedSetOfTheSmallestLongSaturatesToTheTopAsRedisDoes}).
     */
    private static long operand(SplittableRandom random, int bits, boolean signed) {
        long max = signed ? (bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1) : (1L << bits) - 1;
        long min = signed ? -max - 1 : 0;
        return switch (random.nextInt(6)) {
            case 0 -> max - random.nextInt(3);
            case 1 -> Math.max(min, -(1L << 62)) + random.nextInt(3);
            case 2 -> random.nextInt(7) - 3;
            case 3 -> random.nextLong(-(1L << 62), Long.MAX_VALUE);
            default -> random.nextLong(Math.max(min, -(1L << 62)) / 2 - 1, max / 2 + 1);
        };
    }

    /** The model: a string of bits, bit 0 the first byte's high bit, grown with zero bytes. */
    private static final class BitString {
        private byte[] bytes = new byte[0];

        BigInteger get(long at, int bits, boolean signed) {
            BigInteger value = BigInteger.ZERO;
            for (int i = 0; i < bits; i++) {
                long bit = at + i;
                boolean set = bit / 8 < bytes.length && (bytes[(int) (bit / 8)] & (0x80 >> (bit % 8))) != 0;
                value = value.shiftLeft(1).or(set ? BigInteger.ONE : BigInteger.ZERO);
            }
            return signed && value.testBit(bits - 1) ? value.subtract(BigInteger.ONE.shiftLeft(bits)) : value;
        }

        void set(long at, int bits, BigInteger value) {
            for (int i = 0; i < bits; i++) {
                long bit = at + i;
                int mask = 0x80 >> (bit % 8);
                int index = (int) (bit / 8);
                bytes[index] = (byte) (value.testBit(bits - 1 - i) ? bytes[index] | mask : bytes[index] & ~mask);
            }
        }

        void grow(long bitLength) {
            int length = (int) ((bitLength + 7) / 8);
            if (length > bytes.length) {
                bytes = Arrays.copyOf(bytes, length);
            }
        }

        /** The exact result in the field: as it is, wrapped, saturated, or null when FAIL refuses it. */
        BigInteger fit(BigInteger exact, int bits, boolean signed, String overflow) {
            BigInteger min = signed ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
            BigInteger max = signed ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
                    : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
            if (exact.compareTo(min) >= 0 && exact.compareTo(max) <= 0) {
                return exact;
            }
            return switch (overflow) {
                case "WRAP" -> exact.subtract(min).mod(BigInteger.ONE.shiftLeft(bits)).add(min);
                case "SAT" -> exact.compareTo(max) > 0 ? max : min;
                default -> null;
            };
        }

        byte[] bytes() {
            return bytes;
        }
    }
}
