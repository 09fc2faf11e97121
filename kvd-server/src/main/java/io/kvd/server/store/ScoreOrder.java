package io.kvd.server.store;

import java.util.Arrays;

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

    ScoreOrder(EntrySlab slab) {
        this.slab = slab;
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
        byte[] member = slab.key(id);
        int below = rankOf(score, member);
        int[] parts = split(root, below);
        root = merge(merge(parts[0], id), parts[1]);
    }

    /** Removes member {@code id}, still live in the slab. */
    void remove(int id) {
        int rank = rankOf(scores[id], slab.key(id));
        int[] parts = split(root, rank);
        int[] rest = split(parts[1], 1);
        root = merge(parts[0], rest[1]);
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

    /** Splits the treap at {@code node} into its first {@code count} members and the rest. */
    private int[] split(int node, int count) {
        if (node == 0) {
            return new int[] {0, 0};
        }
        int l = sizes[left[node]];
        if (count <= l) {
            int[] parts = split(left[node], count);
            left[node] = parts[1];
            update(node);
            return new int[] {parts[0], node};
        }
        int[] parts = split(right[node], count - l - 1);
        right[node] = parts[0];
        update(node);
        return new int[] {node, parts[1]};
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
