package io.kvd.server.rdb;

import io.kvd.server.store.EncodingLimits;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes an RDB file's parts in Redis 7.0's order (rdbSaveRio): the magic and version, the aux
 * fields, the function libraries, then per database SELECTDB and RESIZEDB before its keys (each
 * with its expiry in ms), then EOF and the CRC-64 of everything before it. The bytes go to a
 * buffer the caller drains ({@link #buffer}); the CRC is kept by the caller over what it drained
 * ({@link Crc64}), since the buffer is handed off in chunks.
 */
public final class RdbWriter {
    /** Redis's REDIS_VERSION as the redis-ver aux field: the version kvd answers as. */
    static final String REDIS_VERSION = "7.0.15";

    private final RdbValueWriter values;
    private RdbOutput out;
    private final boolean compression;
    private int selectedDb = -1;
    /** One value's type and bytes, before they follow the key. */
    private final ByteBuf scratch = Unpooled.buffer();

    public RdbWriter(ByteBuf buffer, EncodingLimits limits, boolean compression) {
        this.values = new RdbValueWriter(limits);
        this.compression = compression;
        this.out = new RdbOutput(buffer, compression);
    }

    public ByteBuf buffer() {
        return out.buffer();
    }

    /** Goes on writing into {@code buffer} (the previous one was handed off). */
    public void useBuffer(ByteBuf buffer) {
        out = new RdbOutput(buffer, compression);
    }

    /**
     * The magic, rdbSaveInfoAuxFields' fields (the replication ones when {@code replication} is
     * given, as Redis writes them with a backlog or a primary) and each library's code
     * (rdbSaveFunctions).
     */
    public void header(long nowMs, long usedMemory, boolean aofBase, RdbSave.ReplicationInfo replication,
                       List<byte[]> libraries) {
        out.buffer().writeBytes(String.format("REDIS%04d", Rdb.VERSION).getBytes(StandardCharsets.US_ASCII));
        aux("redis-ver", REDIS_VERSION);
        aux("redis-bits", "64");
        aux("ctime", Long.toString(nowMs / 1000));
        aux("used-mem", Long.toString(usedMemory));
        if (replication != null) {
            aux("repl-stream-db", Integer.toString(replication.streamDb()));
            aux("repl-id", replication.replid());
            aux("repl-offset", Long.toString(replication.offset()));
        }
        aux("aof-base", aofBase ? "1" : "0");
        for (byte[] code : libraries) {
            out.type(Rdb.OPCODE_FUNCTION2);
            out.string(code);
        }
    }

    private void aux(String name, String value) {
        out.type(Rdb.OPCODE_AUX);
        out.string(name.getBytes(StandardCharsets.US_ASCII));
        out.string(value.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * A key of database {@code db}: SELECTDB first when the last key was of another one, with
     * RESIZEDB's hints the first time ({@code keys} and {@code keysWithExpiry}, as at the start).
     */
    public void keyValue(int db, long keys, long keysWithExpiry, boolean firstOfDb, byte[] key, RdbValue value,
                         long deadline) {
        if (db != selectedDb) {
            out.type(Rdb.OPCODE_SELECTDB);
            out.length(db);
            if (firstOfDb) {
                out.type(Rdb.OPCODE_RESIZEDB);
                out.length(keys);
                out.length(keysWithExpiry);
            }
            selectedDb = db;
        }
        if (deadline != Keyspace.PERSISTENT) {
            out.type(Rdb.OPCODE_EXPIRETIME_MS);
            out.millis(deadline);
        }
        // The type byte comes before the key, and only the value's serializer knows it.
        scratch.clear();
        values.write(new RdbOutput(scratch, compression), value);
        out.type(scratch.readUnsignedByte());
        out.string(key);
        out.buffer().writeBytes(scratch);
    }

    /** EOF; the caller appends the checksum (or 8 zero bytes with rdbchecksum off) after draining. */
    public void end() {
        out.type(Rdb.OPCODE_EOF);
    }

    /** A DUMP payload (createDumpPayload): the value with its type, the RDB version, the CRC-64 of both. */
    public static byte[] dumpPayload(RdbValue value, EncodingLimits limits, boolean compression) {
        ByteBuf buffer = Unpooled.buffer();
        try {
            new RdbValueWriter(limits).write(new RdbOutput(buffer, compression), value);
            buffer.writeShortLE(Rdb.VERSION);
            byte[] body = new byte[buffer.readableBytes() + 8];
            buffer.readBytes(body, 0, body.length - 8);
            long crc = Crc64.of(body, body.length - 8);
            RedisListpack.putLe(body, body.length - 8, crc, 8);
            return body;
        } finally {
            buffer.release();
        }
    }
}
