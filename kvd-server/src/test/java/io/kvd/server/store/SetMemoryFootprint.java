package io.kvd.server.store;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Heap bytes per member of one large set, built through {@link Keyspace#setForWrite} (a
 * {@link MemberTable}): 1 M random 16-byte members, and the 1 M integers "0".."999999". Each
 * figure is the used heap after a full collection with the set built, less the same before,
 * divided by the members; the median of {@link #RUNS} runs is printed. A harness, not a test:
 * the command and the figures are in docs/performance.md (Store engine).
 */
public final class SetMemoryFootprint {
    private static final int MEMBERS = 1_000_000;
    private static final int RUNS = 5;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private SetMemoryFootprint() {
    }

    public static void main(String[] args) {
        System.out.printf("16-byte random members: %.1f B/member%n", median(SetMemoryFootprint::randomMembers));
        System.out.printf("integers 0..999999:     %.1f B/member%n", median(SetMemoryFootprint::integers));
    }

    private interface Filler {
        void fill(SetValue set);
    }

    private static void randomMembers(SetValue set) {
        SplittableRandom random = new SplittableRandom(1);
        byte[] member = new byte[16];
        while (set.size() < MEMBERS) {
            for (int i = 0; i < member.length; i++) {
                // Printable, as members sent by redis-benchmark-like clients are.
                member[i] = (byte) ('!' + random.nextInt(94));
            }
            set.add(member.clone());
        }
    }

    private static void integers(SetValue set) {
        for (int i = 0; i < MEMBERS; i++) {
            set.add(Integer.toString(i).getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static double median(Filler filler) {
        double[] perMember = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            long before = usedAfterCollection();
            Keyspace keyspace = new Keyspace(run);
            filler.fill(keyspace.setForWrite("set".getBytes(StandardCharsets.US_ASCII)));
            long after = usedAfterCollection();
            Reference.reachabilityFence(keyspace);
            perMember[run] = (double) (after - before) / MEMBERS;
        }
        Arrays.sort(perMember);
        return perMember[RUNS / 2];
    }

    private static long usedAfterCollection() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }
}
