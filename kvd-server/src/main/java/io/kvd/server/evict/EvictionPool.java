package io.kvd.server.evict;

/**
 * Redis's eviction pool (evict.c's EVPOOL_SIZE entries of evictionPoolPopulate): candidates
 * from every database's samples, ordered by idleness ascending, so the best to evict is the
 * rightmost. It outlives each eviction, so good candidates found earlier are still there when the
 * next command needs room. A key sampled twice may sit in it twice, as in Redis: the second is
 * found gone when popped.
 */
final class EvictionPool {
    static final int SIZE = 16;

    private final long[] idle = new long[SIZE];
    private final byte[][] keys = new byte[SIZE][];
    private final int[] dbs = new int[SIZE];

    /** Whether {@link #offer} would keep a key this idle: the pool has room, or it is idler than the least idle. */
    boolean accepts(long keyIdle) {
        return keys[SIZE - 1] == null || idle[0] < keyIdle;
    }

    /** Offers a sampled key; kept if the pool has room or it is idler than the least idle one. */
    void offer(long keyIdle, byte[] key, int db) {
        int k = 0;
        while (k < SIZE && keys[k] != null && idle[k] < keyIdle) {
            k++;
        }
        if (k == 0 && keys[SIZE - 1] != null) {
            return;
        }
        // An empty slot at k takes it as it is; else room is made.
        if (k == SIZE || keys[k] != null) {
            if (keys[SIZE - 1] == null) {
                // Room on the right: what is at k and after moves one place right.
                shift(k, k + 1, SIZE - k - 1);
            } else {
                // Full: the least idle (leftmost) goes, what is before k moves one place left.
                k--;
                shift(1, 0, k);
            }
        }
        idle[k] = keyIdle;
        keys[k] = key;
        dbs[k] = db;
    }

    private void shift(int from, int to, int count) {
        System.arraycopy(idle, from, idle, to, count);
        System.arraycopy(keys, from, keys, to, count);
        System.arraycopy(dbs, from, dbs, to, count);
    }

    /** The rightmost occupied slot (the best candidate), or -1 when the pool is empty. */
    int best() {
        for (int k = SIZE - 1; k >= 0; k--) {
            if (keys[k] != null) {
                return k;
            }
        }
        return -1;
    }

    byte[] key(int slot) {
        return keys[slot];
    }

    int db(int slot) {
        return dbs[slot];
    }

    long idle(int slot) {
        return idle[slot];
    }

    /** Empties a slot (its key was popped); the others keep their places, as Redis's pool. */
    void clear(int slot) {
        keys[slot] = null;
        idle[slot] = 0;
    }

    /** Forgets every candidate (FLUSHALL, or a change of policy, whose ranks are not comparable). */
    void clear() {
        for (int k = 0; k < SIZE; k++) {
            clear(k);
        }
    }
}
