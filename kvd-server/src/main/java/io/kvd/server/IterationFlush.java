package io.kvd.server;

import io.netty.channel.SingleThreadEventLoop;

import java.util.ArrayList;

/**
 * The end of every event-loop iteration that produced replies: each connection with output is
 * flushed once, so one read of many pipelined commands costs one write. Registered as a tail task
 * ({@code executeAfterEventLoopIteration}), which runs after all I/O and tasks of the iteration;
 * the AOF's group commit will write and sync here, before the replies leave.
 */
final class IterationFlush implements Runnable {
    private final SingleThreadEventLoop loop;
    private ArrayList<ConnectionHandler> pending = new ArrayList<>();
    private ArrayList<ConnectionHandler> flushing = new ArrayList<>();
    private boolean scheduled;

    IterationFlush(SingleThreadEventLoop loop) {
        this.loop = loop;
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
        for (ConnectionHandler connection : batch) {
            connection.flush();
        }
        batch.clear();
    }
}
