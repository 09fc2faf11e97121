package io.kvd.server.store;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * The order of a large sorted set's members by (score, member bytes): a treap over the member ids
 * of its {@link MemberTable}, kept in parallel arrays indexed by id (children, subtree sizes,
 * scores) instead of one node object per member as Redis's skip list has. Subtree sizes give rank
 * and select in O(log n) expected, as the skip list's spans do; a member's bytes are read from the
 * table's slab only to break a tie of scores.
 */
final class ScoreOrder {
    private final EntrySlab slab;
    private int[] left = new int[16];
    private int[] right = new int[16];
    private int[] sizes = new int[16];
    private double[] scores = new double[16];
    private int root;
    /** {@link #splitByKey}'s two results. */
    private int splitBelow;
    private int splitAbove;

    private static final long INSTANCE = HeapSize.ofInstance(ScoreOrder.class);

    ScoreOrder(EntrySlab slab) {
        this.slab = slab;
    }

    /** Heap bytes of the treap's arrays (the members are the slab's). */
    long memoryUsage() {
        return INSTANCE + HeapSize.of(left) + HeapSize.of(right) + HeapSize.of(sizes) + HeapSize.of(scores);
    }

    int size() {
        return sizes[root];
    }

    double score(int id) {
        return scores[id];
    }

    void insert(int id, double score) {
        if (id >= scores.length) {
            int length = Math.max(id + 1, scores.length * 2);
            left = Arrays.copyOf(left, length);
            right = Arrays.copyOf(right, length);
            sizes = Arrays.copyOf(sizes, length);
            scores = Arrays.copyOf(scores, length);
        }
        scores[id] = score;
        left[id] = 0;
        right[id] = 0;
        sizes[id] = 1;
        root = insertAt(root, id, score, slab.key(id));
    }

    /**
     * One descent: down to where the new member's priority puts it above the subtree there, which
     * it splits by key into its children; every node passed counts one more below it.
     */
    private int insertAt(int node, int id, double score, byte[] member) {
        if (node == 0) {
            return id;
        }
        if (priority(id) > priority(node)) {
            splitByKey(node, score, member);
            left[id] = splitBelow;
            right[id] = splitAbove;
            update(id);
            return id;
        }
        if (ordersBefore(node, score, member)) {
            right[node] = insertAt(right[node], id, score, member);
        } else {
            left[node] = insertAt(left[node], id, score, member);
        }
        sizes[node]++;
        return node;
    }

    /** Splits the subtree at {@code node} into the members before (score, member) and those after, into {@link #splitBelow} and {@link #splitAbove}. */
    private void splitByKey(int node, double score, byte[] member) {
        if (node == 0) {
            splitBelow = 0;
            splitAbove = 0;
            return;
        }
        if (ordersBefore(node, score, member)) {
            splitByKey(right[node], score, member);
            right[node] = splitBelow;
            update(node);
            splitBelow = node;
        } else {
            splitByKey(left[node], score, member);
            left[node] = splitAbove;
            update(node);
            splitAbove = node;
        }
    }

    /** Removes member {@code id}, still live in the slab: one descent to it, its children merged in its place. */
    void remove(int id) {
        root = removeAt(root, id, scores[id], slab.key(id));
    }

    private int removeAt(int node, int id, double score, byte[] member) {
        if (node == id) {
            return merge(left[id], right[id]);
        }
        if (ordersBefore(node, score, member)) {
            right[node] = removeAt(right[node], id, score, member);
        } else {
            left[node] = removeAt(left[node], id, score, member);
        }
        sizes[node]--;
        return node;
    }

    /** Whether member {@code node} orders before (score, member): by score, a tie by the member's bytes. */
    private boolean ordersBefore(int node, double score, byte[] member) {
        int c = compareScores(scores[node], score);
        return c < 0 || c == 0 && slab.compareKey(node, member) < 0;
    }

