package io.kvd.server.client;

import java.util.Arrays;

/**
 * One of INFO's instantaneous rates (commands, input and output bytes per second) as Redis
 * computes them (server.c, trackInstantaneousMetric): a counter is sampled at most every 100 ms
 * from the cron, and the reported rate is the mean of the last 16 sampled rates.
 */
public final class InstantaneousMetric {
    static final int SAMPLES = 16;
    static final long PERIOD_MS = 100;

    private final long[] rates = new long[SAMPLES];
    private int next;
    private long lastSampleMs = -1;
    private long lastCount;

    /** Called from the cron with the time and the counter's total so far. */
    public void sample(long nowMs, long total) {
        if (lastSampleMs >= 0) {
            long elapsedMs = nowMs - lastSampleMs;
            if (elapsedMs < PERIOD_MS) {
                return;
            }
            rates[next] = (total - lastCount) * 1000 / elapsedMs;
            next = (next + 1) % SAMPLES;
        }
        lastSampleMs = nowMs;
        lastCount = total;
    }

    /** CONFIG RESETSTAT: forgets every sample; the next one starts a new baseline. */
    public void reset() {
        Arrays.fill(rates, 0);
        next = 0;
        lastSampleMs = -1;
    }

    /** Per second. */
    public long value() {
        long sum = 0;
        for (long rate : rates) {
            sum += rate;
        }
        return sum / SAMPLES;
    }
}
