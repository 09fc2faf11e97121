package io.kvd.server.store;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The keyspace: keys to string values, each with an optional deadline (absolute Unix ms).
 *
 * <p>Only the event loop thread touches it, so nothing here is synchronized. It knows nothing of
 * sockets or RESP. Expired keys are never visible: every lookup checks the deadline against
 * {@link #now()}, the clock the server sets once per batch of commands (Redis's cached mstime).
 *
 * <p>Inside: a chained hash table with a power-of-two bucket array, so that {@link #scan} can use
 * Redis's reverse-binary cursor, plus a dense array of the entries that have a deadline, which
 * gives a uniformly random key with a TTL in O(1) for active expiry.
 */
public final class Keyspace {
    /** {@link #deadline} of a key that does not exist. */
    public static final long MISSING = -2;
    /** {@link #deadline} of a key without a TTL. */
    public static final long PERSISTENT = -1;

    private static final int MIN_BUCKETS = 16;

    private static final class Entry {
        final byte[] key;
        final int hash;
        byte[] value;
        long deadline = PERSISTENT;
        /** Index in {@link #withDeadline}, or -1. */
        int deadlineSlot = -1;
        Entry next;

        Entry(byte[] key, int hash, byte[] value) {
            this.key = key;
            this.hash = hash;
            this.value = value;
        }
    }

    private Entry[] buckets = new Entry[MIN_BUCKETS];
    private int size;
    private Entry[] withDeadline = new Entry[MIN_BUCKETS];
    private int deadlineCount;
    private long now;
    private long expiredKeys;
    private long changes;
    private Consumer<byte[]> expiryListener = key -> { };
    private final SplittableRandom random;

    public Keyspace(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Sets the time every deadline is compared with until the next call. */
    public void setTime(long nowMs) {
        this.now = nowMs;
    }

    public long now() {
        return now;
    }

    public int size() {
        return size;
    }

    public int sizeWithDeadline() {
        return deadlineCount;
    }

    /** Keys removed because their deadline passed, lazily or actively, since start. */
    public long expiredKeys() {
        return expiredKeys;
    }

    /**
     * Counts the changes made through this API (not expiry): a write command that left it as it
     * was changed nothing (Redis's server.dirty), so the AOF does not log it.
     */
    public long changes() {
        return changes;
    }

    /** Called with each key removed because its deadline passed (the AOF logs a DEL, as Redis propagates one). */
    public void onExpired(Consumer<byte[]> listener) {
        this.expiryListener = listener;
    }

    /** CONFIG RESETSTAT: counts expired keys from zero again. */
    public void resetExpiredKeys() {
        expiredKeys = 0;
    }

    /** The value of a live key, or null. */
    public byte[] get(byte[] key) {
        Entry e = lookup(key);
        return e == null ? null : e.value;
    }

    public boolean exists(byte[] key) {
        return lookup(key) != null;
    }

    /** Sets the value and the deadline ({@link #PERSISTENT} for none), replacing any old key. */
    public void put(byte[] key, byte[] value, long deadline) {
        changes++;
        Entry e = lookup(key);
        if (e == null) {
            e = insert(key, value);
        } else {
            e.value = value;
        }
        setDeadline(e, deadline);
    }

    /** Sets the value and keeps the key's deadline, if the key is live; else creates it without one. */
    public void putKeepingDeadline(byte[] key, byte[] value) {
        changes++;
        Entry e = lookup(key);
        if (e == null) {
            insert(key, value);
        } else {
            e.value = value;
        }
    }

    /** Removes a live key; true if there was one. */
    public boolean remove(byte[] key) {
        Entry e = lookup(key);
        if (e == null) {
            return false;
        }
        changes++;
        unlink(e);
        return true;
    }

    /** The key's absolute deadline in ms, {@link #PERSISTENT} or {@link #MISSING}. */
    public long deadline(byte[] key) {
        Entry e = lookup(key);
        return e == null ? MISSING : e.deadline;
    }

    /** Sets a live key's deadline ({@link #PERSISTENT} removes it); false if the key is missing. */
    public boolean setDeadline(byte[] key, long deadline) {
        Entry e = lookup(key);
        if (e == null) {
            return false;
        }
        changes++;
        setDeadline(e, deadline);
        return true;
    }

    /** Moves a live key's value and deadline to {@code to}, replacing whatever was there. */
    public boolean rename(byte[] from, byte[] to) {
        Entry e = lookup(from);
        if (e == null) {
            return false;
        }
        changes++;
        byte[] value = e.value;
        long deadline = e.deadline;
        unlink(e);
        put(to, value, deadline);
        return true;
    }

    public void clear() {
        changes++;
        buckets = new Entry[MIN_BUCKETS];
        withDeadline = new Entry[MIN_BUCKETS];
        size = 0;
        deadlineCount = 0;
    }

    /**
     * A random live key, or null when the keyspace is empty: a random non-empty bucket, then a
     * random entry of its chain (Redis's dictGetFairRandomKey is as nearly uniform); expired keys
     * met on the way are removed, as Redis's RANDOMKEY does.
     */
    public byte[] randomKey() {
        while (size > 0) {
            Entry e = randomEntry();
            if (!expireIfDue(e)) {
                return e.key;
            }
        }
        return null;
    }

    /**
     * Looks at {@code samples} keys drawn uniformly from those with a deadline and removes the
     * expired ones. Returns how many were removed; {@code ttlSum} gets the remaining TTLs of the
     * live ones sampled, for INFO's avg_ttl estimate.
     */
    public int expireSample(int samples, long[] ttlSum) {
        int expired = 0;
        for (int i = 0; i < samples && deadlineCount > 0; i++) {
            Entry e = withDeadline[random.nextInt(deadlineCount)];
            if (expireIfDue(e)) {
                expired++;
            } else {
                ttlSum[0] += e.deadline - now;
                ttlSum[1]++;
            }
        }
        return expired;
    }

    /** Removes every key whose deadline has passed (after an AOF replay); returns how many. */
    public int removeExpired() {
        int removed = 0;
        // Downwards: removing slot i moves the last entry, already visited, into it.
        for (int i = deadlineCount - 1; i >= 0; i--) {
            if (expireIfDue(withDeadline[i])) {
                removed++;
            }
        }
        return removed;
    }

    /** Calls {@code visitor} with every live key; the visitor must not change the keyspace. */
    public void forEachKey(Consumer<byte[]> visitor) {
        for (Entry head : buckets) {
            for (Entry e = head; e != null; e = e.next) {
                if (!isDue(e)) {
                    visitor.accept(e.key);
                }
            }
        }
    }

    /**
     * Visits the keys of the bucket the cursor names and returns the next cursor (0 when done).
     * Redis's reverse-binary cursor: a key present for the whole scan is visited at least once,
     * even when the table grows or shrinks between calls. The visitor must not change the keyspace.
     */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        long mask = buckets.length - 1;
        for (Entry e = buckets[(int) (cursor & mask)]; e != null; e = e.next) {
            if (!isDue(e)) {
                visitor.accept(e.key);
            }
        }
        cursor |= ~mask;
        cursor = Long.reverse(cursor);
        cursor++;
        return Long.reverse(cursor);
    }

    private Entry lookup(byte[] key) {
        int hash = hash(key);
        for (Entry e = buckets[hash & (buckets.length - 1)]; e != null; e = e.next) {
            if (e.hash == hash && Arrays.equals(e.key, key)) {
                return expireIfDue(e) ? null : e;
            }
        }
        return null;
    }

    /** Redis's keyIsExpired: a key lives through its deadline's own millisecond. */
    private boolean isDue(Entry e) {
        return e.deadline != PERSISTENT && e.deadline < now;
    }

    private boolean expireIfDue(Entry e) {
        if (!isDue(e)) {
            return false;
        }
        unlink(e);
        expiredKeys++;
        expiryListener.accept(e.key);
        return true;
    }

    private Entry insert(byte[] key, byte[] value) {
        Entry e = new Entry(key, hash(key), value);
        int slot = e.hash & (buckets.length - 1);
        e.next = buckets[slot];
        buckets[slot] = e;
        if (++size > buckets.length) {
            resize(buckets.length * 2);
        }
        return e;
    }

    private void unlink(Entry e) {
        int slot = e.hash & (buckets.length - 1);
        if (buckets[slot] == e) {
            buckets[slot] = e.next;
        } else {
            Entry prev = buckets[slot];
            while (prev.next != e) {
                prev = prev.next;
            }
            prev.next = e.next;
        }
        setDeadline(e, PERSISTENT);
        size--;
        if (buckets.length > MIN_BUCKETS && size < buckets.length / 8) {
            resize(buckets.length / 2);
        }
    }

    private void setDeadline(Entry e, long deadline) {
        if (deadline == PERSISTENT) {
            if (e.deadlineSlot >= 0) {
                Entry last = withDeadline[--deadlineCount];
                withDeadline[e.deadlineSlot] = last;
                last.deadlineSlot = e.deadlineSlot;
                withDeadline[deadlineCount] = null;
                e.deadlineSlot = -1;
                if (withDeadline.length > MIN_BUCKETS && deadlineCount < withDeadline.length / 4) {
                    withDeadline = Arrays.copyOf(withDeadline, withDeadline.length / 2);
                }
            }
        } else if (e.deadlineSlot < 0) {
            if (deadlineCount == withDeadline.length) {
                withDeadline = Arrays.copyOf(withDeadline, deadlineCount * 2);
            }
            e.deadlineSlot = deadlineCount;
            withDeadline[deadlineCount++] = e;
        }
        e.deadline = deadline;
    }

    private Entry randomEntry() {
        Entry head;
        do {
            head = buckets[random.nextInt(buckets.length)];
        } while (head == null);
        int length = 0;
        for (Entry e = head; e != null; e = e.next) {
            length++;
        }
        Entry e = head;
        for (int i = random.nextInt(length); i > 0; i--) {
            e = e.next;
        }
        return e;
    }

    private void resize(int bucketCount) {
        Entry[] old = buckets;
        Entry[] fresh = new Entry[bucketCount];
        for (Entry head : old) {
            for (Entry e = head; e != null; ) {
                Entry next = e.next;
                int slot = e.hash & (bucketCount - 1);
                e.next = fresh[slot];
                fresh[slot] = e;
                e = next;
            }
        }
        buckets = fresh;
    }

    private static int hash(byte[] key) {
        int h = Arrays.hashCode(key);
        return h ^ (h >>> 16);
    }

    /**
     * Walks the whole structure and throws if it is inconsistent: every entry in the bucket its
     * hash names, the size right, the load factor kept, and the deadline array holding exactly the
     * entries with a deadline, each knowing its own slot. For tests; O(size).
     */
    public void checkInvariants() {
        int entries = 0;
        int withDeadlineSeen = 0;
        for (int slot = 0; slot < buckets.length; slot++) {
            for (Entry e = buckets[slot]; e != null; e = e.next) {
                entries++;
                check(e.hash == hash(e.key), "stored hash differs from the key's hash");
                check((e.hash & (buckets.length - 1)) == slot, "entry in the wrong bucket");
                if (e.deadline == PERSISTENT) {
                    check(e.deadlineSlot == -1, "persistent entry holds a deadline slot");
                } else {
                    withDeadlineSeen++;
                    check(e.deadlineSlot >= 0 && e.deadlineSlot < deadlineCount
                            && withDeadline[e.deadlineSlot] == e, "entry's deadline slot is wrong");
                }
            }
        }
        check(entries == size, "size " + size + " but " + entries + " entries in the buckets");
        check(withDeadlineSeen == deadlineCount,
                "deadline count " + deadlineCount + " but " + withDeadlineSeen + " entries with a deadline");
        for (int i = deadlineCount; i < withDeadline.length; i++) {
            check(withDeadline[i] == null, "stale entry past the end of the deadline array");
        }
        check(size <= buckets.length, "load factor above 1");
        check(buckets.length == MIN_BUCKETS || size >= buckets.length / 8, "table not shrunk");
        check(Integer.bitCount(buckets.length) == 1, "bucket count not a power of two");
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("keyspace invariant broken: " + message);
        }
    }
}
