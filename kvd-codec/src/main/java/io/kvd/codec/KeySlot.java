package io.kvd.codec;

/**
 * Redis Cluster's key → slot function: CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the
 * key, or of its hash tag, modulo 16384. The hash tag is the part between the first {@code '{'}
 * and the first {@code '}'} after it, when that part is not empty (Redis's {@code keyHashSlot}).
 * Here rather than in the server because clients (kvbench) route keys by the same function.
 */
public final class KeySlot {
    public static final int SLOTS = 16384;

    private static final int[] CRC16_TABLE = crc16Table();

    private KeySlot() {
    }

    public static int of(byte[] key) {
        int open = indexOf(key, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(key, (byte) '}', open + 1);
            if (close > open + 1) {
                return crc16(key, open + 1, close) & (SLOTS - 1);
            }
        }
        return crc16(key, 0, key.length) & (SLOTS - 1);
    }

    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ CRC16_TABLE[((crc >>> 8) ^ bytes[i]) & 0xff]) & 0xffff;
        }
        return crc;
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int[] crc16Table() {
        int[] table = new int[256];
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            table[i] = crc & 0xffff;
        }
        return table;
    }
}
