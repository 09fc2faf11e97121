package io.kvd.server.command;

import java.util.Comparator;

/**
 * Redis's pqsort: Bentley and McIlroy's quicksort (NetBSD's qsort) that skips the partitions
 * outside a range of positions, so only that range ends up sorted. SORT ... BY ... LIMIT uses it;
 * it is not stable, and which of equal elements lands where is part of SORT's reply, so this
 * follows Redis's steps exactly.
 */
final class PartialQuicksort {
    private PartialQuicksort() {
    }

    /** Sorts {@code items} enough that positions {@code from} to {@code to} hold what a full sort puts there. */
    static <T> void sort(T[] items, Comparator<? super T> order, int from, int to) {
        sort(items, 0, items.length, order, from, to);
    }

    private static <T> void sort(T[] v, int a, int n, Comparator<? super T> cmp, int from, int to) {
        while (true) {
            if (n < 7) {
                insertionSort(v, a, n, cmp);
                return;
            }
            int pm = a + n / 2;
            if (n > 7) {
                int pl = a;
                int pn = a + n - 1;
                if (n > 40) {
                    int d = n / 8;
                    pl = median(v, pl, pl + d, pl + 2 * d, cmp);
                    pm = median(v, pm - d, pm, pm + d, cmp);
                    pn = median(v, pn - 2 * d, pn - d, pn, cmp);
                }
                pm = median(v, pl, pm, pn, cmp);
            }
            swap(v, a, pm);
            int pa = a + 1;
            int pb = pa;
            int pc = a + n - 1;
            int pd = pc;
            boolean swapped = false;
            while (true) {
                int result;
                while (pb <= pc && (result = cmp.compare(v[pb], v[a])) <= 0) {
                    if (result == 0) {
                        swapped = true;
                        swap(v, pa++, pb);
                    }
                    pb++;
                }
                while (pb <= pc && (result = cmp.compare(v[pc], v[a])) >= 0) {
                    if (result == 0) {
                        swapped = true;
                        swap(v, pc, pd--);
                    }
                    pc--;
                }
                if (pb > pc) {
                    break;
                }
                swap(v, pb++, pc--);
                swapped = true;
            }
            if (!swapped) {
                insertionSort(v, a, n, cmp);
                return;
            }
            int pn = a + n;
            int r = Math.min(pa - a, pb - pa);
            swapRuns(v, a, pb - r, r);
            r = Math.min(pd - pc, pn - pd - 1);
            swapRuns(v, pb, pn - r, r);
            r = pb - pa;
            if (r > 1 && overlaps(a, r, from, to)) {
                sort(v, a, r, cmp, from, to);
            }
            r = pd - pc;
            if (r <= 1) {
                return;
            }
            // The second partition is sorted by the loop rather than by recursion, as Redis does.
            a = pn - r;
            n = r;
            if (!overlaps(a, n, from, to)) {
                return;
            }
        }
    }

    /** Whether positions {@code start} to {@code start + length - 1} hold some of {@code from} to {@code to}. */
    private static boolean overlaps(int start, int length, int from, int to) {
        return !(from < start && to < start || from >= start + length && to >= start + length);
    }

    private static <T> void insertionSort(T[] v, int a, int n, Comparator<? super T> cmp) {
        for (int pm = a + 1; pm < a + n; pm++) {
            for (int pl = pm; pl > a && cmp.compare(v[pl - 1], v[pl]) > 0; pl--) {
                swap(v, pl, pl - 1);
            }
        }
    }

    private static <T> int median(T[] v, int a, int b, int c, Comparator<? super T> cmp) {
        return cmp.compare(v[a], v[b]) < 0
                ? (cmp.compare(v[b], v[c]) < 0 ? b : cmp.compare(v[a], v[c]) < 0 ? c : a)
                : (cmp.compare(v[b], v[c]) > 0 ? b : cmp.compare(v[a], v[c]) < 0 ? a : c);
    }

    private static <T> void swap(T[] v, int i, int j) {
        T t = v[i];
        v[i] = v[j];
        v[j] = t;
    }

    /** Swaps the {@code n} items from {@code i} with the {@code n} from {@code j}. */
    private static <T> void swapRuns(T[] v, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            swap(v, i + k, j + k);
        }
    }
}
