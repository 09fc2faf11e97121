package io.kvd.server.rdb;

import io.kvd.server.store.Databases;
import io.kvd.server.store.KeyAccess;
import io.kvd.server.store.Keyspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Loads an RDB file of any version up to 10 into the databases (Redis's rdbLoadRio): aux fields
 * are read and logged, function libraries handed to the caller, keys already expired skipped (as
 * a master does), module aux data skipped as redis-check-rdb skips it. Anything else wrong (a
 * truncation, a bad checksum, a duplicated key, a database beyond {@code databases}) is an
 * {@link RdbFormatException}: the caller must not serve what was half loaded.
 */
public final class RdbLoader {
    private static final Logger log = LoggerFactory.getLogger(RdbLoader.class);
    private static final byte[] MAGIC = "REDIS".getBytes(StandardCharsets.US_ASCII);

    /** What a load found: keys stored, keys skipped as expired, the aux fields, the RDB's length in bytes. */
    public record Result(long keys, long expired, Map<String, String> aux, long bytes) {
    }

    /**
     * Where a load's keys go: stored at once ({@link Store}, a file's load), or handed to the
     * loop in batches (a {@link StreamedLoad}, parsed off the loop).
     */
    interface Keys {
        /** RESIZEDB's hint: about {@code keys} keys are coming for database {@code db}. */
        void reserve(int db, int keys);

        /** A key and its value; {@code frequency} and {@code idleSeconds} are -1 when the RDB gave none. */
        void store(int db, byte[] key, RdbValue value, long deadline, long frequency, long idleSeconds);

        /** A function library's code. */
        void library(byte[] code);
    }

    private final Databases databases;
    private final boolean merge;
    private final Consumer<byte[]> libraries;
    private final long nowMs;
    private int keyLoadDelayMicros;
    private long keysLoaded;

    /**
     * @param libraries loads one function library's code (FUNCTION LOAD's work); throws
     *                  {@link RdbFormatException} if the code does not load
     */
    public RdbLoader(Databases databases, Consumer<byte[]> libraries, long nowMs) {
        this(databases, false, libraries, nowMs);
    }

    /** @param merge a key already present is replaced (DEBUG RELOAD MERGE, Redis's RDBFLAGS_ALLOW_DUP) */
    public RdbLoader(Databases databases, boolean merge, Consumer<byte[]> libraries, long nowMs) {
        this.databases = databases;
        this.merge = merge;
        this.libraries = libraries;
        this.nowMs = nowMs;
    }

    /** key-load-delay, Redis's test knob: each key loaded waits this many µs (negative: 1 µs every that many keys). */
    public RdbLoader keyLoadDelay(int micros) {
        this.keyLoadDelayMicros = micros;
        return this;
    }

    public Result load(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return load(in, Files.size(file));
        }
    }

    Result load(InputStream stream, long size) {
        return load(new RdbInput(stream, size), new Store(databases, databases.access(), merge, libraries));
    }

    /** Parses the RDB {@code in} holds to its checksum, handing its keys to {@code target}. */
    Result load(RdbInput in, Keys target) {
        byte[] magic = in.readBytes(9);
        for (int i = 0; i < MAGIC.length; i++) {
            if (magic[i] != MAGIC[i]) {
                throw new RdbFormatException("Wrong signature trying to load DB from file");
            }
        }
        int version = 0;
        for (int i = 5; i < 9; i++) {
            if (magic[i] < '0' || magic[i] > '9') {
                throw new RdbFormatException("Wrong signature trying to load DB from file");
            }
            version = version * 10 + magic[i] - '0';
        }
        if (version < 1 || version > Rdb.VERSION) {
            throw new RdbFormatException("Can't handle RDB format version " + version);
        }
        Map<String, String> aux = new LinkedHashMap<>();
        int db = 0;
        long deadline = Keyspace.PERSISTENT;
        long frequency = -1;
        long idleSeconds = -1;
        long keys = 0;
        long expired = 0;
        while (true) {
            int type = in.readByte();
            switch (type) {
                case Rdb.OPCODE_EXPIRETIME -> deadline = in.readLittleEndian(4) * 1000;
                case Rdb.OPCODE_EXPIRETIME_MS -> deadline = in.readLittleEndian(8);
                case Rdb.OPCODE_FREQ -> frequency = in.readByte();
                case Rdb.OPCODE_IDLE -> idleSeconds = in.readLength();
                case Rdb.OPCODE_SELECTDB -> {
                    long selected = in.readLength();
                    if (selected >= databases.count()) {
                        throw new RdbFormatException("Data file was created with a Redis server configured to handle "
                                + "more than " + databases.count() + " databases");
                    }
                    db = (int) selected;
                }
                case Rdb.OPCODE_RESIZEDB -> {
                    long size0 = in.readLength();
                    in.readLength();
                    // A hint: sized only as far as the bytes left could hold that many keys.
                    target.reserve(db, (int) Math.min(size0, Math.min(in.remaining() / 4, Integer.MAX_VALUE / 2)));
                }
                case Rdb.OPCODE_AUX -> aux.put(text(in.readString()), text(in.readString()));
                case Rdb.OPCODE_MODULE_AUX -> skipModuleAux(in);
                case Rdb.OPCODE_FUNCTION_PRE_GA -> throw new RdbFormatException("Pre-release function format not supported");
                case Rdb.OPCODE_FUNCTION2 -> target.library(in.readString());
                case Rdb.OPCODE_EOF -> {
                    checksum(in, version);
                    log.info("RDB version {} loaded: {} keys, {} expired keys skipped; aux {}", version, keys, expired, aux);
                    return new Result(keys, expired, aux, in.position());
                }
                default -> {
                    if (!RdbValueReader.isValueType(type)) {
                        throw new RdbFormatException("Unknown RDB encoding type " + type + " at offset " + (in.position() - 1));
                    }
                    byte[] key = in.readString();
                    RdbValue value = RdbValueReader.read(type, in);
                    if (value == null) {
                        log.warn("RDB has an empty key, skipped: {}", text(key));
                    } else if (deadline != Keyspace.PERSISTENT && deadline < nowMs) {
                        expired++;
                    } else {
                        target.store(db, key, value, deadline, frequency, idleSeconds);
                        keys++;
                        delayAfterKey();
                    }
                    deadline = Keyspace.PERSISTENT;
                    frequency = -1;
                    idleSeconds = -1;
                }
            }
        }
    }

    /** The keys stored in the databases as they come; a duplicated key is an error unless merging. */
    static final class Store implements Keys {
        private final Databases databases;
        private final KeyAccess access;
        private final boolean merge;
        private final Consumer<byte[]> libraries;

        /** @param access stamps the keys as the server's eviction policy reads them */
        Store(Databases databases, KeyAccess access, boolean merge, Consumer<byte[]> libraries) {
            this.databases = databases;
            this.access = access;
            this.merge = merge;
            this.libraries = libraries;
        }

        @Override
        public void reserve(int db, int keys) {
            databases.get(db).reserve(keys);
        }

        @Override
        public void store(int db, byte[] key, RdbValue value, long deadline, long frequency, long idleSeconds) {
            Keyspace keyspace = databases.get(db);
            if (keyspace.exists(key) && !merge) {
                throw new RdbFormatException("RDB has duplicated key '" + text(key) + "' in DB " + db);
            }
            if (merge) {
                keyspace.remove(key);
            }
            StoredValues.store(keyspace, key, value, deadline);
            int stamp = access.restored(frequency, idleSeconds);
            if (stamp >= 0) {
                keyspace.setAccessStamp(key, stamp);
            }
        }

        @Override
        public void library(byte[] code) {
            libraries.accept(code);
        }
    }

    /** Redis's debugDelay, as rdbLoad calls it after each key. */
    private void delayAfterKey() {
        keysLoaded++;
        if (keyLoadDelayMicros > 0) {
            LockSupport.parkNanos(keyLoadDelayMicros * 1000L);
        } else if (keyLoadDelayMicros < 0 && keysLoaded % -(long) keyLoadDelayMicros == 0) {
            LockSupport.parkNanos(1000);
        }
    }

    /** RDB 5 on: the CRC-64 of everything before it; 0 means it was saved with rdbchecksum no. */
    private static void checksum(RdbInput in, int version) {
        if (version < 5) {
            return;
        }
        long expected = in.crc();
        long stored = in.readLittleEndian(8);
        if (stored == 0) {
            log.warn("RDB file was saved with checksum disabled: no check performed.");
        } else if (stored != expected) {
            throw new RdbFormatException(String.format("Wrong RDB checksum expected: (%x) got: (%x): RDB CRC error",
                    stored, expected));
        }
    }

    /** A module's aux data, skipped value by value as redis-check-rdb's rdbLoadCheckModuleValue does. */
    private static void skipModuleAux(RdbInput in) {
        in.readLength();
        if (in.readLength() != Rdb.MODULE_OPCODE_UINT) {
            throw new RdbFormatException("bad when_opcode in module aux data");
        }
        in.readLength();
        log.warn("The RDB file contains AUX module data kvd can't use (it has no modules); skipped");
        while (true) {
            long opcode = in.readLength();
            if (opcode == Rdb.MODULE_OPCODE_EOF) {
                return;
            }
            switch ((int) opcode) {
                case Rdb.MODULE_OPCODE_SINT, Rdb.MODULE_OPCODE_UINT -> in.readLength();
                case Rdb.MODULE_OPCODE_FLOAT -> in.readBytes(4);
                case Rdb.MODULE_OPCODE_DOUBLE -> in.readBytes(8);
                case Rdb.MODULE_OPCODE_STRING -> in.readString();
                default -> throw new RdbFormatException("unknown module data opcode " + opcode);
            }
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * RESTORE's payload (verifyDumpPayload, then rdbLoadObjectType and rdbLoadObject): the
     * value, or null when the footer's version or checksum is wrong; {@link RdbFormatException}
     * when the value does not parse ("Bad data format").
     */
    public static RdbValue readPayload(byte[] payload) {
        int end = payload.length - 10;
        if (end < 0) {
            return null;
        }
        int version = (payload[end] & 0xFF) | (payload[end + 1] & 0xFF) << 8;
        long crc = RedisListpack.readLe(payload, end + 2, 8);
        if (version > Rdb.VERSION || crc != Crc64.of(payload, end + 2)) {
            return null;
        }
        RdbInput in = new RdbInput(new java.io.ByteArrayInputStream(payload, 0, end), end);
        int type = in.readByte();
        if (!RdbValueReader.isValueType(type)) {
            throw new RdbFormatException("not a value type: " + type);
        }
        RdbValue value = RdbValueReader.read(type, in);
        if (value == null) {
            throw new RdbFormatException("empty collection");
        }
        return value;
    }
}
