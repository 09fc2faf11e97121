package io.kvd.server.store;

/**
 * OBJECT ENCODING's name for a string, from its bytes as Redis's tryObjectEncoding would choose
 * on SET: {@code int} for a canonical 64-bit integer, {@code embstr} up to 44 bytes, {@code raw}
 * beyond. Redis also answers raw for a short string grown in place by APPEND or SETRANGE; kvd
 * keeps no such history, so it answers by the bytes alone.
 */
final class StringEncoding {
    /** Redis's OBJ_ENCODING_EMBSTR_SIZE_LIMIT. */
    private static final int EMBSTR_LIMIT = 44;

    private StringEncoding() {
    }

    static String of(byte[] value) {
        if (isCanonicalLong(value)) {
            return "int";
        }
        return value.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    /** Redis's string2l: digits with an optional minus, no leading zero, no "-0", within a long. */
    static boolean isCanonicalLong(byte[] value) {
        int length = value.length;
        if (length == 0 || length > 20) {
            return false;
        }
        if (length == 1 && value[0] == '0') {
            return true;
        }
        int i = value[0] == '-' ? 1 : 0;
        if (i == length || value[i] < '1' || value[i] > '9') {
            return false;
        }
        long magnitude = 0;
        for (; i < length; i++) {
            int digit = value[i] - '0';
            if (digit < 0 || digit > 9) {
                return false;
            }
            // Accumulated as a negative number so that Long.MIN_VALUE fits.
            if (magnitude < (Long.MIN_VALUE + digit) / 10) {
                return false;
            }
            magnitude = magnitude * 10 - digit;
        }
        return value[0] == '-' || magnitude != Long.MIN_VALUE;
    }
}
