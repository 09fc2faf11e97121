package io.kvd.server;

import io.kvd.server.aof.AofPersistence;
import io.kvd.server.replication.Replication;
import io.netty.channel.SingleThreadEventLoop;

import java.util.ArrayList;

/**
 * The end of every event-loop iteration that produced replies: the group commit. The records
 * the iteration's commands logged go to the replicas, and to the AOF in one write (and one fsync under
 * {@code appendfsync always}), and only then is each connection with output flushed once, so one
 * read of many pipelined commands costs one write, and one fsync covers every connection's
 * writes of the iteration. Registered as a tail task ({@code executeAfterEventLoopIteration}),
 * which runs after all I/O and tasks of the iteration.
 *
 * <p>When the records cannot be written (a failing disk, a stalled fsync), the replies are held:
 * those connections flush only after a later commit succeeds, which the cron retries every tick.
 */
final class IterationFlush implements Runnable {
    private final SingleThreadEventLoop loop;
    private final AofPersistence aof;
    private final Replication replication;
    private ArrayList<ConnectionHandler> pending = new ArrayList<>();
    private ArrayList<ConnectionHandler> flushing = new ArrayList<>();
    /** Connections whose replies wait for their records to reach the log. */
    private final ArrayList<ConnectionHandler> held = new ArrayList<>();
    private boolean scheduled;

    IterationFlush(SingleThreadEventLoop loop, AofPersistence aof, Replication replication) {
        this.loop = loop;
        this.aof = aof;
        this.replication = replication;
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
        if (committed()) {
            flushAll(held);
            flushAll(batch);
        } else {
            held.addAll(batch);
            batch.clear();
        }
    }

    /**
     * From the cron: commits what was logged outside a client's iteration (active expiry's DELs)
     * or retries a failed commit, and releases the replies held for it.
     */
    void commitFromCron() {
        if (committed()) {
            flushAll(held);
        }
    }

    /** The replicas get the records first: they need not wait for the AOF's disk. */
    private boolean committed() {
        replication.feedRecords();
        return aof.commit();
    }

    private static void flushAll(ArrayList<ConnectionHandler> connections) {
        for (ConnectionHandler connection : connections) {
            connection.flush();
        }
        connections.clear();
    }
}
