package io.kvd.server;

import io.kvd.server.aof.AppendOnlyFile;
import io.netty.buffer.ByteBuf;
import io.netty.channel.SingleThreadEventLoop;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The end of every event-loop iteration that produced replies: the group commit. The records
 * the iteration's commands logged go to the AOF in one write, and each connection with output
 * is flushed once, so one read of many pipelined commands costs one write, and one fsync covers
 * every connection's writes of the iteration. Registered as a tail task
 * ({@code executeAfterEventLoopIteration}), which runs after all I/O and tasks of the iteration.
 *
 * <p>Replies leave only once the log is durable up to where it ended after their iteration
 * ({@link AppendOnlyFile#durableSize}: written, and synced under {@code appendfsync always}).
 * Until then the iteration's replies are taken from their connections and held, in iteration
 * order, while the loop goes on serving: under {@code always} the fsync runs on its own thread,
 * and its end releases every iteration it covers. Replies of reads wait too, behind any earlier
 * write not yet durable, so nobody sees data that a crash could still lose. A failing disk holds
 * replies the same way until a later commit, which the cron retries every tick, succeeds.
 */
final class IterationFlush implements Runnable {
    private final SingleThreadEventLoop loop;
    /** Null when appendonly is off. */
    private final AppendOnlyFile aof;
    private ArrayList<ConnectionHandler> pending = new ArrayList<>();
    private ArrayList<ConnectionHandler> flushing = new ArrayList<>();
    /** Iterations whose replies wait for the log, oldest first; their log positions never decrease. */
    private final ArrayDeque<HeldReplies> held = new ArrayDeque<>();
    private boolean scheduled;

    IterationFlush(SingleThreadEventLoop loop, AppendOnlyFile aof) {
        this.loop = loop;
        this.aof = aof;
        if (aof != null) {
            aof.onDurable(this::release);
        }
    }

    /** Queues a connection that has output; the first of an iteration schedules the flush. */
    void add(ConnectionHandler connection) {
        pending.add(connection);
        if (!scheduled) {
            scheduled = true;
            loop.executeAfterEventLoopIteration(this);
        }
    }

    /** True from an iteration's first reply until its flush: the batch's clock is already read. */
    boolean isScheduled() {
        return scheduled;
    }

    @Override
    public void run() {
        scheduled = false;
        // Swap first: a connection resumed while flushing runs its buffered commands and queues
        // itself again, for a flush that the tail-task queue runs right after this one.
        ArrayList<ConnectionHandler> batch = pending;
        pending = flushing;
        flushing = batch;
        if (aof == null) {
            flushAll(batch);
            return;
        }
        aof.commit();
        long loggedSize = aof.loggedSize();
        if (held.isEmpty() && loggedSize <= aof.durableSize()) {
            flushAll(batch);
            return;
        }
        held.add(new HeldReplies(loggedSize, batch));
        batch.clear();
        release();
    }

    /**
     * From the cron: commits what was logged outside a client's iteration (active expiry's DELs)
     * or retries a failed commit, and releases the replies held for it.
     */
    void commitFromCron() {
        if (aof != null) {
            aof.commit();
            release();
        }
    }

    /** Sends every held iteration's replies whose records are durable now, oldest first. */
    private void release() {
        long durable = aof.durableSize();
        while (!held.isEmpty() && held.peekFirst().loggedSize <= durable) {
            held.pollFirst().send();
        }
    }

    private static void flushAll(ArrayList<ConnectionHandler> connections) {
        for (ConnectionHandler connection : connections) {
            connection.flush();
        }
        connections.clear();
    }

    /** One iteration's replies, taken from their connections, and the log size they wait for. */
    private static final class HeldReplies {
        final long loggedSize;
        final ConnectionHandler[] connections;
        final ByteBuf[] outputs;
        final boolean[] closing;

        HeldReplies(long loggedSize, ArrayList<ConnectionHandler> batch) {
            this.loggedSize = loggedSize;
            int n = batch.size();
            connections = batch.toArray(new ConnectionHandler[n]);
            outputs = new ByteBuf[n];
            closing = new boolean[n];
            for (int i = 0; i < n; i++) {
                // Decided now: by the time these leave, a later command may have made it close, after its own reply.
                closing[i] = connections[i].isClosingAfterReply();
                outputs[i] = connections[i].takeOutput();
            }
        }

        void send() {
            for (int i = 0; i < connections.length; i++) {
                connections[i].send(outputs[i], closing[i]);
            }
        }
    }
}
