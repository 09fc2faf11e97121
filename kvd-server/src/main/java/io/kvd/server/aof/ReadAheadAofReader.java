package io.kvd.server.aof;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * An {@link AofReader} run on its own thread, ahead of the replay: reading and parsing the file
 * take about a third of a replay's time, and the event loop, which applies the records, is free
 * to do only that. Records are handed over in batches, a few batches ahead at most, so memory
 * stays bounded whatever the file's size. Garbage, or a read error, reaches the caller after
 * every record before it, as with the plain reader.
 *
 * <p>A batch the caller has gone past comes back to this thread, which parses later records into
 * the same arrays: a record is done with once the next one is asked for (the command that ran it
 * kept no argument, see {@link io.kvd.server.client.CommandHandler}). Without this the arguments
 * were ~120 bytes of garbage per record, more than the keyspace keeps: 9 young collections
 * instead of 6 while 1.6 M records load, and twice the reading thread's CPU time.
 */
final class ReadAheadAofReader implements AutoCloseable {
    static final int BATCH_RECORDS = 1024;
    private static final int BATCHES_AHEAD = 8;

    private final AofReader reader;
    private final BlockingQueue<Batch> batches = new ArrayBlockingQueue<>(BATCHES_AHEAD);
    /** Batches the caller has gone past, to be filled again; at most the ones in flight, so never full. */
    private final BlockingQueue<Batch> done = new ArrayBlockingQueue<>(BATCHES_AHEAD + 2);
    private final Thread thread;
    private Batch current;
    private int index;
    private long validUpTo;
    private long records;

    /** Records in file order, each with the offset where it ends; the last batch says how reading ended. */
    private static final class Batch {
        final byte[][][] records = new byte[BATCH_RECORDS][][];
        final long[] ends = new long[BATCH_RECORDS];
        int count;
        boolean last;
        /** In the last batch: the CPU time the reading thread used. */
        long readerCpuNanos;
        /** An {@link IOException} or {@link AofFormatException} met after the records of the batch. */
        Exception failure;
    }

    ReadAheadAofReader(AofReader reader) {
        this.reader = reader;
        this.thread = new Thread(this::readAll, "kvd-aof-reader");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The next record's arguments, or null at the end of the file (see {@link #isTorn}); the
     * arrays are the caller's until it asks for the next record, then they may be refilled.
     */
    byte[][] next() throws IOException, AofFormatException {
        while (index == count()) {
            if (current != null && current.last) {
                rethrow(current.failure);
                return null;
            }
            if (current != null) {
                done.add(current);
            }
            current = take();
            index = 0;
        }
        validUpTo = current.ends[index];
        records++;
        return current.records[index++];
    }

    /**
     * After {@link #next} returned a record: the record {@code k} places after it ({@code ahead(0)} is
     * that one), or null past the end of its batch: a batch stays put until the caller moves past
     * its end. The arrays are the caller's to read, not to keep or change.
     */
    byte[][] ahead(int k) {
        int at = index - 1 + k;
        return at < count() ? current.records[at] : null;
    }

    /** The end of the last record {@link #next} returned. */
    long validUpTo() {
        return validUpTo;
    }

    long records() {
        return records;
    }

    long fileSize() {
        return reader.fileSize();
    }

    /** After {@link #next} returned null: the file ends inside a record. */
    boolean isTorn() {
        return reader.isTorn();
    }

    /** After {@link #next} returned null: the CPU time spent reading and parsing. */
    long readerCpuNanos() {
        return current.readerCpuNanos;
    }

    /** Stops reading ahead (the replay may stop early, on a record it refuses) and waits for the thread. */
    @Override
    public void close() throws IOException {
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the AOF reader", e);
        }
    }

    private int count() {
        return current == null ? 0 : current.count;
    }

    private Batch take() throws IOException {
        try {
            return batches.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while loading the AOF", e);
        }
    }

    private static void rethrow(Exception failure) throws IOException, AofFormatException {
        if (failure instanceof AofFormatException format) {
            throw format;
        }
        if (failure != null) {
            throw (IOException) failure;
        }
    }

    private void readAll() {
        try {
            boolean last = false;
            while (!last) {
                Batch recycled = done.poll();
                Batch batch = fill(recycled != null ? recycled : new Batch());
                last = batch.last;
                if (last) {
                    batch.readerCpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                }
                batches.put(batch);
            }
        } catch (InterruptedException e) {
            // Closed before the end: the replay no longer wants records.
        }
    }

    private Batch fill(Batch batch) {
        try {
            batch.count = 0;
            for (byte[][] argv; batch.count < BATCH_RECORDS
                    && (argv = reader.next(batch.records[batch.count])) != null; batch.count++) {
                batch.records[batch.count] = argv;
                batch.ends[batch.count] = reader.validUpTo();
            }
            batch.last = batch.count < BATCH_RECORDS;
        } catch (IOException | AofFormatException e) {
            batch.failure = e;
            batch.last = true;
        }
        return batch;
    }
}
