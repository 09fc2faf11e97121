package io.kvd.server.store;

import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * Redis's dict over entry ids: chained buckets in a power-of-two table, resized incrementally.
 * A resize allocates the new table and then moves the old one's buckets a few at a time, on every
 * lookup, insert and removal and in the server cron's time-bounded step, so no operation moves
 * the whole table. While resizing, entries live in either table: lookups check both, inserts go
 * where the rehash will find them (see {@link #insert}), and SCAN walks both with Redis's reverse-binary cursor, which keeps its
 * guarantee when the table grows or shrinks between calls.
 */
final class IncrementalHashTable {
    static final int MIN_BUCKETS = 16;
    /** Buckets moved per operation while resizing (Redis's _dictRehashStep). */
    private static final int BUCKETS_PER_OPERATION = 1;
    /** A rehash step gives up after this many empty buckets per bucket asked for (dictRehash). */
    private static final int EMPTY_VISITS_PER_BUCKET = 10;
    /** Buckets moved between clock reads in the time-bounded step (dictRehashMilliseconds). */
    private static final int BUCKETS_PER_CLOCK_READ = 100;
    /** Shrink once fewer than one bucket in this many holds an entry. */
    private static final int SHRINK_BELOW_ONE_IN = 8;
    /** Largest reservation honoured: its bucket count still fits an int. */
    private static final int MAX_RESERVED = 1 << 29;

    private final EntrySlab slab;
    /** Redis's ht_table[0]: while resizing, its buckets below {@link #rehashIndex} are empty. */
    private BucketTable main = new BucketTable(MIN_BUCKETS);
    /** Redis's ht_table[1]: the table being filled, or null when not resizing. */
    private BucketTable target;
    private int rehashIndex;
    private int size;
    /** Walks in progress (Redis's pauserehash): a lookup inside one must not move buckets under it. */
    private int rehashPaused;
    /** The table never shrinks below this many buckets: MIN_BUCKETS, or what {@link #reserve} asked for. */
    private int minLength = MIN_BUCKETS;

    private static final long INSTANCE = HeapSize.ofInstance(IncrementalHashTable.class);

    IncrementalHashTable(EntrySlab slab) {
        this.slab = slab;
    }

    /** Heap bytes of the buckets, both tables' while resizing (the entries are the slab's). */
    long memoryUsage() {
        return INSTANCE + main.memoryUsage() + (target == null ? 0 : target.memoryUsage());
    }

    int size() {
        return size;
    }

    boolean resizing() {
        return target != null;
    }

    boolean growing() {
        return target != null && target.length() > main.length();
    }

    /** The id of the entry whose key is {@code key}, or 0. */
    int find(byte[] key, int hash) {
        rehash(BUCKETS_PER_OPERATION);
        int id = findIn(main, key, hash);
        if (id == 0 && target != null) {
            id = findIn(target, key, hash);
        }
        return id;
    }

    /**
     * Reads the buckets of {@code hashes}, then the chain heads they hold, for {@link Keyspace#prefetch}:
     * no load of a pass waits for another, so the CPU has all of a pass's cache misses in flight
     * at once. Only the table lookups start in is read (while resizing, the old one, or its moved
     * part's empty buckets). Returns the sum of the heads' hashes, for the caller to keep: the JIT
     * drops loads whose values go nowhere.
     */
    int prefetch(int[] hashes, int[] heads, int count) {
        int mask = main.mask();
        for (int i = 0; i < count; i++) {
            heads[i] = main.head(hashes[i] & mask);
        }
        int sum = 0;
        for (int i = 0; i < count; i++) {
            if (heads[i] != 0) {
                sum += slab.hash(heads[i]);
            }
        }
        return sum;
    }

    private int findIn(BucketTable table, byte[] key, int hash) {
        for (int id = table.head(hash & table.mask()); id != 0; id = slab.next(id)) {
            if (slab.hash(id) == hash && slab.hasKey(id, key)) {
                return id;
            }
        }
        return 0;
    }

    /**
     * Adds an entry that is not in the table yet. While resizing, an entry whose old bucket the
     * rehash has not reached goes there, to move with the bucket later (Redis puts every new key
     * in the new table): so the new table's chunks are first written in rehash order, a few at a
     * time, instead of all within microseconds of the resize by keys landing at random. Allocating
     * a 2^23-bucket table's 32 chunks at once outran the region allocator, and the loop zeroed
     * them itself, up to 11 ms each.
     */
    void insert(int id, int hash) {
        BucketTable table = target == null || (hash & main.mask()) >= rehashIndex ? main : target;
        int bucket = hash & table.mask();
        slab.setNext(id, table.head(bucket));
        table.setHead(bucket, id);
        size++;
        resizeIfNeeded();
    }

    /** Unlinks an entry that is in the table. */
    void remove(int id, int hash) {
        if (!unlink(main, id, hash)) {
            unlink(target, id, hash);
        }
        size--;
        resizeIfNeeded();
    }

    private boolean unlink(BucketTable table, int id, int hash) {
        int bucket = hash & table.mask();
        int head = table.head(bucket);
        if (head == id) {
            table.setHead(bucket, slab.next(id));
            return true;
        }
        for (int prev = head; prev != 0; prev = slab.next(prev)) {
            if (slab.next(prev) == id) {
                slab.setNext(prev, slab.next(id));
                return true;
            }
        }
        return false;
    }

    /**
     * Keeps at least enough buckets for {@code entries} until called again (0 releases it, and a
     * table left sparse then shrinks): a load that knows about how many entries are coming sizes
     * the table once instead of growing it ~20 times, each growth moving every entry (Redis
     * expands its dict by the key count an RDB file announces).
     */
    void reserve(int entries) {
        minLength = Math.max(MIN_BUCKETS, bucketsFor(Math.min(entries, MAX_RESERVED)));
        resizeIfNeeded();
    }

    /**
     * Starts a resize when the load leaves [1/8, 1] or the table is below its reserved length:
     * growing to the next power of two above the size, shrinking to the smallest one that holds
     * it (never below the reservation). Each lands inside the range, so a finished resize never
     * asks for another unless the size or the reservation moved meanwhile.
     */
    private void resizeIfNeeded() {
        if (target != null) {
            return;
        }
        int length = main.length();
        if (size > length || length < minLength || length > minLength && size < length / SHRINK_BELOW_ONE_IN) {
            target = new BucketTable(Math.max(minLength, bucketsFor(size)));
            rehashIndex = 0;
        }
    }

    /** The smallest power of two that holds {@code entries} at a load of at most 1. */
    private static int bucketsFor(int entries) {
        return Integer.highestOneBit(Math.max(entries, 1) * 2 - 1);
    }

    /** Moves up to {@code buckets} non-empty buckets to the new table; true if a resize is still going on. */
    boolean rehash(int buckets) {
        if (rehashPaused > 0) {
            return target != null;
        }
        int emptyVisits = buckets * EMPTY_VISITS_PER_BUCKET;
        while (target != null && buckets > 0) {
            if (main.head(rehashIndex) != 0) {
                moveBucket(rehashIndex);
                buckets--;
            } else if (--emptyVisits < 0) {
                return true;
            }
            if (main.endsChunk(rehashIndex)) {
                main.releaseChunkOf(rehashIndex);
            }
            if (++rehashIndex == main.length()) {
                finishResize();
            }
        }
        return target != null;
    }

    private void moveBucket(int bucket) {
        int mask = target.mask();
        for (int id = main.head(bucket); id != 0; ) {
            int next = slab.next(id);
            int to = slab.hash(id) & mask;
            slab.setNext(id, target.head(to));
            target.setHead(to, id);
            id = next;
        }
        main.setHead(bucket, 0);
    }

    private void finishResize() {
        main = target;
        target = null;
        rehashIndex = 0;
        resizeIfNeeded();
    }

    /** Rehashes for about {@code budgetNanos} (the server cron's share, as Redis's activerehashing). */
    void rehashFor(long budgetNanos) {
        long start = System.nanoTime();
        while (rehash(BUCKETS_PER_CLOCK_READ)) {
            if (System.nanoTime() - start >= budgetNanos) {
                return;
            }
        }
    }

    /**
     * A random entry id, 0 if empty: a random non-empty bucket of either table (skipping the
     * old table's moved part), then a random entry of its chain, as Redis's dictGetRandomKey.
     */
    int randomId(SplittableRandom random) {
        if (size == 0) {
            return 0;
        }
        int head;
        if (target == null) {
            do {
                head = main.head(random.nextInt(main.length()));
            } while (head == 0);
        } else {
            long span = (long) main.length() + target.length() - rehashIndex;
            do {
                long bucket = rehashIndex + random.nextLong(span);
                head = bucket >= main.length() ? target.head((int) (bucket - main.length())) : main.head((int) bucket);
            } while (head == 0);
        }
        int length = 0;
        for (int id = head; id != 0; id = slab.next(id)) {
            length++;
        }
        int id = head;
        for (int i = random.nextInt(length); i > 0; i--) {
            id = slab.next(id);
        }
        return id;
    }

    /**
     * Redis's dictGetSomeKeys: up to {@code count} ids into {@code out} from consecutive buckets
     * starting at a random one, jumping to another after a run of empty buckets, at most
     * {@code count} × 10 buckets; returns how many. Adjacent buckets are adjacent memory, so this
     * is cheaper than {@code count} random draws, and, as Redis's, not uniform. While resizing it
     * draws with {@link #randomId} instead.
     */
    int someIds(int[] out, int count, SplittableRandom random) {
        if (size == 0) {
            return 0;
        }
        if (target != null) {
            for (int i = 0; i < count; i++) {
                out[i] = randomId(random);
            }
            return count;
        }
        int mask = main.length() - 1;
        int bucket = random.nextInt(main.length());
        int stored = 0;
        int empty = 0;
        for (int steps = count * 10; steps > 0 && stored < count; steps--) {
            int id = main.head(bucket);
            if (id == 0) {
                if (++empty >= 5 && empty > count) {
                    bucket = random.nextInt(main.length());
                    empty = 0;
                    continue;
                }
            } else {
                empty = 0;
                for (; id != 0 && stored < count; id = slab.next(id)) {
                    out[stored++] = id;
                }
            }
            bucket = (bucket + 1) & mask;
        }
        return stored;
    }

    /**
     * Every entry once. As Redis's safe iterator, the rehash waits meanwhile: a visitor that looks
     * keys up (DEBUG DIGEST reads each value) would move a visited bucket into the new table,
     * visited again there, and an unvisited one below the walk.
     */
    void forEach(IntConsumer visitor) {
        rehashPaused++;
        try {
            forEachIn(main, visitor);
            if (target != null) {
                forEachIn(target, visitor);
            }
        } finally {
            rehashPaused--;
        }
    }

    private void forEachIn(BucketTable table, IntConsumer visitor) {
        for (int bucket = 0; bucket < table.length(); bucket++) {
            visitChain(table, bucket, visitor);
        }
    }

    private void visitChain(BucketTable table, int bucket, IntConsumer visitor) {
        for (int id = table.head(bucket); id != 0; id = slab.next(id)) {
            visitor.accept(id);
        }
    }

    /**
     * Visits the bucket the cursor names (in both tables while resizing: the smaller table's
     * bucket, then every bucket of the larger one that it expands to) and returns the next
     * cursor, 0 when done. Redis's dictScan.
     */
    long scan(long cursor, IntConsumer visitor) {
        if (target == null) {
            long mask = main.mask();
            visitChain(main, (int) (cursor & mask), visitor);
            return nextCursor(cursor, mask);
        }
        BucketTable small = main.length() <= target.length() ? main : target;
        BucketTable large = small == main ? target : main;
        long smallMask = small.mask();
        long largeMask = large.mask();
        visitChain(small, (int) (cursor & smallMask), visitor);
        do {
            visitChain(large, (int) (cursor & largeMask), visitor);
            cursor = nextCursor(cursor, largeMask);
        } while ((cursor & (smallMask ^ largeMask)) != 0);
        return cursor;
    }

    /** Increments the cursor's bits under {@code mask} from the top down (reverse binary). */
    private static long nextCursor(long cursor, long mask) {
        cursor |= ~mask;
        cursor = Long.reverse(cursor);
        cursor++;
        return Long.reverse(cursor);
    }

    /**
     * Every entry in the bucket its hash names in the table it is in, none twice, none in the
     * moved part of the old table, the size right, and the load inside [1/8, 1] when not resizing.
     */
    void checkInvariants() {
        int entries = checkTable(main, rehashIndex);
        if (target != null) {
            Invariants.check(rehashIndex < main.length(), "rehash index past the old table");
            entries += checkTable(target, 0);
        } else {
            Invariants.check(rehashIndex == 0, "rehash index set while not resizing");
            Invariants.check(size <= main.length(), "load factor above 1 after a resize");
            Invariants.check(main.length() >= minLength, "table below its reserved length");
            Invariants.check(main.length() == minLength || size >= main.length() / SHRINK_BELOW_ONE_IN,
                    "table not shrunk");
        }
        Invariants.check(entries == size, "size " + size + " but " + entries + " entries in the buckets");
    }

    private int checkTable(BucketTable table, int firstLiveBucket) {
        Invariants.check(Integer.bitCount(table.length()) == 1 && table.length() >= MIN_BUCKETS,
                "bucket count " + table.length());
        int entries = 0;
        for (int bucket = 0; bucket < table.length(); bucket++) {
            for (int id = table.head(bucket); id != 0; id = slab.next(id)) {
                Invariants.check(bucket >= firstLiveBucket, "entry left in a moved bucket");
                Invariants.check(slab.isLive(id), "freed id " + id + " in a chain");
                Invariants.check((slab.hash(id) & table.mask()) == bucket, "entry in the wrong bucket");
                Invariants.check(++entries <= size, "more entries in the chains than the size (a cycle?)");
            }
        }
        return entries;
    }
}
