package io.kvd.server.command;

import io.kvd.server.numeric.Printf;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Sorted-set scores as Redis 7.0 reads and prints them: C's strtod (decimal, hexadecimal,
 * "inf"/"infinity" in any case, no NaN) and "%.17g".
 */
final class Scores {
    private static final double LONG_RANGE = 9.223372036854775808e18;
    private static final Pattern DECIMAL = Pattern.compile("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    /** The longest weight whose exactness as a subnormal is worked out (an exact one has some 760 digits). */
    private static final int MAX_EXACT_TEXT = 1200;
    private static final Pattern HEX = Pattern.compile("([0-9a-fA-F]+(\\.[0-9a-fA-F]*)?|\\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?");

    /** 10^0 to 10^22: the powers of ten a double holds exactly. */
    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };

    private Scores() {
    }

    /**
     * Redis's getDoubleFromObject: the whole argument is a number strtod reads, not starting with
     * a space, not NaN, neither overflowing nor underflowing; else {@link Errors#NOT_A_FLOAT}.
     */
    static double parse(byte[] arg) {
        if (arg.length == 0 || isSpace(arg[0])) {
            throw new CommandError(Errors.NOT_A_FLOAT);
        }
        double value = strtod(arg, 0);
        if (Double.isNaN(value)) {
            throw new CommandError(Errors.NOT_A_FLOAT);
        }
        return value;
    }

    /**
     * zslParseRange's strtod of a range bound after its optional '(': leading spaces allowed, no
     * range check, an empty string is 0; NaN (also for what strtod cannot read whole) if invalid.
     */
    static double parseBound(byte[] arg, int from) {
        int i = from;
        while (i < arg.length && isSpace(arg[i])) {
            i++;
        }
        if (i == arg.length) {
            // strtod read nothing: 0, and the end pointer is at the (empty) end only without spaces.
            return i == from ? 0 : Double.NaN;
        }
        double value = strtodOrNaN(arg, i);
        return value;
    }

    /**
     * SORT's weight (Redis 7.0's sortCommandGeneric): strtod of the string up to its first NUL byte,
     * leading spaces allowed, an empty string 0; NaN when strtod cannot read it whole, reads NaN,
     * or sets ERANGE: on overflow, and on underflow to zero or to an inexact subnormal.
     */
    static double parseSortWeight(byte[] arg) {
        // Most weights are plain integers, which strtod and a long's conversion round alike.
        Long integer = Args.toLong(arg);
        if (integer != null) {
            return integer;
        }
        int end = 0;
        while (end < arg.length && arg[end] != 0) {
            end++;
        }
        int i = 0;
        while (i < end && isSpace(arg[i])) {
            i++;
        }
        if (i == end) {
            return end == 0 ? 0 : Double.NaN;
        }
        byte[] text = i == 0 && end == arg.length ? arg : Arrays.copyOfRange(arg, i, end);
        double value = strtod(text, 0);
        if (value != 0 && Math.abs(value) < Double.MIN_NORMAL && !isExactly(text, value)) {
            return Double.NaN;
        }
        return value;
    }

    /**
     * Whether the number strtod read is exactly {@code value}, a subnormal: glibc sets ERANGE for
     * an inexact one only. A text too long to be worth the exact arithmetic counts as inexact.
     */
    private static boolean isExactly(byte[] text, double value) {
        if (text.length > MAX_EXACT_TEXT) {
            return false;
        }
        String number = new String(text, StandardCharsets.ISO_8859_1);
        if (number.charAt(0) == '-' || number.charAt(0) == '+') {
            number = number.substring(1);
        }
        BigDecimal exact;
        if (number.length() > 1 && (number.charAt(1) == 'x' || number.charAt(1) == 'X')) {
            String hex = number.substring(2);
            int p = Math.max(hex.indexOf('p'), hex.indexOf('P'));
            long exponent = p < 0 ? 0 : Long.parseLong(hex.substring(p + 1).replace("+", ""));
            String digits = p < 0 ? hex : hex.substring(0, p);
            int point = digits.indexOf('.');
            if (point >= 0) {
                exponent -= 4L * (digits.length() - point - 1);
                digits = digits.substring(0, point) + digits.substring(point + 1);
            }
            if (exponent > 0 || exponent < -MAX_EXACT_TEXT * 4) {
                return false;
            }
            int scale = (int) -exponent;
            // 2^-k is 5^k / 10^k.
            exact = new BigDecimal(new BigInteger(digits, 16)).multiply(new BigDecimal(BigInteger.valueOf(5).pow(scale), scale));
        } else {
            exact = new BigDecimal(number);
        }
        return exact.compareTo(new BigDecimal(Math.abs(value))) == 0;
    }

