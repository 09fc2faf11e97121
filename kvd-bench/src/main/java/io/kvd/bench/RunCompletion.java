package io.kvd.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/** Completes once every connection has received its last reply, or fails with the first connection's failure. */
final class RunCompletion {
    private final AtomicInteger running;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    RunCompletion(int connections) {
        this.running = new AtomicInteger(connections);
    }

    void connectionFinished() {
        if (running.decrementAndGet() == 0) {
            done.complete(null);
        }
    }

    void fail(Throwable cause) {
        done.completeExceptionally(cause);
    }

    /** Waits for the run's end; everything the connections recorded is visible to the caller afterwards. */
    void await() throws InterruptedException, ExecutionException {
        done.get();
    }
}
