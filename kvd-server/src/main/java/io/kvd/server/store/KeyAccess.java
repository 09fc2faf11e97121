package io.kvd.server.store;

/**
 * The access stamp every key carries for eviction, Redis's 24-bit {@code robj.lru}: under an LRU
 * policy the LRU clock (seconds, 24 bits) of the last access; under an LFU policy the minutes
 * (16 bits) of the last decrement and a logarithmic 8-bit counter (evict.c's LFULogIncr and
 * LFUDecrAndReturn). Every lookup stamps the key it finds, so OBJECT IDLETIME and FREQ answer
 * under any maxmemory; the policy only chooses which of the two the stamp means, as in Redis,
 * where switching leaves the old stamps to be read the new way until keys are touched again.
 */
public final class KeyAccess {
    /** Redis's LRU_CLOCK_MAX: the clock wraps at 24 bits. */
    public static final int LRU_CLOCK_MAX = (1 << 24) - 1;
    /** Redis's LRU_CLOCK_RESOLUTION in ms. */
    public static final int LRU_CLOCK_RESOLUTION = 1000;
    /** Redis's LFU_INIT_VAL: a new key's counter, so it is not evicted before it had a chance to be used. */
    public static final int LFU_INIT_VAL = 5;
    private static final int LFU_COUNTER_MAX = 255;

    private boolean lfu;
    private int lfuLogFactor = 10;
    private int lfuDecayTime = 1;
    /** The clock and the minutes at the server's cached time, worked out once per batch rather than per lookup. */
    private int lruClock;
    private int minutes;
    /** A cheap generator for the LFU increment's coin (Redis's rand()); no need for a strong one. */
    private long seed = 0x9E3779B97F4A7C15L;

    KeyAccess() {
    }

    /** Whether stamps are LFU counters (an LFU maxmemory-policy), else LRU clocks. */
    public boolean isLfu() {
        return lfu;
    }

    /** maxmemory-policy's LFU flag, lfu-log-factor and lfu-decay-time (minutes). */
    public void configure(boolean lfu, int logFactor, int decayTime) {
        this.lfu = lfu;
        this.lfuLogFactor = logFactor;
        this.lfuDecayTime = decayTime;
    }

    void setTime(long nowMs) {
        lruClock = (int) (nowMs / LRU_CLOCK_RESOLUTION) & LRU_CLOCK_MAX;
        minutes = (int) (nowMs / 60_000) & 0xFFFF;
    }

    /** Redis's LRU_CLOCK() at the server's cached time. */
    public int lruClock() {
        return lruClock;
    }

    /** A new key's stamp (Redis's createObject). */
    int fresh() {
        return lfu ? minutes << 8 | LFU_INIT_VAL : lruClock;
    }

    /** The stamp of a key just accessed (Redis's lookupKey: updateLFU, or the LRU clock). */
    int touched(int stamp) {
        if (!lfu) {
            return lruClock;
        }
        return minutes << 8 | logIncrement(decremented(stamp));
    }

    /**
     * Redis's objectSetLRUOrLFU: the stamp of a key that RESTORE's IDLETIME or FREQ, or an RDB's
     * idle or frequency opcode, describes; -1 when the policy has no use for what was given (an
     * LFU counter under an LRU policy, or the reverse), so the key keeps its fresh stamp.
     */
    public int restored(long frequency, long idleSeconds) {
        if (lfu) {
            return frequency >= 0 ? minutes << 8 | (int) frequency : -1;
        }
        if (idleSeconds < 0) {
            return -1;
        }
        // A clock tick is a second (LRU_CLOCK_RESOLUTION); an idle time beyond the clock's reach
        // is taken as the oldest stamp, as Redis does.
        return idleSeconds <= lruClock ? (int) (lruClock - idleSeconds) : 0;
    }

    /** Redis's LFULogIncr: the counter grows with probability 1 / ((counter - 5) * lfu-log-factor + 1). */
    private int logIncrement(int counter) {
        if (counter == LFU_COUNTER_MAX) {
            return counter;
        }
        seed += 0x9E3779B97F4A7C15L;
        long z = (seed ^ (seed >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        double r = ((z ^ (z >>> 31)) >>> 11) * 0x1.0p-53;
        double baseval = Math.max(0, counter - LFU_INIT_VAL);
        double p = 1.0 / (baseval * lfuLogFactor + 1);
        return r < p ? counter + 1 : counter;
    }

    /** Redis's LFUDecrAndReturn: the counter less one per lfu-decay-time minutes since the stamp. */
    public int decremented(int stamp) {
        int lastMinutes = stamp >>> 8;
        int counter = stamp & 0xFF;
        int now = minutes;
        int elapsed = now >= lastMinutes ? now - lastMinutes : 0xFFFF - lastMinutes + now;
        int periods = lfuDecayTime == 0 ? 0 : elapsed / lfuDecayTime;
        return periods > counter ? 0 : counter - periods;
    }

    /** Redis's estimateObjectIdleTime in ms, the clock having wrapped at most once. */
    public long idleMs(int stamp) {
        int clock = lruClock;
        long ticks = clock >= stamp ? clock - stamp : clock + (LRU_CLOCK_MAX - stamp);
        return ticks * LRU_CLOCK_RESOLUTION;
    }
}
