package io.kvd.server.store;

/**
 * Active expiry, run {@code hz} times a second: keys nobody reads again still go once their
 * deadline passes (Redis's activeExpireCycle, slow mode). Samples 20 keys among those with a
 * deadline, removes the expired ones, and repeats while more than a quarter of the sample had
 * expired, for at most a quarter of a tick.
 */
public final class ActiveExpiryCycle {
    static final int KEYS_PER_SAMPLE = 20;
    static final int REPEAT_ABOVE_PERCENT = 25;
    static final int TIME_PERCENT_OF_TICK = 25;

    private final Keyspace keyspace;
    private long averageTtlMs;

    public ActiveExpiryCycle(Keyspace keyspace) {
        this.keyspace = keyspace;
    }

    /**
     * One cycle at {@code nowMs}, bounded by a quarter of a tick at {@code hz}.
     *
     * @return keys removed
     */
    public long run(long nowMs, int hz) {
        keyspace.setTime(nowMs);
        long budgetNanos = 1_000_000_000L / hz * TIME_PERCENT_OF_TICK / 100;
        long start = System.nanoTime();
        long removed = 0;
        long[] ttlSum = new long[2];
        int expired;
        do {
            expired = keyspace.expireSample(KEYS_PER_SAMPLE, ttlSum);
            removed += expired;
        } while (expired * 100 > KEYS_PER_SAMPLE * REPEAT_ABOVE_PERCENT
                && System.nanoTime() - start < budgetNanos);
        if (ttlSum[1] > 0) {
            // Redis's running estimate: each cycle's sample mean weighs 2% (expire.c, avg_ttl).
            long sampleMean = ttlSum[0] / ttlSum[1];
            averageTtlMs = averageTtlMs == 0 ? sampleMean : averageTtlMs / 50 * 49 + sampleMean / 50;
        }
        if (keyspace.sizeWithDeadline() == 0) {
            averageTtlMs = 0;
        }
        return removed;
    }

    /** INFO keyspace's avg_ttl: an estimate in ms of the TTL left to keys that have one. */
    public long averageTtlMs() {
        return averageTtlMs;
    }
}
