package io.kvd.server.command;

import java.nio.charset.StandardCharsets;

/** Reading command arguments the way Redis does, failing with Redis's error texts. */
public final class Args {
    private Args() {
    }

    /** True if the argument equals the ASCII word, ignoring case. */
    public static boolean is(byte[] arg, String word) {
        if (arg.length != word.length()) {
            return false;
        }
        for (int i = 0; i < arg.length; i++) {
            if (toLower(arg[i]) != toLower(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** ASCII lower case; other bytes unchanged. */
    public static int toLower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    /** The argument as a long, as Redis's string2ll reads it, else {@link Errors#NOT_AN_INTEGER}. */
    public static long parseLong(byte[] arg) {
        return parseLong(arg, Errors.NOT_AN_INTEGER);
    }

    public static long parseLong(byte[] arg, String error) {
        Long value = toLong(arg);
        if (value == null) {
            throw new CommandError(error);
        }
        return value;
    }

    /**
     * Redis's getIntFromObjectOrReply: a long as {@link #parseLong} reads it, else {@code error};
     * outside an int, {@code error} too, or Redis's range text when the caller names no error of
     * its own ({@link Errors#NOT_AN_INTEGER}).
     */
    public static int parseInt(byte[] arg, String error) {
        long value = parseLong(arg, error);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new CommandError(error.equals(Errors.NOT_AN_INTEGER)
                    ? "ERR value is out of range, value must between -2147483648 and 2147483647" : error);
        }
        return (int) value;
    }

    /**
     * Redis's string2ll: optional '-', then digits with no leading zero (except "0" itself), no
     * spaces, no '+', at most 20 characters, within the range of a long. Null if not such a number.
     */
    public static Long toLong(byte[] s) {
        int len = s.length;
        if (len == 0 || len > 20) {
            return null;
        }
        if (len == 1 && s[0] == '0') {
            return 0L;
        }
        int i = 0;
        boolean negative = false;
        if (s[0] == '-') {
            negative = true;
            i = 1;
            if (len == 1) {
                return null;
            }
        }
        if (s[i] < '1' || s[i] > '9') {
            return null;
        }
        long value = 0;
        for (; i < len; i++) {
            int d = s[i] - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            // Accumulate negatively: the negative range is one larger than the positive one.
            if (value < (Long.MIN_VALUE + d) / 10) {
                return null;
            }
            value = value * 10 - d;
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                return null;
            }
            value = -value;
        }
        return value;
    }

    /**
     * C's atoi as glibc has it, {@code (int) strtol(s, NULL, 10)}: leading white space, a sign,
     * then digits up to the first other byte (none: 0); past a long's range strtol saturates, and
     * the cast keeps the low 32 bits. Redis reads the key count of numkeys commands with it when
     * it looks for their keys.
     */
    public static int atoi(byte[] s) {
        int i = 0;
        while (i < s.length && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) {
            i++;
        }
        boolean negative = i < s.length && s[i] == '-';
        if (i < s.length && (s[i] == '-' || s[i] == '+')) {
            i++;
        }
        long value = 0;
        for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
            int d = s[i] - '0';
            // Accumulated negatively, as in toLong: saturates at Long.MIN_VALUE.
            value = value < (Long.MIN_VALUE + d) / 10 ? Long.MIN_VALUE : value * 10 - d;
        }
        long result = negative ? value : (value == Long.MIN_VALUE ? Long.MAX_VALUE : -value);
        return (int) result;
    }

    public static String utf8(byte[] arg) {
        return new String(arg, StandardCharsets.UTF_8);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
