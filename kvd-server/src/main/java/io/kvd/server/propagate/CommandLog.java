package io.kvd.server.propagate;

import io.kvd.codec.RespWriter;
import io.kvd.server.protocol.Args;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The append-only file and the replication stream as commands see them: the records of the
 * writes run since the AOF last took them, in order, each a Redis command in RESP (what
 * redis-server itself loads and replicates), and whether the file is healthy. Commands never see
 * the file nor the replicas; once per event-loop iteration replication takes the records not yet
 * replicated ({@link #takeUnreplicated}) and the AOF drains {@link #records}. While neither the
 * AOF ({@link #isEnabled()}: appendonly no, or during replay) nor replication wants them, nothing
 * is recorded.
 */
public final class CommandLog {
    private static final byte[] DEL = Args.bytes("DEL");
    private static final byte[] SELECT = Args.bytes("SELECT");
    private static final byte[] MULTI = Args.bytes("MULTI");
    private static final byte[] EXEC = Args.bytes("EXEC");

    /** A record of a command run inside EXEC, held until the transaction ends; {@code replicasOnly}: not for the AOF. */
    private record Held(int db, byte[][] argv, boolean replicasOnly) {
    }

    /** On the heap: a server or test fixture that never logs holds no native memory for it. */
    private final ByteBuf records = Unpooled.buffer(4096);
    private boolean enabled;
    private boolean replicating;
    /**
     * The records for the replicas alone (Redis's PROPAGATE_REPL: PUBLISH), as pairs of start and
     * end indexes into {@link #records}, in order; the AOF writes around them.
     */
    private int[] replicasOnly = new int[8];
    private int replicasOnlyEnds;
    /** Where the records replication has not taken yet start. */
    private int replicatedUpTo;
    private String failure;
    private long fileSize;
    private long delayedFsyncs;
    private long flushSleepMicros;
    private boolean fsyncInProgress;
    /** The database the records so far leave selected on replay; -1 before the first (Redis's aof_selected_db). */
    private int selectedDb = -1;
    /** The records of the EXEC running, or null outside one. */
    private List<Held> transaction;
    /** An EXEC runs its queued commands, whether or not its records are held (Redis's in_exec). */
    private boolean inExec;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** Replication has a backlog: records are kept for it, with or without the AOF. */
    public void setReplicating(boolean replicating) {
        this.replicating = replicating;
    }

    /** The AOF or the replicas want the records. */
    public boolean isRecording() {
        return enabled || replicating;
    }

    /**
     * Appends one record of a command run in database {@code db}, after a SELECT if the last was
     * for another, if enabled. Inside EXEC it is held until {@link #endTransaction}; the arrays
     * must then stay unchanged until it (they are the transaction's queued copies).
     */
    public void append(int db, byte[]... argv) {
        if (!isRecording()) {
            return;
        }
        if (transaction != null) {
            transaction.add(new Held(db, argv, false));
            return;
        }
        write(db, argv);
    }

    /**
     * Appends a record for the replicas only, as Redis's forceCommandPropagation with
     * PROPAGATE_REPL (PUBLISH, so that a replica's subscribers get the message). A SELECT before
     * it goes to both, so the AOF's database stays the one the records say.
     */
    public void appendForReplicas(int db, byte[]... argv) {
        if (!replicating) {
            return;
        }
        if (transaction != null) {
            transaction.add(new Held(db, argv, true));
            return;
        }
        writeForReplicas(db, argv);
    }

    private void writeForReplicas(int db, byte[][] argv) {
        select(db);
        if (replicasOnlyEnds == replicasOnly.length) {
            replicasOnly = Arrays.copyOf(replicasOnly, replicasOnly.length * 2);
        }
        replicasOnly[replicasOnlyEnds++] = records.writerIndex();
        RespWriter.writeCommand(records, argv);
        replicasOnly[replicasOnlyEnds++] = records.writerIndex();
    }

    /**
     * The records from index {@code from} to the end, as the AOF takes them: without those for
     * the replicas alone.
     */
    public List<ByteBuffer> forAof(int from) {
        List<ByteBuffer> spans = new ArrayList<>(1 + replicasOnlyEnds / 2);
        int at = from;
        for (int i = 0; i < replicasOnlyEnds; i += 2) {
            int start = replicasOnly[i];
            int end = replicasOnly[i + 1];
            if (end <= at) {
                continue;
            }
            if (start > at) {
                spans.add(records.nioBuffer(at, start - at));
            }
            at = end;
        }
        if (records.writerIndex() > at) {
            spans.add(records.nioBuffer(at, records.writerIndex() - at));
        }
        return spans;
    }

    /**
     * Appends the records one command logged as others (Redis's also-propagated ops): two or more
     * between MULTI and EXEC, unless an EXEC running holds them already.
     */
    public void appendAll(int db, List<byte[][]> argvs) {
        if (!isRecording() || argvs.isEmpty()) {
            return;
        }
        boolean wrap = transaction == null && argvs.size() > 1;
        if (wrap) {
            write(db, MULTI);
        }
        for (byte[][] argv : argvs) {
            append(db, argv);
        }
        if (wrap) {
            write(db, EXEC);
        }
    }

    /** EXEC starts running its queued commands: their records are held until {@link #endTransaction}. */
    public void beginTransaction() {
        inExec = true;
        if (isRecording()) {
            transaction = new ArrayList<>();
        }
    }

    /**
     * EXEC ran its commands: as Redis 7.0's propagatePendingCommands, two or more records go out
     * between MULTI (in the first one's database) and EXEC, a single one alone, none if nothing
     * changed. They are one iteration's records, so one commit writes the block whole.
     */
    public void endTransaction() {
        inExec = false;
        List<Held> held = transaction;
        transaction = null;
        if (held != null && !held.isEmpty()) {
            boolean wrap = held.size() > 1;
            if (wrap) {
                write(held.get(0).db(), MULTI);
            }
            for (Held record : held) {
                if (record.replicasOnly()) {
                    writeForReplicas(record.db(), record.argv());
                } else {
                    write(record.db(), record.argv());
                }
            }
            if (wrap) {
                write(held.get(held.size() - 1).db(), EXEC);
            }
        }
    }

    /** How many records the EXEC running holds so far (0 outside one): a mark for {@link #dropHeldSince}. */
    public int heldCount() {
        return transaction == null ? 0 : transaction.size();
    }

    /** Drops the records held since {@code mark}: a script's writes under redis.set_repl without REPL_AOF. */
    public void dropHeldSince(int mark) {
        if (transaction != null) {
            transaction.subList(mark, transaction.size()).clear();
        }
    }

    /** True while an EXEC or a script runs its commands (Redis's in_exec): a snapshot must not start in the middle. */
    public boolean inExec() {
        return inExec;
    }

    /** True while EXEC runs and its records are held. */
    public boolean holdsTransaction() {
        return transaction != null;
    }

    private void write(int db, byte[]... argv) {
        select(db);
        RespWriter.writeCommand(records, argv);
    }

    private void select(int db) {
        if (db != selectedDb) {
            RespWriter.writeCommand(records, SELECT, Args.bytes(Integer.toString(db)));
            selectedDb = db;
        }
    }

    /** The database the records leave selected, -1 before the first or after {@link #selectAgain} (Redis's slaveseldb). */
    public int selectedDb() {
        return selectedDb;
    }

    /**
     * The next record starts with a SELECT whatever the last was for: a rewritten file's tail is
     * copied from the records logged after its start, which must not depend on the old file's.
     */
    public void selectAgain() {
        selectedDb = -1;
    }

    /**
     * A key's deadline passed: Redis logs a DEL, so that a later write to the name starts afresh on
     * replay. Written at once even inside EXEC, before the transaction's records, as Redis 7.0 does.
     */
    public void expired(int db, byte[] key) {
        if (isRecording()) {
            write(db, DEL, key);
        }
    }

    /** The records not yet taken; the AOF reads them and calls {@link #recordsTaken}, on the event loop. */
    public ByteBuf records() {
        return records;
    }

    /** The records written (or, without the AOF, replicated): they go. */
    public void recordsTaken() {
        records.clear();
        replicatedUpTo = 0;
        replicasOnlyEnds = 0;
    }

    /** The records replication has not taken yet, which it now takes (a view, valid until the next record). */
    public ByteBuf takeUnreplicated() {
        int from = Math.max(replicatedUpTo, records.readerIndex());
        replicatedUpTo = records.writerIndex();
        ByteBuf taken = records.slice(from, replicatedUpTo - from);
        if (!enabled) {
            recordsTaken();
        }
        return taken;
    }

    /** Bytes of records replication has not taken yet. */
    public int unreplicatedBytes() {
        return records.writerIndex() - Math.max(replicatedUpTo, records.readerIndex());
    }

    /**
     * Why the last write or fsync of the file failed (the system's message, e.g. "No space left on
     * device"), or null while it is healthy. While set, write commands are refused with MISCONF.
     */
    public String failure() {
        return failure;
    }

    public void setFailure(String failure) {
        this.failure = failure;
    }

    /** The file's state as INFO persistence reports it; the AOF updates it at every commit. */
    public void reportFile(long size, long delayedFsyncs, boolean fsyncInProgress) {
        this.fileSize = size;
        this.delayedFsyncs = delayedFsyncs;
        this.fsyncInProgress = fsyncInProgress;
    }

    public long fileSize() {
        return fileSize;
    }

    public long delayedFsyncs() {
        return delayedFsyncs;
    }

    /** DEBUG AOF-FLUSH-SLEEP: the AOF sleeps this long before each write of records (Redis's aof_flush_sleep), for tests. */
    public void setFlushSleepMicros(long micros) {
        flushSleepMicros = micros;
    }

    public long flushSleepMicros() {
        return flushSleepMicros;
    }

    public boolean fsyncInProgress() {
        return fsyncInProgress;
    }
}
