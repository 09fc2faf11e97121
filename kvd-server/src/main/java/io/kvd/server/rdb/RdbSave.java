package io.kvd.server.rdb;

import io.kvd.server.store.Databases;
import io.kvd.server.store.DatabasesSnapshot;
import io.kvd.server.store.EncodingLimits;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.KeyspaceSnapshot;
import io.kvd.server.store.StreamGroup;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.ValueType;
import io.kvd.server.store.ZSetValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One RDB save of the databases as they were when it started, to a temporary file renamed over
 * the target once complete and forced (Redis's rdbSave: "temp-&lt;pid&gt;.rdb", fsync, rename),
 * or, for a diskless full sync, to another {@link Destination}: the replicas' sockets.
 *
 * <p>The point-in-time copy is the AOF rewrite's {@link DatabasesSnapshot}: no fork, the loop
 * never stops. In the background (BGSAVE) it is stepped about {@link #STEP_NANOS} at a time, each
 * step a task of the loop so clients are served between them, and its bytes go in chunks to a
 * writer thread, which also keeps their CRC-64; the walk pauses while more than
 * {@link #MAX_IN_FLIGHT_BYTES} wait, or while the destination says it is behind (a slow replica). In the foreground (SAVE) the same walk runs to the end at
 * once. A collection's members arrive in batches, possibly interleaved with other keys, and RDB
 * needs their count first, so each is gathered until its last batch: the extra memory is the
 * largest collection in progress, not the dataset.
 */
public final class RdbSave {
    private static final Logger log = LoggerFactory.getLogger(RdbSave.class);
    private static final long STEP_NANOS = 1_000_000;
    private static final int IDS_PER_CLOCK_READ = 16;
    private static final int MEMBERS_PER_BATCH = 1024;
    private static final int CHUNK_BYTES = 256 * 1024;
    private static final int HAND_OFF_BYTES = CHUNK_BYTES - 32 * 1024;
    private static final long MAX_IN_FLIGHT_BYTES = 16L * 1024 * 1024;
    private static final long WAIT_MICROS = 500;

    /**
     * What a save is told at its start.
     *
     * @param aofBase an AOF rewrite's base: aux aof-base 1, written to {@code target} itself, which is a temporary file already
     * @param keySaveDelayMicros rdb-key-save-delay: a BGSAVE writes at most one key per this many microseconds
     */
    public record Options(Path target, boolean aofBase, EncodingLimits limits, boolean compression, boolean checksum, long usedMemory,
                          List<byte[]> libraries, long keySaveDelayMicros, ReplicationInfo replication) {
    }

    /**
     * Where the snapshot stands in the replication stream (Redis's rdbSaveInfo): the database the
     * stream has selected, the history's id and the offset, so a restarted replica can continue
     * with PSYNC.
     */
    public record ReplicationInfo(int streamDb, String replid, long offset) {
    }

    /**
     * Where a background save's bytes go. {@link #write} and {@link #finish} run on the save's
     * writer thread, in order; {@link #behind} on the loop.
     */
    public interface Destination {
        /** The next chunk of the RDB; the destination releases it. */
        void write(ByteBuf chunk) throws IOException;

        /**
         * After the last chunk: the footer holding {@code crc} (0 with rdbchecksum off), and
         * whatever completes the destination; {@code keys} were saved.
         */
        void finish(long crc, long keys) throws IOException;

        /** The save failed or was aborted: nothing written is to be used. */
        void discard();

        /** Whether the walk should wait for the destination to take what it was given. */
        boolean behind();
    }

    private final Options options;
    private final Destination destination;
    private final DatabasesSnapshot snapshot;
    private final RdbWriter writer;
    private final long[] keysAtStart;
    private final long[] expiresAtStart;
    private final boolean[] selected;
    private final Map<PendingKey, Pending> pending = new HashMap<>();
    private final AtomicLong inFlight = new AtomicLong();
    private long crc;
    private volatile IOException writeFailure;
    private ExecutorService thread;
    private ScheduledExecutorService loop;
    private Consumer<Boolean> onEnd;
    private boolean ended;
    private long keys;
    private final long startNanos = System.nanoTime();

    private RdbSave(Options options, Databases databases, Destination destination) {
        this.options = options;
        this.destination = destination;
        int count = databases.count();
        keysAtStart = new long[count];
        expiresAtStart = new long[count];
        selected = new boolean[count];
        for (int db = 0; db < count; db++) {
            keysAtStart[db] = databases.get(db).size();
            expiresAtStart[db] = databases.get(db).sizeWithDeadline();
        }
        writer = new RdbWriter(Unpooled.buffer(CHUNK_BYTES), options.limits(), options.compression());
        writer.header(System.currentTimeMillis(), options.usedMemory(), options.aofBase(), options.replication(),
                options.libraries());
        snapshot = databases.startSnapshot(MEMBERS_PER_BATCH, new Sink());
    }

    /** Redis's temp-&lt;pid&gt;.rdb, beside the target so the rename stays on one file system. */
    static Path tempFile(Options options) {
        if (options.aofBase()) {
            // Not temp-<pid>.rdb: a SAVE may run beside the rewrite and would write over it.
            return options.target();
        }
        Path dir = options.target().toAbsolutePath().getParent();
        return dir.resolve("temp-" + ProcessHandle.current().pid() + ".rdb");
    }

    /**
     * SAVE: every key written now, on the calling (event loop) thread, which serves nothing
     * meanwhile; so it needs no snapshot and runs beside an AOF rewrite's. Each database's keys
     * are listed first: reading a value may step the table's rehash, which a walk must not see.
     */
    public static void foreground(Options options, Databases databases) throws IOException {
        long startNanos = System.nanoTime();
        Path temp = tempFile(options);
        // Opened before the try: a file that could not be created is not ours to delete.
        FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try (FileChannel out = channel) {
            RdbWriter writer = new RdbWriter(Unpooled.buffer(CHUNK_BYTES), options.limits(), options.compression());
            writer.header(System.currentTimeMillis(), options.usedMemory(), options.aofBase(), options.replication(),
                options.libraries());
            long crc = 0;
            long keys = 0;
            for (int db = 0; db < databases.count(); db++) {
                Keyspace keyspace = databases.get(db);
                List<byte[]> names = new ArrayList<>(keyspace.size());
                keyspace.forEachKey(key -> names.add(key.clone()));
                long size = keyspace.size();
                long withDeadline = keyspace.sizeWithDeadline();
                boolean first = true;
                for (byte[] key : names) {
                    long deadline = keyspace.deadline(key);
                    if (deadline == Keyspace.MISSING) {
                        continue;
                    }
                    writer.keyValue(db, size, withDeadline, first, key, StoredValues.read(keyspace, key), deadline);
                    first = false;
                    keys++;
                    if (writer.buffer().readableBytes() >= HAND_OFF_BYTES) {
                        crc = write(out, writer.buffer(), crc);
                        writer.buffer().clear();
                    }
                }
            }
            writer.end();
            crc = write(out, writer.buffer(), crc);
            finish(out, temp, options, options.checksum() ? crc : 0, keys, startNanos);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /** BGSAVE: starts stepping on {@code loop}; {@code onEnd} runs on the loop with whether the file was replaced. */
    public static RdbSave background(Options options, Databases databases, ScheduledExecutorService loop,
                                     Consumer<Boolean> onEnd) throws IOException {
        return background(options, databases, loop, new FileDestination(options), onEnd);
    }

    /**
     * A background save to {@code destination} ({@code options.target} unused); {@code onEnd}
     * runs on the loop with whether every byte and the footer were handed to it.
     */
    public static RdbSave background(Options options, Databases databases, ScheduledExecutorService loop,
                                     Destination destination, Consumer<Boolean> onEnd) {
        RdbSave save = new RdbSave(options, databases, destination);
        save.loop = loop;
        save.onEnd = onEnd;
        save.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kvd-bgsave");
            t.setDaemon(true);
            return t;
        });
        loop.schedule(save::step, 0, TimeUnit.MICROSECONDS);
        return save;
    }

    /** Shutdown or a SAVE replacing it: stops, the temporary file deleted. */
    public void abort() {
        fail("Background saving aborted", null);
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void step() {
        if (ended) {
            return;
        }
        if (writeFailure != null) {
            fail("Background saving error", writeFailure);
            return;
        }
        long deadline = System.nanoTime() + STEP_NANOS;
        // Paced key by key under rdb-key-save-delay, so even a few keys take their delay.
        int ids = options.keySaveDelayMicros() > 0 ? 1 : IDS_PER_CLOCK_READ;
        while (inFlight.get() < MAX_IN_FLIGHT_BYTES && !destination.behind() && !delayed() && !snapshot.done()
                && !snapshot.step(ids)) {
            if (writer.buffer().readableBytes() >= HAND_OFF_BYTES) {
                handOff();
            }
            if (System.nanoTime() >= deadline) {
                // Scheduled, not executed: a task the loop runs now would run before the I/O
                // that is waiting (Netty runs queued tasks for up to a second), as the AOF
                // rewrite's steps are.
                loop.schedule(this::step, 0, TimeUnit.MICROSECONDS);
                return;
            }
        }
        // rdb-key-save-delay also holds the end: Redis's child sleeps after its last key too.
        if (!snapshot.done() || delayed()) {
            loop.schedule(this::step, WAIT_MICROS, TimeUnit.MICROSECONDS);
            return;
        }
        snapshot.stop();
        writer.end();
        handOff();
        thread.execute(this::finishOnThread);
    }

    /**
     * rdb-key-save-delay: ahead of one key per delay since the start, the walk waits. Redis's
     * child sleeps after each key; here the loop must not, so the walk is paced instead.
     */
    private boolean delayed() {
        long delay = options.keySaveDelayMicros();
        return delay > 0 && keys * delay > (System.nanoTime() - startNanos) / 1000;
    }

    /** On the writer thread, after every chunk: the checksum and the destination's end; then back to the loop. */
    private void finishOnThread() {
        boolean ok;
        try {
            if (writeFailure != null) {
                throw writeFailure;
            }
            destination.finish(options.checksum() ? crc : 0, keys);
            ok = true;
        } catch (IOException e) {
            writeFailure = e;
            ok = false;
        }
        boolean replaced = ok;
        loop.execute(() -> {
            if (ended) {
                return;
            }
            if (!replaced) {
                fail("Background saving error", writeFailure);
                return;
            }
            ended = true;
            thread.shutdown();
            onEnd.accept(true);
        });
    }

    private void handOff() {
        ByteBuf chunk = writer.buffer();
        if (chunk.readableBytes() == 0) {
            return;
        }
        writer.useBuffer(Unpooled.buffer(CHUNK_BYTES));
        int bytes = chunk.readableBytes();
        inFlight.addAndGet(bytes);
        thread.execute(() -> {
            try {
                if (writeFailure == null) {
                    crc = crc(crc, chunk);
                    destination.write(chunk);
                } else {
                    chunk.release();
                }
            } catch (IOException e) {
                writeFailure = e;
            } finally {
                inFlight.addAndGet(-bytes);
            }
        });
    }

    /** The CRC-64 continued over {@code chunk}'s readable bytes. */
    private static long crc(long crc, ByteBuf chunk) {
        return Crc64.update(crc, chunk.array(), chunk.arrayOffset() + chunk.readerIndex(),
                chunk.arrayOffset() + chunk.writerIndex());
    }

    /** Writes the chunk; returns the CRC-64 continued over it. */
    private static long write(FileChannel out, ByteBuf chunk, long crc) throws IOException {
        long updated = crc(crc, chunk);
        ByteBuffer buffer = chunk.nioBuffer();
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        return updated;
    }

    /** The CRC (0 with rdbchecksum off, as given), force, rename over the target, force the directory. */
    private static void finish(FileChannel out, Path temp, Options options, long crc, long keys, long startNanos)
            throws IOException {
        ByteBuffer footer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        footer.putLong(crc).flip();
        while (footer.hasRemaining()) {
            out.write(footer);
        }
        out.force(true);
        long size = out.size();
        out.close();
        if (options.aofBase()) {
            // The AOF rewrite renames it into the AOF directory and forces that.
            return;
        }
        Files.move(temp, options.target(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(options.target().toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
        log.info("DB saved on disk: {} keys, {} bytes in {} ms", keys, size, (System.nanoTime() - startNanos) / 1_000_000);
    }

    private void fail(String what, IOException cause) {
        if (ended) {
            return;
        }
        ended = true;
        snapshot.stop();
        if (cause != null) {
            log.warn("{}: {}", what, cause.toString());
        } else {
            log.warn(what);
        }
        writeFailure = cause != null ? cause : new IOException("aborted");
        thread.execute(destination::discard);
        thread.shutdown();
        onEnd.accept(false);
    }

    /** A BGSAVE's destination: the temporary file, forced and renamed over the target at the end. */
    private static final class FileDestination implements Destination {
        private final Options options;
        private final Path temp;
        private final FileChannel out;
        private final long startNanos = System.nanoTime();

        FileDestination(Options options) throws IOException {
            this.options = options;
            this.temp = tempFile(options);
            this.out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        }

        @Override
        public void write(ByteBuf chunk) throws IOException {
            ByteBuffer buffer = chunk.nioBuffer();
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }

        @Override
        public void finish(long crc, long keys) throws IOException {
            RdbSave.finish(out, temp, options, crc, keys, startNanos);
        }

        @Override
        public void discard() {
            try {
                out.close();
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                log.warn("Could not delete the temporary RDB file {}: {}", temp, e.toString());
            }
        }

        @Override
        public boolean behind() {
            return false;
        }
    }

    private void entry(int db, byte[] key, RdbValue value, long deadline) {
        boolean first = !selected[db];
        selected[db] = true;
        writer.keyValue(db, keysAtStart[db], expiresAtStart[db], first, key, value, deadline);
        keys++;
    }

    /** A collection or stream whose members are still arriving. */
    private record PendingKey(int db, byte[] key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof PendingKey other && other.db == db && Arrays.equals(other.key, key);
        }

        @Override
        public int hashCode() {
            return 31 * db + Arrays.hashCode(key);
        }
    }

    private static final class Pending {
        final ValueType type;
        final List<byte[]> elements = new ArrayList<>();
        final List<RdbValue.Entry> entries = new ArrayList<>();
        double[] scores = new double[0];

        Pending(ValueType type) {
            this.type = type;
        }
    }

    private final class Sink implements KeyspaceSnapshot.Sink {
        @Override
        public void string(int db, byte[] key, byte[] value, long deadline) {
            entry(db, key, new RdbValue.Str(value), deadline);
        }

        @Override
        public void members(int db, byte[] key, ValueType type, byte[][] elements, int length) {
            Pending p = pending.computeIfAbsent(new PendingKey(db, key), k -> new Pending(type));
            if (type == ValueType.ZSET) {
                int at = p.elements.size();
                if (p.scores.length < at + length / 2) {
                    p.scores = Arrays.copyOf(p.scores, Math.max(at + length / 2, 2 * p.scores.length));
                }
                for (int i = 0; i < length; i += 2) {
                    p.elements.add(elements[i]);
                    p.scores[at++] = ZSetValue.decodeScore(elements[i + 1]);
                }
            } else {
                p.elements.addAll(Arrays.asList(elements).subList(0, length));
            }
        }

        @Override
        public void membersEnd(int db, byte[] key, long deadline) {
            Pending p = pending.remove(new PendingKey(db, key));
            if (p == null) {
                return;
            }
            RdbValue value = switch (p.type) {
                case LIST -> new RdbValue.ListOf(p.elements);
                case SET -> new RdbValue.SetOf(p.elements);
                case HASH -> new RdbValue.HashOf(p.elements);
                default -> new RdbValue.ZSetOf(p.elements, Arrays.copyOf(p.scores, p.elements.size()));
            };
            entry(db, key, value, deadline);
        }

        @Override
        public void streamEntry(int db, byte[] key, StreamId id, byte[][] fieldsAndValues) {
            pending.computeIfAbsent(new PendingKey(db, key), k -> new Pending(ValueType.STREAM)).entries
                    .add(new RdbValue.Entry(id, fieldsAndValues));
        }

        @Override
        public void streamEnd(int db, byte[] key, long length, StreamId lastId, long entriesAdded, StreamId maxDeletedId,
                              Collection<StreamGroup> groups, long deadline) {
            Pending p = pending.remove(new PendingKey(db, key));
            List<RdbValue.Entry> entries = p == null ? List.of() : p.entries;
            StreamId firstId = entries.isEmpty() ? StreamId.MIN : entries.get(0).id();
            entry(db, key, new RdbValue.StreamOf(entries, lastId, firstId, maxDeletedId, entriesAdded,
                    StoredValues.groups(groups)), deadline);
        }
    }
}
