package io.kvd.it;

import io.kvd.it.support.DifferentialRun;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Seeded random Lua values (nested tables of numbers at every cmsgpack encoding boundary, floats,
 * strings with bytes JSON escapes) packed and encoded by cmsgpack and cjson in scripts, and
 * round-tripped through unpack and decode: every reply is redis-server's. Table keys that are
 * strings stay under 32 bytes: Redis 7.0's Lua hashes longer strings differently from stock Lua
 * 5.1 (every byte, against every 32nd), which orders such tables differently for pairs. Then
 * bit's operations and struct's formats on random numbers.
 */
@ExtendWith(ServerLogsOnFailure.class)
class LuaLibrariesRandomDifferentialTest {
    private static final int DRAWS = 600;
    private static final long[] BOUNDARIES = {0, 15, 16, 31, 32, 127, 128, 255, 256, 65535, 65536,
            2147483647L, 2147483648L, 4294967295L, 4294967296L, 9007199254740992L};
    private static final String[] FLOATS = {"0.5", "0.1", "1/3", "-0.0", "3.4028234663852886e38", "3.5e38",
            "2^-149", "2^-150", "1e-310", "2^24+1", "2^63", "-2^63", "2^64", "1e300", "123456.789"};
    private static final String[] BIT_OPERATIONS = {"tobit(%s)", "bnot(%s)", "band(%s, %s, %s)", "bor(%s, %s)",
            "bxor(%s, %s, %s)", "lshift(%s, %s)", "rshift(%s, %s)", "arshift(%s, %s)", "rol(%s, %s)", "ror(%s, %s)",
            "bswap(%s)", "tohex(%s)", "tohex(%s, %s)"};
    private static final String[] SPECIAL_NUMBERS = {"0", "1", "-1", "2^31", "2^31-1", "-2^31", "2^32", "2^32-1",
            "2^52", "2^53", "2^51+0.5", "-2^51-0.5", "2^63", "-2^63", "2^64", "1/0", "-1/0"};
    private static final String[] STRUCT_CONTROLS = {"<", ">", "!", "!4", " "};
    private static final String[] STRUCT_ITEMS = {"b", "B", "h", "H", "i", "I", "l", "L", "T", "i3", "I5", "i7", "I12",
            "f", "d"};
    private static final String[] TEMPLATES = {
            "return cmsgpack.pack(%s)",
            "return cmsgpack.pack(cmsgpack.unpack(cmsgpack.pack(%s)))",
            "return cjson.encode(%s)",
            "local ok, json = pcall(cjson.encode, %s) if not ok then return json end return cjson.encode(cjson.decode(json))",
    };

    @Test
    void randomValuesPackAndEncodeAsInRedis() throws IOException {
        compare(random -> {
            String value = value(random, 0);
            return Arrays.stream(TEMPLATES).map(template -> template.formatted(value)).toArray(String[]::new);
        });
    }

