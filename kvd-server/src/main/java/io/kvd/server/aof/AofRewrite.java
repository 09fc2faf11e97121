package io.kvd.server.aof;

import io.kvd.codec.RespWriter;
import io.kvd.server.store.Databases;
import io.kvd.server.store.DatabasesSnapshot;
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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One AOF base written as commands without fork (a rewrite with aof-use-rdb-preamble no): the
 * keyspace as it was when the rewrite started, as {@code SET key value [PXAT ms]} records and a
 * collection's HSET or SADD records of up to 64 members, to a temporary file, forced once
 * complete. Writes made meanwhile go to the incr file the rewrite opened ({@link AofPersistence}),
 * so nothing of them belongs here.
 *
 * <p>The point-in-time copy is a {@link KeyspaceSnapshot}, advanced in steps of about
 * {@link #STEP_NANOS} on the event loop, each rescheduled through the loop's task queue so client
 * I/O runs between them. The records go in chunks to a writer thread that does the file I/O; the
 * traversal pauses while more than {@link #MAX_IN_FLIGHT_BYTES} wait for it. Any failure deletes
 * the temporary file.
 */
final class AofRewrite {
    private static final Logger log = LoggerFactory.getLogger(AofRewrite.class);
    /** Loop time per step: a command waits at most about this long behind the rewrite. */
    private static final long STEP_NANOS = 1_000_000;
    /**
     * Ids the snapshot looks at between two reads of the clock: few, because the first steps run
     * before the JIT compiled the serialization, at several microseconds an entry (256 made a
     * 10 ms step), and a clock read costs about 25 ns.
     */
    private static final int IDS_PER_CLOCK_READ = 16;
    private static final int CHUNK_BYTES = 256 * 1024;
    /**
     * A snapshot chunk goes to the writer once this full, with room left for the entries of one
     * more clock read: chunks used to be written past their capacity first, and each fresh one
     * grew on the loop into a 512 KB array (humongous to G1: a new region, faulted in) plus a copy.
     */
    private static final int HAND_OFF_BYTES = CHUNK_BYTES - 32 * 1024;
    private static final long MAX_IN_FLIGHT_BYTES = 16L * 1024 * 1024;
    private static final long WAIT_MICROS = 500;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final byte[] SET = {'S', 'E', 'T'};
    private static final byte[] PXAT = {'P', 'X', 'A', 'T'};
    private static final byte[] SELECT = {'S', 'E', 'L', 'E', 'C', 'T'};
    private static final byte[] HSET = {'H', 'S', 'E', 'T'};
    private static final byte[] SADD = {'S', 'A', 'D', 'D'};
    private static final byte[] RPUSH = {'R', 'P', 'U', 'S', 'H'};
    private static final byte[] ZADD = {'Z', 'A', 'D', 'D'};
    private static final byte[] FUNCTION = {'F', 'U', 'N', 'C', 'T', 'I', 'O', 'N'};
    private static final byte[] LOAD = {'L', 'O', 'A', 'D'};
    private static final byte[] PEXPIREAT = {'P', 'E', 'X', 'P', 'I', 'R', 'E', 'A', 'T'};
    private static final byte[] XADD = {'X', 'A', 'D', 'D'};
    private static final byte[] XSETID = {'X', 'S', 'E', 'T', 'I', 'D'};
    private static final byte[] MAXLEN = {'M', 'A', 'X', 'L', 'E', 'N'};
    private static final byte[] ZERO = {'0'};
    private static final byte[] EMPTY_STREAM_ID = {'0', '-', '1'};
    private static final byte[] EMPTY_STREAM_FIELD = {'x'};
    private static final byte[] EMPTY_STREAM_VALUE = {'y'};
    private static final byte[] ENTRIESADDED = "ENTRIESADDED".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAXDELETEDID = "MAXDELETEDID".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] XGROUP = "XGROUP".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CREATE = "CREATE".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CREATECONSUMER = "CREATECONSUMER".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENTRIESREAD = "ENTRIESREAD".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] XCLAIM = "XCLAIM".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TIME = "TIME".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RETRYCOUNT = "RETRYCOUNT".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JUSTID = "JUSTID".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FORCE = "FORCE".getBytes(StandardCharsets.US_ASCII);
    /** Redis's AOF_REWRITE_ITEMS_PER_CMD: a collection is written as commands of at most this many items. */
    static final int ITEMS_PER_COMMAND = 64;

    private final Path temp;
    private final FileChannel out;
    private final ScheduledExecutorService loop;
    private final Consumer<Boolean> onEnd;
    private final ExecutorService writer;
    private final AtomicLong inFlight = new AtomicLong();
    /**
     * Buffers the writer has written, emptied, for the loop to fill again. A fresh 256 KB buffer
     * per hand-off cost the loop 1-2 ms: zeroing it touched fresh memory, 13-19 us per 4 KB page
     * on this VM (store/Regions explains), which tripled the snapshot's 1 ms steps.
     */
    private final Queue<ByteBuf> emptied = new ConcurrentLinkedQueue<>();
    /** Set by the writer thread when a write failed; every later write is skipped. */
    private volatile IOException writeFailure;
    private final DatabasesSnapshot snapshot;
    /** The database the snapshot's last record was for; entries of another one are preceded by a SELECT. */
    private int selectedDb = -1;
    private ByteBuf chunk = Unpooled.buffer(CHUNK_BYTES);
    private long entries;
    /** The snapshot is walked and stopped: what is left is the writer's. */
    private boolean serialized;
    private final long keySaveDelayMicros;
    private Future<?> sync;
    private boolean ended;
    private final long startNanos = System.nanoTime();
    /**
     * The longest step on the loop, for the log: what a command waited behind the rewrite at most,
     * in wall time and in CPU time (on a busy machine the two differ by the time the thread was
     * descheduled).
     */
    private long longestStepNanos;
    private long longestStepCpuNanos;

    private AofRewrite(Path temp, FileChannel out, Databases databases, List<byte[]> libraries,
                       long keySaveDelayMicros, ScheduledExecutorService loop, Consumer<Boolean> onEnd) {
        this.temp = temp;
        this.keySaveDelayMicros = keySaveDelayMicros;
        this.out = out;
        this.loop = loop;
        this.onEnd = onEnd;
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kvd-aof-rewrite");
            t.setDaemon(true);
            return t;
        });
        // As Redis 7.0's rewriteFunctions: the libraries first, so replay loads them before any data.
        for (byte[] code : libraries) {
            RespWriter.writeCommand(chunk, FUNCTION, LOAD, code);
        }
        this.snapshot = databases.startSnapshot(ITEMS_PER_COMMAND, new KeyspaceSnapshot.Sink() {
            @Override
            public void string(int db, byte[] key, byte[] value, long deadline) {
                select(db);
                stringEntry(key, value, deadline);
            }

            @Override
            public void members(int db, byte[] key, ValueType type, byte[][] elements, int length) {
                select(db);
                if (type == ValueType.ZSET) {
                    zaddCommand(key, elements, length);
                } else {
                    membersCommand(type == ValueType.HASH ? HSET : type == ValueType.LIST ? RPUSH : SADD, key, elements, length);
                }
            }

            @Override
            public void membersEnd(int db, byte[] key, long deadline) {
                collectionEnd(db, key, deadline);
            }

            @Override
            public void streamEntry(int db, byte[] key, StreamId id, byte[][] fieldsAndValues) {
                select(db);
                xaddCommand(key, id.toBytes(), fieldsAndValues);
            }

            @Override
            public void streamEnd(int db, byte[] key, long length, StreamId lastId, long entriesAdded,
                                  StreamId maxDeletedId, Collection<StreamGroup> groups, long deadline) {
                select(db);
                streamCounters(key, length, lastId, entriesAdded, maxDeletedId);
                streamGroups(key, groups);
                collectionEnd(db, key, deadline);
            }
        });
    }

    /**
     * Starts writing the databases as they are now to {@code temp}; {@code onEnd} is called on
     * the loop with true once the file is complete and forced, false if it failed.
     *
     * @param libraries the code of each function library, written as FUNCTION LOAD records first
     * @param keySaveDelayMicros rdb-key-save-delay: at most one key per this many microseconds (tests)
     * @throws IOException if the temporary file cannot be created
     */
    static AofRewrite start(Path temp, Databases databases, List<byte[]> libraries, long keySaveDelayMicros,
                            ScheduledExecutorService loop, Consumer<Boolean> onEnd) throws IOException {
        FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        AofRewrite rewrite = new AofRewrite(temp, out, databases, libraries, keySaveDelayMicros, loop, onEnd);
        rewrite.schedule(0);
        return rewrite;
    }

    /** Stops the rewrite and deletes the temporary file (shutdown). */
    void abort() {
        fail("Background AOF rewrite aborted", null);
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void select(int db) {
        if (db != selectedDb) {
            RespWriter.writeCommand(chunk, SELECT, Long.toString(db).getBytes(StandardCharsets.US_ASCII));
            selectedDb = db;
        }
    }

    private void stringEntry(byte[] key, byte[] value, long deadline) {
        boolean withDeadline = deadline != Keyspace.PERSISTENT;
        RespWriter.writeArrayHeader(chunk, withDeadline ? 5 : 3);
        RespWriter.writeBulk(chunk, SET);
        RespWriter.writeBulk(chunk, key);
        RespWriter.writeBulk(chunk, value);
        if (withDeadline) {
            RespWriter.writeBulk(chunk, PXAT);
            RespWriter.writeBulk(chunk, Long.toString(deadline));
        }
        entries++;
    }

    /**
     * As Redis's rewriteHashObject, rewriteSetObject and rewriteListObject: a collection is HSET,
     * SADD or RPUSH (in order) commands of
     * up to {@link #ITEMS_PER_COMMAND} members each (the snapshot's batches), then its deadline.
     */
    private void membersCommand(byte[] name, byte[] key, byte[][] elements, int length) {
        RespWriter.writeArrayHeader(chunk, 2 + length);
        RespWriter.writeBulk(chunk, name);
        RespWriter.writeBulk(chunk, key);
        for (int i = 0; i < length; i++) {
            RespWriter.writeBulk(chunk, elements[i]);
        }
    }

    /**
     * As Redis's rewriteSortedSetObject: ZADD of up to {@link #ITEMS_PER_COMMAND} score-member
     * pairs. A score is written as Java's shortest exact form, which ZADD parses back to the same
     * double ("Infinity" included, as strtod reads it).
     */
    private void zaddCommand(byte[] key, byte[][] elements, int length) {
        RespWriter.writeArrayHeader(chunk, 2 + length);
        RespWriter.writeBulk(chunk, ZADD);
        RespWriter.writeBulk(chunk, key);
        for (int i = 0; i < length; i += 2) {
            RespWriter.writeBulk(chunk, Double.toString(ZSetValue.decodeScore(elements[i + 1])));
            RespWriter.writeBulk(chunk, elements[i]);
        }
    }

    /** As Redis's rewriteStreamObject: one XADD per entry, with its id. */
    private void xaddCommand(byte[] key, byte[] id, byte[][] fieldsAndValues) {
        RespWriter.writeArrayHeader(chunk, 3 + fieldsAndValues.length);
        RespWriter.writeBulk(chunk, XADD);
        RespWriter.writeBulk(chunk, key);
        RespWriter.writeBulk(chunk, id);
        for (byte[] element : fieldsAndValues) {
            RespWriter.writeBulk(chunk, element);
        }
    }

    /**
     * As Redis's rewriteStreamObject after the entries: an empty stream is made by an XADD its
     * MAXLEN 0 trims away, then XSETID restores the counters no entry carries.
     */
    private void streamCounters(byte[] key, long length, StreamId lastId, long entriesAdded, StreamId maxDeletedId) {
        if (length == 0) {
            RespWriter.writeCommand(chunk, XADD, key, MAXLEN, ZERO, EMPTY_STREAM_ID, EMPTY_STREAM_FIELD,
                    EMPTY_STREAM_VALUE);
        }
        RespWriter.writeCommand(chunk, XSETID, key, lastId.toBytes(), ENTRIESADDED,
                Long.toString(entriesAdded).getBytes(StandardCharsets.US_ASCII), MAXDELETEDID, maxDeletedId.toBytes());
    }

    /**
     * As Redis 7.0's rewriteStreamObject after XSETID: each group as XGROUP CREATE with its
     * entries-read, then per consumer an XCLAIM per pending entry, or XGROUP CREATECONSUMER if none.
     */
    private void streamGroups(byte[] key, Collection<StreamGroup> groups) {
        for (StreamGroup group : groups) {
            RespWriter.writeCommand(chunk, XGROUP, CREATE, key, group.name(), group.lastId().toBytes(), ENTRIESREAD,
                    ascii(group.entriesRead()));
            for (StreamGroup.Consumer consumer : group.consumers()) {
                if (consumer.pending().isEmpty()) {
                    RespWriter.writeCommand(chunk, XGROUP, CREATECONSUMER, key, group.name(), consumer.name());
                }
                for (var entry : consumer.pending().entrySet()) {
                    RespWriter.writeCommand(chunk, XCLAIM, key, group.name(), consumer.name(), ZERO,
                            entry.getKey().toBytes(), TIME, ascii(entry.getValue().deliveryTime()), RETRYCOUNT,
                            ascii(entry.getValue().deliveryCount()), JUSTID, FORCE);
                }
            }
        }
    }

    private static byte[] ascii(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }

    private void collectionEnd(int db, byte[] key, long deadline) {
        if (deadline != Keyspace.PERSISTENT) {
            select(db);
            RespWriter.writeArrayHeader(chunk, 3);
            RespWriter.writeBulk(chunk, PEXPIREAT);
            RespWriter.writeBulk(chunk, key);
            RespWriter.writeBulk(chunk, Long.toString(deadline));
        }
        entries++;
    }

    /**
     * rdb-key-save-delay, which Redis's rewriteAppendOnlyFileRio also sleeps after each key: ahead
     * of one key per delay since the start, the walk waits (the loop must not sleep).
     */
    private boolean delayed() {
        return keySaveDelayMicros > 0 && entries * keySaveDelayMicros > (System.nanoTime() - startNanos) / 1000;
    }

    private void schedule(long delayMicros) {
        loop.schedule(this::step, delayMicros, TimeUnit.MICROSECONDS);
    }

    /** One step on the loop: some of the snapshot, or a check on the writer, or the switch. */
    private void step() {
        long start = System.nanoTime();
        long startCpu = CPU.getCurrentThreadCpuTime();
        runStep();
        longestStepNanos = Math.max(longestStepNanos, System.nanoTime() - start);
        longestStepCpuNanos = Math.max(longestStepCpuNanos, CPU.getCurrentThreadCpuTime() - startCpu);
    }

    private void runStep() {
        if (ended) {
            return;
        }
        if (writeFailure != null) {
            fail("Background AOF rewrite failed writing " + temp, writeFailure);
        } else if (!serialized) {
            snapshotStep();
        } else if (inFlight.get() > 0 || sync != null && !sync.isDone()) {
            schedule(WAIT_MICROS);
        } else if (sync == null) {
            sync = writer.submit(() -> {
                out.force(true);
                out.close();
                return null;
            });
            schedule(WAIT_MICROS);
        } else {
            synced();
        }
    }

    private void snapshotStep() {
        long deadline = System.nanoTime() + STEP_NANOS;
        while (inFlight.get() < MAX_IN_FLIGHT_BYTES && !delayed() && !snapshot.done()
                && !snapshot.step(IDS_PER_CLOCK_READ)) {
            if (chunk.readableBytes() >= HAND_OFF_BYTES) {
                chunk = handOff(chunk);
            }
            if (System.nanoTime() >= deadline) {
                schedule(0);
                return;
            }
        }
        if (!snapshot.done() || delayed()) {
            schedule(WAIT_MICROS);
            return;
        }
        snapshot.stop();
        serialized = true;
        chunk = handOff(chunk);
        log.info("AOF rewrite: {} keys of the snapshot serialized", entries);
        schedule(0);
    }

    private void synced() {
        try {
            sync.get();
        } catch (ExecutionException e) {
            fail("Background AOF rewrite failed syncing " + temp,
                    e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        end();
        log.info("AOF rewrite: the base of {} keys written to {} in {} ms; longest step on the event loop {} us ({} us "
                + "CPU)", entries, temp.getFileName(), (System.nanoTime() - startNanos) / 1_000_000,
                longestStepNanos / 1000, longestStepCpuNanos / 1000);
        onEnd.accept(true);
    }

    private ByteBuf handOff(ByteBuf records) {
        int bytes = records.readableBytes();
        if (bytes == 0) {
            return records;
        }
        inFlight.addAndGet(bytes);
        writer.execute(() -> {
            try {
                if (writeFailure == null) {
                    ByteBuffer buffer = records.nioBuffer();
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
            } catch (IOException e) {
                writeFailure = e;
            } finally {
                records.clear();
                emptied.offer(records);
                inFlight.addAndGet(-bytes);
            }
        });
        ByteBuf next = emptied.poll();
        return next != null ? next : Unpooled.buffer(CHUNK_BYTES);
    }

    /** Ends the rewrite without a base: the manifest keeps the old one. */
    private void fail(String what, IOException cause) {
        if (ended) {
            return;
        }
        if (cause != null) {
            log.warn("{}: {}", what, cause.toString());
        } else {
            log.warn("{}; the temporary file is deleted", what);
        }
        // After any write still queued (each now skipped): the writer closes and deletes the file.
        writeFailure = cause != null ? cause : new IOException("aborted");
        writer.execute(() -> {
            closeQuietly(out);
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                log.warn("Could not delete the temporary AOF rewrite file {}: {}", temp, e.toString());
            }
        });
        end();
        onEnd.accept(false);
    }

    private void end() {
        ended = true;
        snapshot.stop();
        writer.shutdown();
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("Could not close the rewritten AOF: {}", e.toString());
        }
    }
}
