package io.kvd.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The fairness experiment: does one client pipelining a bulk load starve the others? A {@link PingProber}
 * times PINGs on its own connection while a {@link BulkLoader} SETs keys as fast as its socket takes them.
 */
final class Fairness {
    private Fairness() {
    }

    /**
     * Probes from before the load's first byte until its last reply was read.
     *
     * @throws IOException when the server answers the loader or the prober wrongly, or a connection fails
     */
    static FairnessResult run(ServerAddress server, long keys, Duration interval)
            throws IOException, InterruptedException {
        try (PingProber prober = PingProber.connect(server, interval);
             BulkLoader loader = BulkLoader.connect(server)) {
            // Probed once before the load, on the calling thread: every run has a probe, and a failing
            // prober fails the run before any key is sent.
            prober.probeFirst();
            FutureTask<Histogram> probing = new FutureTask<>(prober::probeUntilStopped);
            Thread thread = new Thread(probing, "fairness-prober");
            thread.setDaemon(true);
            thread.start();
            long loadNanos;
            try {
                loadNanos = loader.load(keys);
            } finally {
                prober.stop();
            }
            return new FairnessResult(server, keys, interval, loadNanos, probes(probing));
        }
    }

    private static Histogram probes(FutureTask<Histogram> probing) throws IOException, InterruptedException {
        try {
            return probing.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failure) {
                throw failure;
            }
            throw new IllegalStateException("the prober failed", e.getCause());
        }
    }
}
