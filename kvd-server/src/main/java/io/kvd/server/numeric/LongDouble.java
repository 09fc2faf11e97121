package io.kvd.server.numeric;

import java.math.BigInteger;

/**
 * The C {@code long double} of Redis on x86-64 (the x87 80-bit format: 64-bit significand,
 * subnormals down to 2^-16445), emulated exactly so INCRBYFLOAT answers byte for byte as Redis
 * does: read as glibc's strtold reads (Redis's string2ld), one correctly rounded addition, printed
 * as {@code "%.17Lf"} without trailing zeros (ld2string's LD_STR_HUMAN). A double or plain
 * BigDecimal arithmetic would differ from Redis in the last digits, e.g. 1e20 + 1.
 *
 * <p>A finite value is {@code significand * 2^exponent}, exact.
 */
public final class LongDouble {
    private static final int SIGNIFICAND_BITS = 64;
    /** Exponent of the smallest subnormal's only bit. */
    private static final int MIN_EXPONENT = -16445;
    /** Largest exponent with a 64-bit significand below 2^16384, the format's limit. */
    private static final int MAX_EXPONENT = 16384 - SIGNIFICAND_BITS;
    /** string2ld refuses strings this long or longer (MAX_LONG_DOUBLE_CHARS). */
    private static final int MAX_CHARS = 5 * 1024;
    /** Digits after the point that "%.17Lf" prints. */
    private static final int PRINTED_DECIMALS = 17;
    private static final BigInteger PRINTED_SCALE = BigInteger.TEN.pow(PRINTED_DECIMALS);

    public static final LongDouble ZERO = new LongDouble(BigInteger.ZERO, 0, false);
    private static final LongDouble INFINITY = new LongDouble(BigInteger.ZERO, 0, true);

    private final BigInteger significand;
    private final int exponent;
    private final boolean infinite;

    private LongDouble(BigInteger significand, int exponent, boolean infinite) {
        this.significand = significand;
        this.exponent = exponent;
        this.infinite = infinite;
    }

    public boolean isInfinite() {
        return infinite;
    }

    /**
     * The value of the whole string as strtold reads it, or null where Redis's string2ld says it
     * is not a number: empty, too long, leading space, trailing bytes, NaN, or out of range
     * (overflow, or a non-zero number that rounds to zero). Decimal, hexadecimal ("0x1.8p3") and
     * "inf"/"infinity" forms are accepted, as strtold does.
     */
    public static LongDouble parse(byte[] s) {
        if (s.length == 0 || s.length >= MAX_CHARS) {
            return null;
        }
        int i = 0;
        boolean negative = s[0] == '-';
        if (s[0] == '-' || s[0] == '+') {
            i++;
        }
        if (matchesIgnoringCase(s, i, "inf") || matchesIgnoringCase(s, i, "infinity")) {
            return INFINITY;
        }
        boolean hex = s.length - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
        LongDouble value = hex ? parseDigits(s, i + 2, negative, 16, 'p') : parseDigits(s, i, negative, 10, 'e');
        // A number written out that rounds to infinity is strtold's overflow, not infinity.
        return value == INFINITY ? null : value;
    }

    /**
     * Digits with an optional point, then an optional exponent after {@code exponentMark}: powers
     * of ten for decimal, of two for hexadecimal.
     */
    private static LongDouble parseDigits(byte[] s, int i, boolean negative, int radix, char exponentMark) {
        BigInteger digits = BigInteger.ZERO;
        BigInteger bigRadix = BigInteger.valueOf(radix);
        int digitCount = 0;
        int fractionDigits = 0;
        boolean point = false;
        for (; i < s.length; i++) {
            if (s[i] == '.' && !point) {
                point = true;
                continue;
            }
            int d = Character.digit(s[i], radix);
            if (d < 0) {
                break;
            }
            digits = digits.multiply(bigRadix).add(BigInteger.valueOf(d));
            digitCount++;
            if (point) {
                fractionDigits++;
            }
        }
        if (digitCount == 0) {
            return null;
        }
        long written = 0;
        if (i < s.length && toLower(s[i]) == exponentMark) {
            int[] end = {i + 1};
            Long e = parseExponent(s, end);
            if (e == null) {
                return null;
            }
            written = e;
            i = end[0];
        }
        if (i != s.length) {
            return null;
        }
        if (digits.signum() == 0) {
            return ZERO;
        }
        if (radix == 16) {
            return fromRational(negative, digits, BigInteger.ONE, written - 4L * fractionDigits);
        }
        long powerOfTen = written - fractionDigits;
        // Value < 10^magnitude: far outside the range only the ERANGE answer is needed, not the exact rational.
        long magnitude = digits.toString().length() + powerOfTen;
        if (magnitude > 4934 || magnitude < -4952) {
            return null;
        }
        return powerOfTen >= 0
                ? fromRational(negative, digits.multiply(BigInteger.TEN.pow((int) powerOfTen)), BigInteger.ONE, 0)
                : fromRational(negative, digits, BigInteger.TEN.pow((int) -powerOfTen), 0);
    }

