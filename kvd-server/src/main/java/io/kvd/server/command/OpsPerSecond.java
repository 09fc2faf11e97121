package io.kvd.server.command;

import java.util.Arrays;

/**
 * INFO's instantaneous_ops_per_sec as Redis computes it (server.c, trackInstantaneousMetric):
 * the command counter is sampled at most every 100 ms from the cron, and the reported rate is
 * the mean of the last 16 sampled rates.
 */
public final class OpsPerSecond {
    static final int SAMPLES = 16;
    static final long PERIOD_MS = 100;

    private final long[] rates = new long[SAMPLES];
    private int next;
    private long lastSampleMs = -1;
    private long lastCount;

    /** Called from the cron with the time and the total of commands processed so far. */
    public void sample(long nowMs, long commandsProcessed) {
        if (lastSampleMs >= 0) {
            long elapsedMs = nowMs - lastSampleMs;
            if (elapsedMs < PERIOD_MS) {
                return;
            }
            rates[next] = (commandsProcessed - lastCount) * 1000 / elapsedMs;
            next = (next + 1) % SAMPLES;
        }
        lastSampleMs = nowMs;
        lastCount = commandsProcessed;
    }

    /** CONFIG RESETSTAT: forgets every sample; the next one starts a new baseline. */
    public void reset() {
        Arrays.fill(rates, 0);
        next = 0;
        lastSampleMs = -1;
    }

    public long value() {
        long sum = 0;
        for (long rate : rates) {
            sum += rate;
        }
        return sum / SAMPLES;
    }
}
