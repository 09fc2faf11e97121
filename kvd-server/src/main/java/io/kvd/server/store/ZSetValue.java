package io.kvd.server.store;

import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.function.ObjDoubleConsumer;

/**
 * The sorted set stored under one key, for the command running: got from {@link Keyspace#zset}
 * or {@link Keyspace#zsetForWrite} and dropped when the command ends. Members are ordered by
 * (score, member bytes) and addressed by rank, 0 the lowest; a sorted set whose last member is
 * removed is deleted. Members handed out are copies.
 *
 * <p>A small sorted set is a listpack of member, score (8 bytes) pairs in that order
 * ({@link Encoding#ZSET_LISTPACK}), decoded into arrays once per command that reads it; past
 * zset-max-listpack-entries or -value it moves to a {@link MemberTable} of member to score with
 * its {@link ScoreOrder} ({@link Encoding#ZSET_SKIPLIST}) and stays there.
 */
public final class ZSetValue extends StoredCollection {
    /** The compact set, decoded: members and scores by rank; null until first needed, or for a table. */
    private byte[][] members;
    private double[] scores;
    private int count;
    /** A new set told it will be large ({@link #expect}): its first member creates a table. */
    private boolean startAsTable;

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    ZSetValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        super(keyspace, key, id, encoding, packed, table);
    }

    public int size() {
        if (table != null) {
            return table.size();
        }
        return packed == null ? 0 : Listpack.count(packed) / 2;
    }

    /** The member's score, or NaN when it is absent (a score is never NaN). */
    public double score(byte[] member) {
        if (table != null) {
            byte[] value = table.get(member);
            return value == null ? Double.NaN : MemberTable.score(value);
        }
        int index = indexOf(member);
        return index < 0 ? Double.NaN : scores[index];
    }

    /** The member's rank (0 the lowest score), or -1. */
    public int rank(byte[] member) {
        if (table != null) {
            int memberId = table.id(member);
            return memberId == 0 ? -1 : table.order().rankOf(table.order().score(memberId), member);
        }
        return indexOf(member);
    }

    /** The member at {@code rank}, 0 to size() - 1. */
    public byte[] memberAt(int rank) {
        if (table != null) {
            return table.member(table.order().select(rank));
        }
        decode();
        return members[rank].clone();
    }

    /** The score at {@code rank}. */
    public double scoreAt(int rank) {
        if (table != null) {
            return table.order().score(table.order().select(rank));
        }
        decode();
        return scores[rank];
    }

    /** How many members score below {@code score}, or at most it when {@code inclusive}. */
    public int countBelow(double score, boolean inclusive) {
        if (table != null) {
            return table.order().countBelow(score, inclusive);
        }
        decode();
        int below = 0;
        while (below < count && (scores[below] < score || inclusive && scores[below] == score)) {
            below++;
        }
        return below;
    }

    /** A member {@link #walkFrom} visits: its score, and its bytes only when asked for. */
    public final class Visit {
        private int at;
        private double score;

        public double score() {
            return score;
        }

        /** The member's bytes, a copy. */
        public byte[] member() {
            return table != null ? table.member(at) : members[at].clone();
        }
    }

    /**
     * Visits the members scoring at least {@code min} in ascending order while {@code visitor}
     * returns true (GEOSEARCH's walks of score ranges): in a table one descent, not one per rank.
     */
    public void walkFrom(double min, Predicate<Visit> visitor) {
        Visit visit = new Visit();
        if (table != null) {
            ScoreOrder order = table.order();
            order.walkFrom(min, id -> {
                visit.at = id;
                visit.score = order.score(id);
                return visitor.test(visit);
            });
            return;
        }
        for (int i = countBelow(min, false); i < count; i++) {
            visit.at = i;
            visit.score = scores[i];
            if (!visitor.test(visit)) {
                return;
            }
        }
    }

    /** How many members sort below {@code member} as bytes, or at most it; for ranges by lex (equal scores). */
    public int countBelowLex(byte[] member, boolean inclusive) {
        if (table != null) {
            return table.order().countBelowLex(member, inclusive);
        }
        decode();
        int below = 0;
        while (below < count) {
            int c = Arrays.compareUnsigned(members[below], member);
            if (c > 0 || c == 0 && !inclusive) {
                break;
            }
            below++;
        }
        return below;
    }

    /**
     * Sets the member's score; true if the member is new. A member longer than
     * zset-max-listpack-value, or one more than zset-max-listpack-entries, converts a listpack
     * first (Redis's zsetAdd).
     */
    public boolean put(byte[] member, double score) {
        EncodingLimits limits = keyspace.limits();
        if (startAsTable && table == null && packed == null) {
            convertToTable();
        }
        if (table == null) {
            decode();
            int index = indexOf(member);
            if (index >= 0) {
                if (scores[index] == score) {
                    return false;
                }
                removeAt(index);
                insertSorted(member, score);
                store(Encoding.ZSET_LISTPACK, encode());
                return false;
            }
            if (count + 1 > limits.zsetMaxListpackEntries() || member.length > limits.zsetMaxListpackValue()) {
                convertToTable();
            } else {
                insertSorted(member, score);
                store(Encoding.ZSET_LISTPACK, encode());
                return true;
            }
        }
        byte[] old = table.get(member);
        if (old != null && MemberTable.score(old) == score) {
            return false;
        }
        keyspace.beforeTableChange(id);
        table.put(member, MemberTable.scoreBytes(score));
        return old == null;
    }

    /**
     * A set about to be created with up to {@code members} members, the longest
     * {@code maxMemberLength} bytes, starts as a table when that passes the listpack limits
     * (Redis's zsetTypeCreate): so a skip list keeps a score of -0 that a listpack would have made 0.
     * No effect on a set that exists.
     */
    public void expect(long members, int maxMemberLength) {
        EncodingLimits limits = keyspace.limits();
        startAsTable = members > limits.zsetMaxListpackEntries() || maxMemberLength > limits.zsetMaxListpackValue();
    }

    /** Removes the member; true if it was there. Removing the last member deletes the key. */
    public boolean remove(byte[] member) {
        if (table != null) {
            if (!table.contains(member)) {
                return false;
            }
            if (table.size() == 1) {
                emptied();
            } else {
                keyspace.beforeTableChange(id);
                table.remove(member);
            }
            return true;
        }
        int index = indexOf(member);
        if (index < 0) {
            return false;
        }
        if (count == 1) {
            emptied();
        } else {
            removeAt(index);
            store(Encoding.ZSET_LISTPACK, encode());
        }
        return true;
    }

    /**
     * Removes the members of ranks {@code [from, to)}, as one write of a listpack; removing every
     * member deletes the key.
     */
    public void removeRange(int from, int to) {
        if (from >= to) {
            return;
        }
        if (to - from == size()) {
            emptied();
            return;
        }
        if (table != null) {
            keyspace.beforeTableChange(id);
            for (int i = from; i < to; i++) {
                table.remove(memberAt(from));
            }
            return;
        }
        decode();
        System.arraycopy(members, to, members, from, count - to);
        System.arraycopy(scores, to, scores, from, count - to);
        count -= to - from;
        store(Encoding.ZSET_LISTPACK, encode());
    }

    /** ZADD's pairs and the like, in one write of a listpack ({@link StoredCollection#applyAll}). */
    public int applyAll(byte[][] argv, int from, IntPredicate change) {
        return applyAll(argv, from, 2, change);
    }

    /**
     * ZSCAN's step: visits the members of the bucket the cursor names with their scores and
     * returns the next cursor, 0 when done; a listpack visits every member at once and returns 0.
     */
    public long scan(long cursor, ObjDoubleConsumer<byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, (member, score) -> visitor.accept(member, MemberTable.score(score)));
        }
        for (int rank = 0, size = size(); rank < size; rank++) {
            visitor.accept(memberAt(rank), scoreAt(rank));
        }
        return 0;
    }

    /** Whether the set is a listpack (its ZSCAN prints scores as the listpack stores them). */
    public boolean isCompact() {
        return table == null;
    }

    /** A number drawn at random from {@code [0, bound)}, from the keyspace's random source (ZRANDMEMBER). */
    public int random(int bound) {
        return keyspace.random().nextInt(bound);
    }

    /** A score as a snapshot's {@link KeyspaceSnapshot.Sink#members} hands it out. */
    public static double decodeScore(byte[] bytes) {
        return MemberTable.score(bytes);
    }

    private void emptied() {
        emptied(Encoding.ZSET_LISTPACK);
        members = null;
        scores = null;
        count = 0;
    }

    private void decode() {
        if (members != null || table != null) {
            return;
        }
        if (packed == null) {
            members = new byte[4][];
            scores = new double[4];
            count = 0;
            return;
        }
        count = Listpack.count(packed) / 2;
        members = new byte[Math.max(4, count)][];
        scores = new double[members.length];
        int at = Listpack.first(packed);
        for (int i = 0; i < count; i++) {
            members[i] = Listpack.element(packed, at);
            at = Listpack.next(packed, at);
            scores[i] = unpackScore(Listpack.element(packed, at));
            at = Listpack.next(packed, at);
        }
    }

    private int indexOf(byte[] member) {
        decode();
        for (int i = 0; i < count; i++) {
            if (Arrays.equals(members[i], member)) {
                return i;
            }
        }
        return -1;
    }

    private void removeAt(int index) {
        System.arraycopy(members, index + 1, members, index, count - index - 1);
        System.arraycopy(scores, index + 1, scores, index, count - index - 1);
        count--;
        members[count] = null;
    }

    private void insertSorted(byte[] member, double score) {
        int at = 0;
        while (at < count && (scores[at] < score || scores[at] == score && Arrays.compareUnsigned(members[at], member) < 0)) {
            at++;
        }
        if (count == members.length) {
            members = Arrays.copyOf(members, count * 2);
            scores = Arrays.copyOf(scores, count * 2);
        }
        System.arraycopy(members, at, members, at + 1, count - at);
        System.arraycopy(scores, at, scores, at + 1, count - at);
        members[at] = member.clone();
        // Redis's listpack keeps a score as text, which it reads back as the integer 0 for minus zero.
        scores[at] = score == 0 ? 0.0 : score;
        count++;
    }

    private byte[] encode() {
        int elements = 2 * count;
        int bytes = Varint.length(elements);
        for (int i = 0; i < count; i++) {
            bytes += Varint.length(members[i].length) + members[i].length + 1 + packedScoreLength(scores[i]);
        }
        byte[] listpack = new byte[bytes];
        int at = Varint.write(listpack, 0, elements);
        for (int i = 0; i < count; i++) {
            at = Varint.write(listpack, at, members[i].length);
            System.arraycopy(members[i], 0, listpack, at, members[i].length);
            at += members[i].length;
            int length = packedScoreLength(scores[i]);
            at = Varint.write(listpack, at, length);
            packScore(scores[i], listpack, at, length);
            at += length;
        }
        return listpack;
    }

    /**
     * A score in the listpack takes the bytes it needs, as Redis's listpack stores an integral
     * score as an integer: an integral value that fits 7 bytes is its two's complement in the
     * fewest little-endian bytes (none for 0); anything else (a fraction, -0, the infinities,
     * larger values) the double's 8 bytes. The element's length tells them apart.
     */
    private static int packedScoreLength(double score) {
        long integral = (long) score;
        if (integral != score || Double.doubleToRawLongBits(score) == Long.MIN_VALUE) {
            return 8;
        }
        if (integral == 0) {
            return 0;
        }
        for (int length = 1; length < 8; length++) {
            int unused = 64 - 8 * length;
            if (integral << unused >> unused == integral) {
                return length;
            }
        }
        return 8;
    }

    private static void packScore(double score, byte[] into, int at, int length) {
        if (length == 8) {
            System.arraycopy(MemberTable.scoreBytes(score), 0, into, at, 8);
            return;
        }
        long integral = (long) score;
        for (int i = 0; i < length; i++) {
            into[at + i] = (byte) (integral >>> (8 * i));
        }
    }

    private static double unpackScore(byte[] packed) {
        if (packed.length == 8) {
            return MemberTable.score(packed);
        }
        long value = 0;
        for (int i = 0; i < packed.length; i++) {
            value |= (packed[i] & 0xFFL) << (8 * i);
        }
        if (packed.length > 0) {
            int unused = 64 - 8 * packed.length;
            value = value << unused >> unused;
        }
        return value;
    }

    /**
     * Redis 7.0's SORT converts a listpack sorted set to a skip list for good, before it reads it;
     * a side effect that is no change to the set: not logged, not seen by WATCH.
     */
    public void convertForSort() {
        if (table != null || packed == null) {
            return;
        }
        decode();
        reencodeTable(Encoding.ZSET_SKIPLIST, toTable());
        members = null;
        scores = null;
        count = 0;
    }

    /** Moves the members into a table, for good (Redis never converts a sorted set back in place). */
    private void convertToTable() {
        storeTable(Encoding.ZSET_SKIPLIST, toTable());
        members = null;
        scores = null;
        count = 0;
    }

    private MemberTable toTable() {
        MemberTable converted = MemberTable.sorted();
        for (int i = 0; i < count; i++) {
            converted.put(members[i], MemberTable.scoreBytes(scores[i]));
        }
        return converted;
    }
}
