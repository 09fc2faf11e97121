package io.kvd.server.propagate;

import io.kvd.server.protocol.Args;

import java.nio.charset.StandardCharsets;

/**
 * The canonical AOF records write commands log instead of their arguments: the effect, with
 * absolute time only (Redis 7 logs SET ... EX as SET ... PXAT and EXPIRE as PEXPIREAT too).
 */
public final class LogRecords {
    private static final byte[] SET = Args.bytes("SET");
    private static final byte[] PXAT = Args.bytes("PXAT");
    private static final byte[] KEEPTTL = Args.bytes("KEEPTTL");
    private static final byte[] PEXPIREAT = Args.bytes("PEXPIREAT");
    private static final byte[] PERSIST = Args.bytes("PERSIST");
    private static final byte[] DEL = Args.bytes("DEL");
    private static final byte[] MSET = Args.bytes("MSET");
    private static final byte[] HSET = Args.bytes("HSET");

    private LogRecords() {
    }

    /** SET key value, or SET key value PXAT deadline when it has one. */
    public static byte[][] set(byte[] key, byte[] value, long deadline) {
        return deadline < 0 ? new byte[][]{SET, key, value} : new byte[][]{SET, key, value, PXAT, decimal(deadline)};
    }

    public static byte[][] setKeepingTtl(byte[] key, byte[] value) {
        return new byte[][]{SET, key, value, KEEPTTL};
    }

    public static byte[][] pexpireat(byte[] key, long deadline) {
        return new byte[][]{PEXPIREAT, key, decimal(deadline)};
    }

    public static byte[][] persist(byte[] key) {
        return new byte[][]{PERSIST, key};
    }

    public static byte[][] del(byte[] key) {
        return new byte[][]{DEL, key};
    }

    /** The same key-value pairs under MSET (for MSETNX, whose condition held). */
    public static byte[][] mset(byte[][] argv) {
        byte[][] record = argv.clone();
        record[0] = MSET;
        return record;
    }

    /** HSET key field value (HINCRBYFLOAT's result). */
    public static byte[][] hset(byte[] key, byte[] field, byte[] value) {
        return new byte[][]{HSET, key, field, value};
    }

    private static byte[] decimal(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }
}
