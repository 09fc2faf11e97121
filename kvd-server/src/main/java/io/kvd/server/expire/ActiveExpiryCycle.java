package io.kvd.server.expire;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;

/**
 * Active expiry: keys nobody reads again still go once their deadline passes (Redis's
 * activeExpireCycle). A cycle visits each database with keys that have a deadline: it samples 20
 * of them, removes the expired ones, and repeats while more than a quarter of the sample had
 * expired, until the cycle's time budget is spent. A cycle cut short starts the next one at the
 * database it stopped in, as Redis's current_db. The slow cycle runs {@code hz} times a second with a quarter of a tick; when it stops
 * at that limit with keys still expiring, the server follows with fast cycles of 1 ms each until
 * the sample is clean ({@link #behind()}).
 */
public final class ActiveExpiryCycle {
    static final int KEYS_PER_SAMPLE = 20;
    static final int REPEAT_ABOVE_PERCENT = 25;
    static final int TIME_PERCENT_OF_TICK = 25;
    /** Redis's ACTIVE_EXPIRE_CYCLE_FAST_DURATION. */
    static final long FAST_CYCLE_NANOS = 1_000_000;

    private final Databases databases;
    /** Per database. */
    private final long[] averageTtlMs;
    private int nextDb;
    private boolean behind;
    private boolean enabled = true;
    private long timeCapReached;
    private long cycleNanos;
    /** Redis's stat_expired_stale_perc: a running estimate of the share of expired keys among those with a deadline. */
    private double staleShare;

    public ActiveExpiryCycle(Databases databases) {
        this.databases = databases;
        this.averageTtlMs = new long[databases.count()];
    }

    /**
     * The cron's cycle at {@code nowMs}, bounded by a quarter of a tick at {@code hz}.
     *
     * @return keys removed
     */
    public long runSlow(long nowMs, int hz) {
        return run(nowMs, 1_000_000_000L / hz * TIME_PERCENT_OF_TICK / 100);
    }

    /**
     * A fast cycle at {@code nowMs}, bounded by 1 ms.
     *
     * @return keys removed
     */
    public long runFast(long nowMs) {
        return run(nowMs, FAST_CYCLE_NANOS);
    }

    /** DEBUG SET-ACTIVE-EXPIRE: off, only lookups remove expired keys. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    private long run(long nowMs, long budgetNanos) {
        databases.setTime(nowMs);
        if (!enabled) {
            behind = false;
            return 0;
        }
        long start = System.nanoTime();
        long removed = 0;
        long sampledLive = 0;
        behind = false;
        for (int visited = 0; visited < databases.count() && !behind; visited++) {
            int db = nextDb;
            Keyspace keyspace = databases.get(db);
            long[] ttlSum = new long[2];
            int expired = 0;
            boolean timeLeft = true;
            while (keyspace.sizeWithDeadline() > 0) {
                expired = keyspace.expireSample(KEYS_PER_SAMPLE, ttlSum);
                removed += expired;
                timeLeft = System.nanoTime() - start < budgetNanos;
                if (!mostlyExpired(expired) || !timeLeft) {
                    break;
                }
            }
            behind = mostlyExpired(expired) && !timeLeft;
            if (!behind) {
                nextDb = (db + 1) % databases.count();
            }
            updateAverageTtl(db, keyspace, ttlSum);
            sampledLive += ttlSum[1];
        }
        // expire.c weighs each cycle's share of expired keys in its samples 5%.
        long sampled = removed + sampledLive;
        staleShare = (sampled == 0 ? 0 : (double) removed / sampled) * 0.05 + staleShare * 0.95;
        if (behind) {
            timeCapReached++;
        }
        long elapsed = System.nanoTime() - start;
        cycleNanos += elapsed;
        // Redis's activeExpireCycle samples each cycle it ran, slow or fast, in whole milliseconds.
        databases.latencyMonitor().addSampleIfNeeded("expire-cycle", elapsed / 1_000_000);
        return removed;
    }

    private void updateAverageTtl(int db, Keyspace keyspace, long[] ttlSum) {
        if (ttlSum[1] > 0) {
            // Redis's running estimate: each cycle's sample mean weighs 2% (expire.c, avg_ttl).
            long sampleMean = ttlSum[0] / ttlSum[1];
            averageTtlMs[db] = averageTtlMs[db] == 0 ? sampleMean : averageTtlMs[db] / 50 * 49 + sampleMean / 50;
        }
        if (keyspace.sizeWithDeadline() == 0) {
            averageTtlMs[db] = 0;
        }
    }

    private static boolean mostlyExpired(int expiredInSample) {
        return expiredInSample * 100 > KEYS_PER_SAMPLE * REPEAT_ABOVE_PERCENT;
    }

    /** Whether the last cycle ran out of time while its sample was still mostly expired keys. */
    public boolean behind() {
        return behind;
    }

    /** INFO stats' expired_time_cap_reached_count: cycles that stopped at their time limit. */
    public long timeCapReachedCount() {
        return timeCapReached;
    }

    /** INFO stats' expire_cycle_cpu_milliseconds: time spent in cycles (wall time, as Redis). */
    public long cycleMillis() {
        return cycleNanos / 1_000_000;
    }

    /** INFO stats' expired_stale_perc: the estimated percentage of keys with a deadline that expired and are not yet removed. */
    public double stalePercent() {
        return staleShare * 100;
    }

    /** CONFIG RESETSTAT: the stale estimate, the time-cap count and the cycles' time start from zero, as Redis's. */
    public void resetStats() {
        staleShare = 0;
        timeCapReached = 0;
        cycleNanos = 0;
    }

    /** INFO keyspace's avg_ttl for database {@code db}: an estimate in ms of the TTL left to keys that have one. */
    public long averageTtlMs(int db) {
        return averageTtlMs[db];
    }
}