    /** bit's operations on doubles of every magnitude, struct's integer and float formats both ways. */
    @Test
    void randomBitOperationsAndStructFormatsAsInRedis() throws IOException {
        compare(random -> {
            String operation = BIT_OPERATIONS[random.nextInt(BIT_OPERATIONS.length)];
            Object[] operands = new String[(operation.length() - operation.replace("%s", "").length()) / 2];
            Arrays.setAll(operands, i -> double64(random));
            StringBuilder format = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                format.append(STRUCT_CONTROLS[random.nextInt(STRUCT_CONTROLS.length)])
                        .append(STRUCT_ITEMS[random.nextInt(STRUCT_ITEMS.length)]);
            }
            return new String[]{
                    "return {bit." + operation.formatted(operands) + "}",
                    ("local s = struct.pack('%1$s', %2$s, %3$s, %4$s) local t = {struct.unpack('%1$s', s)}"
                            + " for i = 1, #t do t[i] = string.format('%%.17g', t[i]) end return {s, t}")
                            .formatted(format, double64(random), double64(random), double64(random)),
            };
        });
    }

    /** Runs the scripts each of {@link #DRAWS} draws makes on both servers: every reply the same. */
    private static void compare(Function<SplittableRandom, String[]> draw) throws IOException {
        try (DifferentialRun run = DifferentialRun.start(LuaLibrariesRandomDifferentialTest.class, 20261203L)) {
            for (int i = 0; i < DRAWS; i++) {
                for (String script : draw.apply(run.random())) {
                    run.assertSameReply("EVAL", script, "0");
                }
            }
        }
    }

    /** A Lua number expression: integers around 2^31, 2^32 and 2^52, fractions, huge and negative magnitudes. */
    private static String double64(SplittableRandom random) {
        return switch (random.nextInt(5)) {
            case 0 -> "(" + (random.nextLong(1L << 34) - (1L << 33)) + ")";
            case 1 -> "(" + (random.nextDouble() - 0.5) * 2e20 + ")";
            case 2 -> "(" + random.nextDouble() + "*2^" + (random.nextInt(85) - 5) + ")";
            case 3 -> "(" + SPECIAL_NUMBERS[random.nextInt(SPECIAL_NUMBERS.length)] + ")";
            default -> "(" + (random.nextDouble() - 0.5) * 20 + ")";
        };
    }

    /** A Lua expression: a number, a string, a boolean, or (above depth 4, not) a table. */
    private static String value(SplittableRandom random, int depth) {
        int pick = random.nextInt(depth < 4 ? 10 : 6);
        if (pick < 3) {
            return number(random);
        }
        if (pick < 5) {
            return string(random);
        }
        if (pick == 5) {
            return random.nextBoolean() ? "true" : "false";
        }
        StringBuilder table = new StringBuilder("{");
        if (pick < 8) {
            int count = random.nextInt(random.nextInt(5) == 0 ? 20 : 5);
            for (int i = 0; i < count; i++) {
                table.append(i == 0 ? "" : ", ").append(value(random, depth + 1));
            }
        } else {
            int count = random.nextInt(6);
            for (int i = 0; i < count; i++) {
                String key = switch (random.nextInt(3)) {
                    case 0 -> shortKey(random);
                    case 1 -> Integer.toString(1 + random.nextInt(30));
                    default -> number(random);
                };
                table.append(i == 0 ? "" : ", ").append('[').append(key).append("] = ").append(value(random, depth + 1));
            }
        }
        return table.append('}').toString();
    }

    /** Integers next to an encoding boundary, floats that are and are not exact as float, others. */
    private static String number(SplittableRandom random) {
        return switch (random.nextInt(5)) {
            case 0 -> {
                long n = BOUNDARIES[random.nextInt(BOUNDARIES.length)] + random.nextInt(3) - 1;
                yield random.nextBoolean() ? "(" + n + ")" : "(-" + n + ")";
            }
            case 1 -> Double.toString((random.nextDouble() - 0.5) * 2e6);
            case 2 -> (1 + random.nextInt(99)) + "e" + (random.nextInt(630) - 320);
            case 3 -> "(" + FLOATS[random.nextInt(FLOATS.length)] + ")";
            default -> Integer.toString(random.nextInt(2000) - 1000);
        };
    }

    /** A quoted Lua string of a length around a raw header boundary, with quotes, slashes, control and high bytes. */
    private static String string(SplittableRandom random) {
        int[] lengths = {0, 1, 5, 31, 32, 33, 255, 256};
        int length = lengths[random.nextInt(lengths.length)];
        if (length > 40) {
            return "string.rep('x', " + length + ")";
        }
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < length; i++) {
            int b = random.nextInt(10) == 0 ? random.nextInt(256) : "abc/\"\\\n\t".charAt(random.nextInt(8));
            out.append('\\').append(b);
        }
        return out.append('"').toString();
    }

    private static String shortKey(SplittableRandom random) {
        StringBuilder key = new StringBuilder("\"");
        for (int i = 1 + random.nextInt(30); i > 0; i--) {
            key.append("abcxyz_".charAt(random.nextInt(7)));
        }
        return key.append('"').toString();
    }
}