    /** An optional sign and digits from {@code at[0]}, saturating far beyond any range; at[0] ends after them. */
    private static Long parseExponent(byte[] s, int[] at) {
        int i = at[0];
        boolean negative = i < s.length && s[i] == '-';
        if (i < s.length && (s[i] == '-' || s[i] == '+')) {
            i++;
        }
        int start = i;
        long value = 0;
        for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
            value = Math.min(value * 10 + (s[i] - '0'), 1_000_000_000L);
        }
        if (i == start) {
            return null;
        }
        at[0] = i;
        return negative ? -value : value;
    }

    private static boolean matchesIgnoringCase(byte[] s, int from, String word) {
        if (s.length - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (toLower(s[from + i]) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The sum rounded to nearest, ties to even, as the FPU adds; infinite on overflow. */
    public LongDouble plus(LongDouble other) {
        if (infinite || other.infinite) {
            return INFINITY;
        }
        int low = Math.min(exponent, other.exponent);
        BigInteger sum = significand.shiftLeft(exponent - low).add(other.significand.shiftLeft(other.exponent - low));
        if (sum.signum() == 0) {
            return ZERO;
        }
        LongDouble rounded = fromRational(sum.signum() < 0, sum.abs(), BigInteger.ONE, low);
        return rounded == null ? ZERO : rounded;
    }

    /**
     * Redis's {@code (long long)(value * 1000.0)} for a timeout in seconds, as x86-64 computes it:
     * the product rounded to a long double, then truncated toward zero; {@link Long#MIN_VALUE}
     * (the FPU's "integer indefinite") when it is infinite or outside a long's range.
     */
    public long millisTruncated() {
        if (infinite) {
            return Long.MIN_VALUE;
        }
        if (significand.signum() == 0) {
            return 0;
        }
        LongDouble product = fromRational(significand.signum() < 0,
                significand.abs().multiply(BigInteger.valueOf(1000)), BigInteger.ONE, exponent);
        if (product.infinite) {
            return Long.MIN_VALUE;
        }
        BigInteger magnitude = product.significand.abs();
        magnitude = product.exponent >= 0 ? magnitude.shiftLeft(product.exponent) : magnitude.shiftRight(-product.exponent);
        if (magnitude.bitLength() > 63) {
            return Long.MIN_VALUE;
        }
        return product.significand.signum() < 0 ? -magnitude.longValue() : magnitude.longValue();
    }

    /**
     * The long double nearest to {@code num / den * 2^binaryExponent} (positive), ties to even;
     * infinite on overflow, null if a non-zero value rounds to zero (strtold's ERANGE).
     */
    private static LongDouble fromRational(boolean negative, BigInteger num, BigInteger den, long binaryExponent) {
        long log2 = num.bitLength() - den.bitLength() + binaryExponent;
        if (log2 > MAX_EXPONENT + SIGNIFICAND_BITS + 1) {
            return INFINITY;
        }
        if (log2 < MIN_EXPONENT - 2) {
            return null;
        }
        int e = Math.max((int) log2 - SIGNIFICAND_BITS, MIN_EXPONENT);
        BigInteger[] q = divide(num, den, binaryExponent - e);
        if (q[0].bitLength() > SIGNIFICAND_BITS) {
            e++;
            q = divide(num, den, binaryExponent - e);
        }
        BigInteger significand = roundHalfEven(q[0], q[1], den, binaryExponent - e);
        if (significand.bitLength() > SIGNIFICAND_BITS) {
            significand = significand.shiftRight(1);
            e++;
        }
        if (e > MAX_EXPONENT) {
            return INFINITY;
        }
        if (significand.signum() == 0) {
            return null;
        }
        return new LongDouble(negative ? significand.negate() : significand, e, false);
    }

    /** Quotient and remainder of {@code num * 2^shift / den}, the shift applied to den when negative. */
    private static BigInteger[] divide(BigInteger num, BigInteger den, long shift) {
        return shift >= 0
                ? num.shiftLeft((int) shift).divideAndRemainder(den)
                : num.divideAndRemainder(den.shiftLeft((int) -shift));
    }

    private static BigInteger roundHalfEven(BigInteger quotient, BigInteger remainder, BigInteger den, long shift) {
        BigInteger divisor = shift >= 0 ? den : den.shiftLeft((int) -shift);
        int half = remainder.shiftLeft(1).compareTo(divisor);
        return half > 0 || (half == 0 && quotient.testBit(0)) ? quotient.add(BigInteger.ONE) : quotient;
    }

    /**
     * Redis's ld2string(LD_STR_HUMAN): {@code "%.17Lf"} (glibc rounds the exact value half to even),
     * trailing zeros and a bare point removed, and "-0" written as "0". Only for finite values.
     */
    public String toHumanString() {
        BigInteger magnitude = significand.abs();
        BigInteger[] q = divide(magnitude.multiply(PRINTED_SCALE), BigInteger.ONE, exponent);
        BigInteger scaled = roundHalfEven(q[0], q[1], BigInteger.ONE, exponent);
        if (scaled.signum() == 0) {
            return "0";
        }
        BigInteger[] parts = scaled.divideAndRemainder(PRINTED_SCALE);
        StringBuilder text = new StringBuilder();
        if (significand.signum() < 0) {
            text.append('-');
        }
        text.append(parts[0]);
        String fraction = parts[1].toString();
        int end = fraction.length();
        while (end > 0 && fraction.charAt(end - 1) == '0') {
            end--;
        }
        if (end > 0) {
            text.append('.').append("0".repeat(PRINTED_DECIMALS - fraction.length())).append(fraction, 0, end);
        }
        return text.toString();
    }

    /** ASCII lower case of a byte or char, as C's tolower in the C locale. */
    private static int toLower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }
}
