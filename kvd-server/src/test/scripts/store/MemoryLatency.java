import java.util.SplittableRandom;

/**
 * Latency of a dependent random load (a pointer chase through one random cycle) over arrays of
 * 8, 32 and 128 MB: the cost of each cache miss a lookup in a large table pays, page walk
 * included. A replayed SET of a new key makes two such loads (its bucket, then the slab entry
 * of the chain's head), so this bounds how fast a replay into millions of keys can be here.
 * Run: java -Xmx1g kvd-server/src/test/scripts/store/MemoryLatency.java
 */
public class MemoryLatency {
    public static void main(String[] args) {
        for (int megabytes : new int[] {8, 32, 128}) {
            int[] next = randomCycle(megabytes << 18, new SplittableRandom(42));
            for (int run = 0; run < 3; run++) {
                int at = 0;
                int steps = 5_000_000;
                long start = System.nanoTime();
                for (int step = 0; step < steps; step++) {
                    at = next[at];
                }
                double nanos = (System.nanoTime() - start) / (double) steps;
                System.out.printf("%d MB: %.1f ns per dependent load (ended at %d)%n", megabytes, nanos, at);
            }
        }
    }

    /** Sattolo's shuffle: a random permutation that is one cycle through every slot. */
    private static int[] randomCycle(int length, SplittableRandom random) {
        int[] next = new int[length];
        for (int i = 0; i < length; i++) {
            next[i] = i;
        }
        for (int i = length - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swap = next[i];
            next[i] = next[j];
            next[j] = swap;
        }
        return next;
    }
}
