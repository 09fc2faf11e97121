package io.kvd.server.store;

import java.util.Arrays;

/**
 * One entry's key and value packed into a single byte[]: the key's length as a varint (one byte
 * up to 127), the key, then the value. One allocation per key instead of an entry object plus two
 * arrays; reads hand out copies, so the packed array never escapes and a value of the same length
 * can be overwritten in place.
 */
final class PackedEntry {
    private PackedEntry() {
    }

    static byte[] pack(byte[] key, byte[] value) {
        int header = varintLength(key.length);
        byte[] packed = new byte[header + key.length + value.length];
        int at = 0;
        for (int n = key.length; ; n >>>= 7) {
            if (n < 0x80) {
                packed[at] = (byte) n;
                break;
            }
            packed[at++] = (byte) (n | 0x80);
        }
        System.arraycopy(key, 0, packed, header, key.length);
        System.arraycopy(value, 0, packed, header + key.length, value.length);
        return packed;
    }

    static int keyLength(byte[] packed) {
        int n = 0;
        for (int at = 0, shift = 0; ; at++, shift += 7) {
            int b = packed[at];
            n |= (b & 0x7f) << shift;
            if (b >= 0) {
                return n;
            }
        }
    }

    private static int varintLength(int n) {
        return n < 0x80 ? 1 : n < 1 << 14 ? 2 : n < 1 << 21 ? 3 : n < 1 << 28 ? 4 : 5;
    }

    private static int keyStart(int keyLength) {
        return varintLength(keyLength);
    }

    static boolean hasKey(byte[] packed, byte[] key) {
        int keyLength = keyLength(packed);
        int start = keyStart(keyLength);
        return keyLength == key.length && Arrays.equals(packed, start, start + keyLength, key, 0, keyLength);
    }

    static byte[] key(byte[] packed) {
        int keyLength = keyLength(packed);
        int start = keyStart(keyLength);
        return Arrays.copyOfRange(packed, start, start + keyLength);
    }

    static byte[] value(byte[] packed) {
        return Arrays.copyOfRange(packed, valueStart(packed), packed.length);
    }

    /** Overwrites the value if the new one has the same length; false if it must be repacked. */
    static boolean replaceValue(byte[] packed, byte[] value) {
        int start = valueStart(packed);
        if (packed.length - start != value.length) {
            return false;
        }
        System.arraycopy(value, 0, packed, start, value.length);
        return true;
    }

    private static int valueStart(byte[] packed) {
        int keyLength = keyLength(packed);
        return keyStart(keyLength) + keyLength;
    }

    static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    static int hashOfKey(byte[] packed) {
        int keyLength = keyLength(packed);
        int start = keyStart(keyLength);
        return hash(packed, start, start + keyLength);
    }

    /** Polynomial hash finished with MurmurHash3's fmix32, so the low bits that pick a bucket mix every byte. */
    private static int hash(byte[] bytes, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + bytes[i];
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }
}
