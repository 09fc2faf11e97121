package io.kvd.server.numeric;

/** Integers read from text as Redis (util.c) and C read them. */
public final class IntegerText {
    private IntegerText() {
    }

    /**
     * Redis's string2ll: optional '-', then digits with no leading zero (except "0" itself), no
     * spaces, no '+', at most 20 characters, within the range of a long. Null if not such a number.
     */
    public static Long string2ll(byte[] s) {
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
     * the cast keeps the low 32 bits.
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
            // Accumulated negatively, as in string2ll: saturates at Long.MIN_VALUE.
            value = value < (Long.MIN_VALUE + d) / 10 ? Long.MIN_VALUE : value * 10 - d;
        }
        long result = negative ? value : (value == Long.MIN_VALUE ? Long.MAX_VALUE : -value);
        return (int) result;
    }
}
