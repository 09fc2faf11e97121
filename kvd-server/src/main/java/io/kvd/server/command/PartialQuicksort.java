package io.kvd.server.command;

import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Redis's pqsort.c: Bentley and McIlroy's quicksort that only sorts the partitions overlapping
 * the positions {@code [lrange, rrange]}, so that those hold what a full sort would put there.
 * Not stable: ported step for step so that equal elements end where Redis leaves them (SORT ... BY
 * with a LIMIT, GEOSEARCH with COUNT below the points found).
 */
final class PartialQuicksort {
    private static final int[] NONE = {};

    private PartialQuicksort() {
    }

    /** Sorts {@code list} enough that positions {@code lrange} to {@code rrange} (inclusive) hold their sorted elements. */
    static <T> void sort(List<T> list, Comparator<? super T> cmp, int lrange, int rrange) {
        // The partitions left to sort, as (start, length) pairs: Redis recurses into the left one and
        // loops on the right; they are disjoint, so a heap stack gives the same result without a
        // recursion as deep as the input is hostile.
        int[] pending = {0, list.size()};
        int depth = 1;
        while (depth > 0) {
            depth--;
            int base = pending[2 * depth];
            int n = pending[2 * depth + 1];
            int[] left = partition(list, base, n, cmp, lrange, rrange);
            for (int i = 0; i < left.length; i += 2) {
                if (2 * depth + 2 > pending.length) {
                    pending = Arrays.copyOf(pending, pending.length * 2);
                }
                pending[2 * depth] = left[i];
                pending[2 * depth + 1] = left[i + 1];
                depth++;
            }
        }
    }

    /**
     * One call of Redis's _pqsort on {@code [base, base + n)}, looping on the right part as it does;
     * returns the left parts it would recurse into, as (start, length) pairs.
     */
    private static <T> int[] partition(List<T> a, int base, int n, Comparator<? super T> cmp, int lrange, int rrange) {
        int[] left = NONE;
        while (true) {
            if (n < 7) {
                insertionSort(a, base, n, cmp);
                return left;
            }
            int pm = base + n / 2;
            if (n > 7) {
                int pl = base;
                int pn = base + n - 1;
                if (n > 40) {
                    int d = n / 8;
                    pl = med3(a, pl, pl + d, pl + 2 * d, cmp);
                    pm = med3(a, pm - d, pm, pm + d, cmp);
                    pn = med3(a, pn - 2 * d, pn - d, pn, cmp);
                }
                pm = med3(a, pl, pm, pn, cmp);
            }
            Collections.swap(a, base, pm);
            int pa = base + 1;
            int pb = pa;
            int pc = base + n - 1;
            int pd = pc;
            boolean swapped = false;
            while (true) {
                int c;
                while (pb <= pc && (c = cmp.compare(a.get(pb), a.get(base))) <= 0) {
                    if (c == 0) {
                        swapped = true;
                        Collections.swap(a, pa, pb);
                        pa++;
                    }
                    pb++;
                }
                while (pb <= pc && (c = cmp.compare(a.get(pc), a.get(base))) >= 0) {
                    if (c == 0) {
                        swapped = true;
                        Collections.swap(a, pc, pd);
                        pd--;
                    }
                    pc--;
                }
                if (pb > pc) {
                    break;
                }
                Collections.swap(a, pb, pc);
                swapped = true;
                pb++;
                pc--;
            }
            // Nothing moved: the partition was nearly sorted, insertion sort finishes it.
            if (!swapped) {
                insertionSort(a, base, n, cmp);
                return left;
            }
            int pn = base + n;
            int r = Math.min(pa - base, pb - pa);
            swapRanges(a, base, pb - r, r);
            r = Math.min(pd - pc, pn - pd - 1);
            swapRanges(a, pb, pn - r, r);
            if ((r = pb - pa) > 1 && overlaps(base, r, lrange, rrange)) {
                left = left.length == 0 ? new int[] {base, r} : append(left, base, r);
            }
            r = pd - pc;
            if (r <= 1) {
                return left;
            }
            base = pn - r;
            n = r;
            if (!overlaps(base, n, lrange, rrange)) {
                return left;
            }
        }
    }

    private static int[] append(int[] parts, int start, int length) {
        int[] grown = Arrays.copyOf(parts, parts.length + 2);
        grown[parts.length] = start;
        grown[parts.length + 1] = length;
        return grown;
    }

    /** Whether the partition {@code [start, start + count)} is not wholly before or after the wanted positions. */
    private static boolean overlaps(int start, int count, int lrange, int rrange) {
        return !(lrange < start && rrange < start || lrange >= start + count && rrange >= start + count);
    }

    private static <T> void insertionSort(List<T> a, int base, int n, Comparator<? super T> cmp) {
        for (int pm = base + 1; pm < base + n; pm++) {
            for (int pl = pm; pl > base && cmp.compare(a.get(pl - 1), a.get(pl)) > 0; pl--) {
                Collections.swap(a, pl, pl - 1);
            }
        }
    }

    private static <T> int med3(List<T> a, int x, int y, int z, Comparator<? super T> cmp) {
        T ax = a.get(x);
        T ay = a.get(y);
        T az = a.get(z);
        return cmp.compare(ax, ay) < 0
                ? (cmp.compare(ay, az) < 0 ? y : (cmp.compare(ax, az) < 0 ? z : x))
                : (cmp.compare(ay, az) > 0 ? y : (cmp.compare(ax, az) < 0 ? x : z));
    }

    /** vecswap: exchanges the {@code n} elements from {@code i} with the {@code n} from {@code j}. */
    private static <T> void swapRanges(List<T> a, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            Collections.swap(a, i + k, j + k);
        }
    }
}
