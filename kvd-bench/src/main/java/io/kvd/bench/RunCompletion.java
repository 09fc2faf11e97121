package io.kvd.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/** Completes once every client has received its last reply of a phase, or fails with the first connection's failure. */
final class RunCompletion {
    private final AtomicInteger running;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    RunCompletion(int clients) {
        this.running = new AtomicInteger(clients);
    }

    void clientFinished() {
        if (running.decrementAndGet() == 0) {
            done.complete(null);
        }
    }

    void fail(Throwable cause) {
        done.completeExceptionally(cause);
    }

    /** Waits for the phase's end; everything the clients recorded is visible to the caller afterwards. */
    void await() throws InterruptedException, ExecutionException {
        done.get();
    }
}
