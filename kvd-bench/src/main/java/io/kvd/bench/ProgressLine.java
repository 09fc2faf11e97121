package io.kvd.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** A line on a terminal showing the replies so far and the recent rate, rewritten 4 times a second. */
final class ProgressLine {
    /** No progress line: output that is not a terminal, tests, the suite. */
    static final ProgressLine NONE = new ProgressLine(null);
    private static final long PERIOD_MS = 250;

    private final PrintWriter terminal;
    private ScheduledExecutorService ticker;

    private ProgressLine(PrintWriter terminal) {
        this.terminal = terminal;
    }

    /** A progress line on {@code err} when standard error is a terminal, else {@link #NONE}. */
    static ProgressLine onTerminal(PrintWriter err) {
        return ProcFs.stderrIsTerminal() ? new ProgressLine(err) : NONE;
    }

    /** Starts showing {@code replies()}, counted from now. */
    void start(LongSupplier replies) {
        if (terminal == null) {
            return;
        }
        long start = System.nanoTime();
        long[] last = {0, start};
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "kvbench-progress");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            long count = replies.getAsLong();
            double rate = (count - last[0]) / ((now - last[1]) / 1e9);
            last[0] = count;
            last[1] = now;
            terminal.printf(Locale.ROOT, "\r%.1f s: %d replies, %.0f ops/s   ", (now - start) / 1e9, count, rate);
            terminal.flush();
        }, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Stops and erases the line. */
    void stop() {
        if (ticker == null) {
            return;
        }
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        terminal.print("\r\033[K");
        terminal.flush();
    }
}
