package io.kvd.server.store;

import java.util.SplittableRandom;
import java.util.function.BiConsumer;

/**
 * A large collection's members (a hash's fields with their values, a set's members with empty
 * values), as the keyspace keeps its keys: packed in pages, addressed by id, chained in an
 * incrementally rehashed table, so a million members are a few dozen arrays for the collector.
 * Each operation moves one bucket of a resize in progress (the server cron rehashes only the
 * keyspace, as Redis's activerehashing only the databases' dicts).
 *
 * <p>While a snapshot copies the members ({@link MemberWalk}), each change of a member tells it
 * first; a resize or a compaction of the pages moves no member's id and needs no care.
 */
final class MemberTable {
    private final EntrySlab slab = EntrySlab.withoutDeadlines();
    private final IncrementalHashTable table = new IncrementalHashTable(slab);
    /** The snapshot's walk over the members in progress; null when none runs. */
    private MemberWalk walk;
    /** A sorted set's members by score (each value the score's 8 bytes); null for a hash or a set. */
    private ScoreOrder order;

    private static final long INSTANCE = HeapSize.ofInstance(MemberTable.class);

    /**
     * Heap bytes of the members' pages, ids, buckets and, for a sorted set, its order: all arrays
     * whose lengths are known, so exact and without reading a member (a snapshot's walk, which
     * ends with the snapshot, is left out).
     */
    long memoryUsage() {
        return INSTANCE + slab.indexMemoryUsage() + slab.pagesMemoryUsage() + table.memoryUsage()
                + (order == null ? 0 : order.memoryUsage());
    }

    /** A sorted set's table: each member's value is its score ({@link #scoreBytes}), kept in {@link #order}. */
    static MemberTable sorted() {
        MemberTable table = new MemberTable();
        table.order = new ScoreOrder(table.slab);
        return table;
    }

    ScoreOrder order() {
        return order;
    }

    /** A copy of member {@code id}'s bytes. */
    byte[] member(int id) {
        return slab.key(id);
    }

    /** The member's id, or 0 if absent. */
    int id(byte[] member) {
        return table.find(member, PackedEntry.hash(member));
    }

    static byte[] scoreBytes(double score) {
        long bits = Double.doubleToRawLongBits(score);
        byte[] bytes = new byte[8];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (bits >>> (56 - 8 * i));
        }
        return bytes;
    }

    static double score(byte[] bytes) {
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits = bits << 8 | (bytes[i] & 0xff);
        }
        return Double.longBitsToDouble(bits);
    }

    int size() {
        return table.size();
    }

    /** The member's value, or null if absent. */
    byte[] get(byte[] member) {
        int id = table.find(member, PackedEntry.hash(member));
        return id == 0 ? null : slab.value(id);
    }

    boolean contains(byte[] member) {
        return table.find(member, PackedEntry.hash(member)) != 0;
    }

    /** Sets the member's value; true if the member is new. */
    boolean put(byte[] member, byte[] value) {
        int hash = PackedEntry.hash(member);
        int id = table.find(member, hash);
        if (id != 0) {
            if (walk != null) {
                walk.beforeChange(id);
            }
            if (order != null) {
                order.remove(id);
            }
            slab.setValue(id, value);
            if (order != null) {
                order.insert(id, score(value));
            }
            return false;
        }
        id = slab.allocate(member, value, hash);
        table.insert(id, hash);
        if (order != null) {
            order.insert(id, score(value));
        }
        if (walk != null) {
            walk.created(id);
        }
        return true;
    }

    boolean remove(byte[] member) {
        int hash = PackedEntry.hash(member);
        int id = table.find(member, hash);
        if (id == 0) {
            return false;
        }
        if (walk != null) {
            walk.beforeChange(id);
        }
        if (order != null) {
            order.remove(id);
        }
        table.remove(id, hash);
        slab.free(id);
        return true;
    }

    /**
     * Visits every member in id order, not bucket order: the slab and, mostly, the pages are then
     * read front to back, where the buckets' order jumps across both at random (a cache miss or
     * two per member: iterating 1 M members took ~450 ms that way). The order is as arbitrary to
     * clients as a hash table's.
     */
    void forEach(BiConsumer<byte[], byte[]> visitor) {
        for (int id = 1, end = slab.idLimit(); id < end; id++) {
            if (slab.isLive(id)) {
                visitor.accept(slab.key(id), slab.value(id));
            }
        }
    }

    /** Redis's dictScan over the members; the next cursor, 0 when done. */
    long scan(long cursor, BiConsumer<byte[], byte[]> visitor) {
        return table.scan(cursor, id -> visitor.accept(slab.key(id), slab.value(id)));
    }

    /** {@code {member, value}} drawn at random (Redis's dictGetFairRandomKey); the table must not be empty. */
    byte[][] random(SplittableRandom random) {
        int id = table.randomId(random);
        return new byte[][] {slab.key(id), slab.value(id)};
    }

    /**
     * Starts a snapshot's copy of the members as they are now, passed to {@code batch}, then the
     * end with {@code deadline}; step it with {@link MemberWalk#step}. One at a time.
     */
    MemberWalk startWalk(MemberBatch batch, long deadline) {
        walk = new MemberWalk(this, slab, batch, deadline);
        return walk;
    }

    void endWalk(MemberWalk ended) {
        if (walk == ended) {
            walk = null;
        }
    }

    /** A deep copy (COPY). */
    MemberTable copy() {
        MemberTable copy = order == null ? new MemberTable() : sorted();
        // Sized once up front instead of growing (and rehashing everything) a dozen times while filling.
        copy.table.reserve(size());
        forEach(copy::put);
        copy.table.reserve(0);
        return copy;
    }

    void checkInvariants() {
        table.checkInvariants();
        slab.checkInvariants(table.size());
        if (order != null) {
            order.checkInvariants(table.size());
        }
    }
}
