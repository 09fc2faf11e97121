package io.kvd.server.store;

/**
 * Unsigned LEB128 lengths, as the store's packed formats write them ({@link PackedEntry},
 * {@link Listpack}): seven bits a byte, low bits first, so lengths up to 127 take one byte.
 */
final class Varint {
    private Varint() {
    }

    /** Bytes {@code n} takes. */
    static int length(int n) {
        return n < 0x80 ? 1 : n < 1 << 14 ? 2 : n < 1 << 21 ? 3 : n < 1 << 28 ? 4 : 5;
    }

    /** Writes {@code n} at {@code at}; returns the index after it. */
    static int write(byte[] bytes, int at, int n) {
        for (; n >= 0x80; n >>>= 7) {
            bytes[at++] = (byte) (n | 0x80);
        }
        bytes[at] = (byte) n;
        return at + 1;
    }

    static int read(byte[] bytes, int at) {
        int n = 0;
        for (int shift = 0; ; at++, shift += 7) {
            int b = bytes[at];
            n |= (b & 0x7f) << shift;
            if (b >= 0) {
                return n;
            }
        }
    }
}
