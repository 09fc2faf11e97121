package io.kvd.server;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.Executor;

/**
 * The one event loop, which can also handle the I/O that is ready from inside a task: Redis's
 * processEventsWhileBlocked, by which a script past busy-reply-threshold lets other clients in
 * (to be answered -BUSY, or to SCRIPT KILL it) while it still runs.
 *
 * <p>Only from a task, never from the I/O phase: a transport's I/O pass walks an array of ready
 * events that a nested pass would overwrite (epoll's is edge-triggered, so a lost event is a
 * connection that hangs). {@link #inIoPhase} tells a command which of the two it runs in.
 */
final class ServerEventLoop extends SingleThreadIoEventLoop {
    /** A pass over the I/O ready now that never waits for more. */
    private static final IoHandlerContext READY_NOW = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return false;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return 0;
        }

        @Override
        public long deadlineNanos() {
            return -1;
        }
    };

    private boolean inIoPhase;

    private ServerEventLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory) {
        super(parent, executor, ioHandlerFactory);
    }

    /** A group of one {@link ServerEventLoop}, on a thread named kvd-loop. */
    static MultiThreadIoEventLoopGroup group(IoHandlerFactory ioHandlerFactory) {
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("kvd-loop"), ioHandlerFactory) {
            @Override
            protected IoEventLoop newChild(Executor executor, IoHandlerFactory factory, Object... args) {
                return new ServerEventLoop(this, executor, factory);
            }
        };
    }

    @Override
    protected int runIo() {
        inIoPhase = true;
        try {
            return super.runIo();
        } finally {
            inIoPhase = false;
        }
    }

    /** True while the loop handles I/O (reads, writes, accepts), false while it runs tasks. */
    boolean inIoPhase() {
        return inIoPhase;
    }

    /**
     * Handles the I/O ready now, without waiting; called from a task. Scheduled tasks (the cron,
     * blocking timeouts) and queued ones wait for the task that called this to end.
     */
    void handleReadyIo() {
        if (inIoPhase) {
            throw new IllegalStateException("the loop's I/O pass cannot be entered from inside itself");
        }
        inIoPhase = true;
        try {
            ioHandler().run(READY_NOW);
        } finally {
            inIoPhase = false;
        }
    }
}
