package io.kvd.server.protocol;

import io.kvd.server.numeric.IntegerText;

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

    /** Redis's string2ll ({@link IntegerText#string2ll}): null if not such a number. */
    public static Long toLong(byte[] s) {
        return IntegerText.string2ll(s);
    }

    /** C's atoi ({@link IntegerText#atoi}), as Redis reads the key count of numkeys commands to find their keys. */
    public static int atoi(byte[] s) {
        return IntegerText.atoi(s);
    }

    public static String utf8(byte[] arg) {
        return new String(arg, StandardCharsets.UTF_8);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