    /** strtod of {@code arg[from..]}, which must be read whole; overflow and underflow are errors (ERANGE). */
    private static double strtod(byte[] arg, int from) {
        double value = strtodOrNaN(arg, from);
        if (Double.isNaN(value)) {
            return value;
        }
        if (Double.isInfinite(value) && !isInfinityWord(arg, from)) {
            return Double.NaN;
        }
        if (value == 0 && hasNonZeroDigit(arg, from)) {
            return Double.NaN;
        }
        return value;
    }

    /** strtod without the range check: NaN for anything that is not one whole number. */
    private static double strtodOrNaN(byte[] arg, int from) {
        double plain = plainDecimal(arg, from);
        if (!Double.isNaN(plain)) {
            return plain;
        }
        String text = new String(arg, from, arg.length - from, StandardCharsets.ISO_8859_1);
        boolean negative = !text.isEmpty() && text.charAt(0) == '-';
        String body = !text.isEmpty() && (negative || text.charAt(0) == '+') ? text.substring(1) : text;
        double value;
        if (body.length() > 2 && body.charAt(0) == '0' && (body.charAt(1) == 'x' || body.charAt(1) == 'X')) {
            String hex = body.substring(2);
            if (!HEX.matcher(hex).matches()) {
                return Double.NaN;
            }
            value = Double.parseDouble("0x" + (hex.indexOf('p') >= 0 || hex.indexOf('P') >= 0 ? hex : hex + "p0"));
        } else if (DECIMAL.matcher(body).matches()) {
            value = Double.parseDouble(body);
        } else if (body.equalsIgnoreCase("inf") || body.equalsIgnoreCase("infinity")) {
            value = Double.POSITIVE_INFINITY;
        } else {
            return Double.NaN;
        }
        return negative ? -value : value;
    }

    /**
     * Most scores and coordinates, "-13.4" or "1700000000", read without a String or a pattern:
     * digits, at most one point, no exponent, the digits together below 2^53 and at most 22 after
     * the point. Both the digits and the power of ten are then exact doubles, so the one division is
     * rounded correctly, as strtod is (Clinger's fast path). NaN for anything else.
     */
    private static double plainDecimal(byte[] arg, int from) {
        int i = from;
        boolean negative = i < arg.length && arg[i] == '-';
        if (i < arg.length && (negative || arg[i] == '+')) {
            i++;
        }
        long digits = 0;
        int digitCount = 0;
        int point = -1;
        for (; i < arg.length; i++) {
            byte c = arg[i];
            if (c >= '0' && c <= '9') {
                digits = digits * 10 + (c - '0');
                if (digits >= 1L << 53) {
                    return Double.NaN;
                }
                digitCount++;
            } else if (c == '.' && point < 0) {
                point = digitCount;
            } else {
                return Double.NaN;
            }
        }
        int fraction = point < 0 ? 0 : digitCount - point;
        if (digitCount == 0 || fraction >= POWERS_OF_TEN.length) {
            return Double.NaN;
        }
        double value = digits / POWERS_OF_TEN[fraction];
        return negative ? -value : value;
    }

    private static boolean isInfinityWord(byte[] arg, int from) {
        for (int i = from; i < arg.length; i++) {
            if (arg[i] == 'i' || arg[i] == 'I') {
                return true;
            }
        }
        return false;
    }

    /** Whether the mantissa has a non-zero digit (so a zero result underflowed). */
    private static boolean hasNonZeroDigit(byte[] arg, int from) {
        int i = from;
        if (i < arg.length && (arg[i] == '+' || arg[i] == '-')) {
            i++;
        }
        boolean hex = i + 1 < arg.length && arg[i] == '0' && (arg[i + 1] == 'x' || arg[i + 1] == 'X');
        if (hex) {
            i += 2;
        }
        for (; i < arg.length; i++) {
            int c = Args.toLower(arg[i]);
            if (c == (hex ? 'p' : 'e')) {
                return false;
            }
            if (c >= '1' && c <= '9' || hex && c >= 'a' && c <= 'f') {
                return true;
            }
        }
        return false;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    /** Redis 7.0's addReplyDouble: "inf", "-inf", else C's "%.17g". */
    static String format(double value) {
        return Printf.g17(value);
    }

    /**
     * The score as a listpack holds it (d2string): an integer within a long's range as an
     * integer ("-0" becomes "0"), else "%.17g". ZSCAN of a listpack prints this form.
     */
    static String formatStored(double value) {
        if (!Double.isInfinite(value) && value == Math.rint(value) && value >= -LONG_RANGE && value < LONG_RANGE) {
            return Long.toString((long) value);
        }
        return format(value);
    }
}
