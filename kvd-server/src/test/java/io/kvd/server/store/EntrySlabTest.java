package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slab over its pages: entries keep their bytes through moves between shared pages, pages of
 * their own and compactions, and the pages stay within a bound of the live bytes under churn.
 * Seed: {@code -Dslab.seed=N}.
 */
class EntrySlabTest {
    private final EntrySlab slab = new EntrySlab();

    @Test
    void anEntryTooLargeToShareAPageGetsOneOfItsOwnAndGivesItBack() {
        int small = allocate("small", 10);
        int pagesBefore = slab.pagesHeld();
        int large = allocate("large", EntryPages.LARGEST_SHARED + 1);
        assertThat(slab.pagesHeld()).isEqualTo(pagesBefore + 1);
        assertThat(slab.value(large)).isEqualTo(value("large", EntryPages.LARGEST_SHARED + 1));

        slab.free(large);

        assertThat(slab.pagesHeld()).isEqualTo(pagesBefore);
        assertThat(slab.value(small)).isEqualTo(value("small", 10));
        slab.checkInvariants(1);
    }

    @Test
    void aValueThatChangesLengthMovesBetweenSharedAndOwnPagesKeepingItsKey() {
        int id = allocate("k", 10);
        for (int length : new int[] {EntryPages.LARGEST_SHARED * 3, 5, EntryPages.LARGEST_SHARED + 1, 0, 7}) {
            slab.setValue(id, value("k", length));
            assertThat(slab.value(id)).isEqualTo(value("k", length));
            assertThat(slab.key(id)).isEqualTo(bytes("k"));
            slab.checkInvariants(1);
        }
        assertThat(slab.pagesHeld()).isEqualTo(1);
    }

    @Test
    void aGrownValueKeepsItsBytesThenZerosEvenInAReusedPage() {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; slab.pagesHeld() < 3; i++) {
            ids.add(allocate("junk" + i, 100));
        }
        int id = allocate("k", 10);
        for (int junk : ids) {
            slab.free(junk);
        }
        for (int length : new int[] {300, 5000, EntryPages.LARGEST_SHARED + 1}) {
            slab.growValue(id, length);
            byte[] expected = Arrays.copyOf(value("k", 10), length);
            assertThat(slab.value(id)).isEqualTo(expected);
            StringView view = slab.valueView(id);
            assertThat(Arrays.copyOfRange(view.bytes(), view.offset(), view.offset() + view.length())).isEqualTo(expected);
            assertThat(slab.key(id)).isEqualTo(bytes("k"));
            slab.checkInvariants(1);
        }
    }

    @Test
    void aPageWhoseEntriesAreAllFreedIsReleased() {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; slab.pagesHeld() < 3; i++) {
            ids.add(allocate("key" + i, 100));
        }
        for (int id : ids) {
            slab.free(id);
        }
        // The head stays, and one released page is kept as the next head.
        assertThat(slab.pagesHeld()).isEqualTo(2);
        slab.checkInvariants(0);
    }

    /**
     * Random overwrites with new lengths, frees and inserts over a keyspace of about ten pages:
     * every value reads back as last written, and the pages never hold much more than 4/3 of the
     * live bytes (4/3 at each new head, plus the frees since, the head, the spare and the small
     * first pages), because compaction reclaims the holes: without it they would reach fifteen
     * times the live bytes.
     */
    @Test
    void churnKeepsEveryValueAndThePagesNearTheLiveBytes() {
        long seed = Long.getLong("slab.seed", 20_261_202L);
        System.out.println("EntrySlabTest seed " + seed + " (override with -Dslab.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        Map<Integer, byte[]> model = new HashMap<>();
        List<Integer> ids = new ArrayList<>();
        long liveBytes = 0;
        long mostBytes = 0;
        for (int op = 0; op < 600_000; op++) {
            int choice = random.nextInt(10);
            if (ids.size() < 60_000 && (choice < 3 || ids.isEmpty())) {
                byte[] value = value("v" + op, random.nextInt(300));
                int id = slab.allocate(bytes("key" + op), value, PackedEntry.hash(bytes("key" + op)));
                model.put(id, value);
                ids.add(id);
                liveBytes += PackedEntry.length(("key" + op).length(), value.length);
            } else if (choice < 5) {
                int id = ids.remove(random.nextInt(ids.size()));
                liveBytes -= PackedEntry.length(slab.key(id).length, model.remove(id).length);
                slab.free(id);
            } else {
                int id = ids.get(random.nextInt(ids.size()));
                byte[] value = value("v" + op, random.nextInt(300));
                int keyLength = slab.key(id).length;
                liveBytes += PackedEntry.length(keyLength, value.length) - PackedEntry.length(keyLength, model.get(id).length);
                slab.setValue(id, value);
                model.put(id, value);
            }
            long bound = liveBytes * 3 / 2 + 3L * EntryPages.PAGE_SIZE;
            assertThat(slab.pageBytesHeld()).as("page bytes at op %d with %d live bytes", op, liveBytes)
                    .isLessThanOrEqualTo(bound);
            mostBytes = Math.max(mostBytes, slab.pageBytesHeld());
            if (op % 50_000 == 0) {
                slab.checkInvariants(ids.size());
                model.forEach((id, value) -> assertThat(slab.value(id)).isEqualTo(value));
            }
        }
        slab.checkInvariants(ids.size());
        model.forEach((id, value) -> assertThat(slab.value(id)).isEqualTo(value));
        System.out.println("EntrySlabTest: " + ids.size() + " entries, " + liveBytes + " live bytes, at most "
                + mostBytes + " page bytes held");
    }

    private int allocate(String key, int valueLength) {
        return slab.allocate(bytes(key), value(key, valueLength), PackedEntry.hash(bytes(key)));
    }

    /** A value of {@code length} bytes made of {@code tag} repeated, so a mix-up shows. */
    private static byte[] value(String tag, int length) {
        byte[] t = bytes(tag + ";");
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = t[i % t.length];
        }
        return value;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