    /** The id at rank {@code rank} (0-based, ascending). */
    int select(int rank) {
        int node = root;
        while (true) {
            int l = sizes[left[node]];
            if (rank < l) {
                node = left[node];
            } else if (rank == l) {
                return node;
            } else {
                rank -= l + 1;
                node = right[node];
            }
        }
    }

    /**
     * Visits the ids scoring at least {@code min} in order while {@code visitor} returns true: one
     * descent by score, then in-order steps, instead of a count of the ranks below and a
     * {@link #select} per rank.
     */
    void walkFrom(double min, IntPredicate visitor) {
        // The nodes still to visit, the next on top: the path's nodes whose left side is being walked.
        int[] pending = new int[32];
        int depth = 0;
        for (int node = root; node != 0; ) {
            if (scores[node] < min) {
                node = right[node];
            } else {
                pending = push(pending, depth++, node);
                node = left[node];
            }
        }
        while (depth > 0) {
            int id = pending[--depth];
            if (!visitor.test(id)) {
                return;
            }
            for (int next = right[id]; next != 0; next = left[next]) {
                pending = push(pending, depth++, next);
            }
        }
    }

    private static int[] push(int[] stack, int at, int id) {
        if (at == stack.length) {
            stack = Arrays.copyOf(stack, at * 2);
        }
        stack[at] = id;
        return stack;
    }

    /** How many members order before (score, member). */
    int rankOf(double score, byte[] member) {
        int count = 0;
        int node = root;
        while (node != 0) {
            int c = compareScores(scores[node], score);
            if (c == 0) {
                c = slab.compareKey(node, member);
            }
            if (c < 0) {
                count += sizes[left[node]] + 1;
                node = right[node];
            } else {
                node = left[node];
            }
        }
        return count;
    }

    /** How many members score below {@code score} (or at most it, {@code inclusive}). */
    int countBelow(double score, boolean inclusive) {
        int count = 0;
        int node = root;
        while (node != 0) {
            if (scores[node] < score || inclusive && scores[node] == score) {
                count += sizes[left[node]] + 1;
                node = right[node];
            } else {
                node = left[node];
            }
        }
        return count;
    }

    /** How many members sort below {@code member} as bytes (or at most it); meaningful when all scores are equal. */
    int countBelowLex(byte[] member, boolean inclusive) {
        int count = 0;
        int node = root;
        while (node != 0) {
            int c = slab.compareKey(node, member);
            if (c < 0 || inclusive && c == 0) {
                count += sizes[left[node]] + 1;
                node = right[node];
            } else {
                node = left[node];
            }
        }
        return count;
    }

    /** Scores compared as C compares doubles: -0 equals 0, so the member decides (never NaN). */
    static int compareScores(double a, double b) {
        return a < b ? -1 : a > b ? 1 : 0;
    }

    private int merge(int a, int b) {
        if (a == 0) {
            return b;
        }
        if (b == 0) {
            return a;
        }
        if (priority(a) > priority(b)) {
            right[a] = merge(right[a], b);
            update(a);
            return a;
        }
        left[b] = merge(a, left[b]);
        update(b);
        return b;
    }

    private void update(int node) {
        sizes[node] = sizes[left[node]] + sizes[right[node]] + 1;
    }

    /** A treap's random priority, derived from the id (a fixed mix), so no array holds it. */
    private static int priority(int id) {
        int h = id * 0x9E3779B9;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        return h ^ (h >>> 13);
    }

    void checkInvariants(int expected) {
        Invariants.check(size() == expected, "score order holds " + size() + " of " + expected + " members");
        for (int rank = 1; rank < size(); rank++) {
            int a = select(rank - 1);
            int b = select(rank);
            int c = compareScores(scores[a], scores[b]);
            Invariants.check(c < 0 || c == 0 && Arrays.compareUnsigned(slab.key(a), slab.key(b)) < 0,
                    "score order out of order at rank " + rank);
        }
    }
}
