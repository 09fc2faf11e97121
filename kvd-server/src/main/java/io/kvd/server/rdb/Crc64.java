package io.kvd.server.rdb;

/**
 * Redis's crc64 (crc64.c): the Jones polynomial 0xad93d23594c935a9, reflected in and out, initial
 * value 0, no final xor; {@code "123456789"} gives 0xe9c6d914c4b8d9ca. Written here because no
 * maintained Maven library offers this variant (the common CRC-64s are ECMA-182 and ISO).
 */
public final class Crc64 {
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x95AC9329AC4BC9B5L : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private Crc64() {
    }

    /** The CRC of {@code bytes[from, to)} continued from {@code crc} (0 to start). */
    public static long update(long crc, byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            crc = TABLE[(int) ((crc ^ bytes[i]) & 0xFF)] ^ (crc >>> 8);
        }
        return crc;
    }

    public static long of(byte[] bytes, int length) {
        return update(0, bytes, 0, length);
    }
}
