package io.kvd.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests a run may still issue, shared by every connection: up to a count ({@code -n}), until a
 * deadline ({@code --duration}), or whichever ends first. Connections claim a window's worth at a
 * time, so the shared counter is touched once per batch, not once per request.
 */
final class RequestBudget {
    private final long limit;
    private final boolean timed;
    private final long deadlineNanos;
    private final AtomicLong claimed = new AtomicLong();

    /**
     * @param limit    the most requests to issue, {@link BenchSettings#UNLIMITED} for no count
     * @param duration how long to keep issuing from now, null for no deadline
     */
    RequestBudget(long limit, Duration duration) {
        this.limit = limit;
        this.timed = duration != null;
        this.deadlineNanos = timed ? System.nanoTime() + duration.toNanos() : 0;
    }

    /** Claims up to {@code wanted} requests; returns how many may be sent, 0 once the budget is spent. */
    int claim(int wanted) {
        if (wanted == 0 || timed && System.nanoTime() - deadlineNanos >= 0) {
            return 0;
        }
        // Claims past the limit only push the counter further past it; they grant nothing.
        long before = claimed.getAndAdd(wanted);
        return (int) Math.max(0, Math.min(wanted, limit - before));
    }
}
