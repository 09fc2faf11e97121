package io.kvd.server.tracking;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The tracking table: keys to sets of client ids, walked in the order of Redis's rax (little-endian bytes). */
class TrackingTableTest {
    private final TrackingTable table = new TrackingTable();

    @Test
    void idsComeOutByTheirLowByteFirstAsRedisSendsThem() {
        for (long id : new long[] {3, 256, 2, 1, 257, 0x8000_0000_0000_0000L, 512}) {
            assertThat(table.add(key("k"), id)).isTrue();
        }

        // Bytes in memory: 0x80..00 is 00 00 .. 80, 256 is 00 01 .., 512 is 00 02 .., 257 is 01 01 ..
        assertThat(ids("k")).containsExactly(0x8000_0000_0000_0000L, 256L, 512L, 1L, 257L, 2L, 3L);
    }

    @Test
    void anIdAddedTwiceIsHeldOnce() {
        assertThat(table.add(key("k"), 7)).isTrue();
        assertThat(table.add(key("k"), 9)).isTrue();
        assertThat(table.add(key("k"), 7)).isFalse();

        assertThat(table.idCount(table.find(key("k")))).isEqualTo(2);
        assertThat(ids("k")).containsExactly(7L, 9L);
    }

    @Test
    void manyIdsMoveTheirKeyToLargerBlocks() {
        for (long id = 1000; id > 0; id--) {
            table.add(key("k"), id);
        }

        assertThat(ids("k")).doesNotHaveDuplicates().hasSize(1000);
    }

    @Test
    void aRemovedKeyIsGoneAndItsSlotServesTheNextKey() {
        table.add(key("a"), 1);
        table.add(key("b"), 2);
        int slot = table.find(key("a"));

        table.remove(slot);

        assertThat(table.find(key("a"))).isEqualTo(-1);
        assertThat(table.size()).isEqualTo(1);
        table.add(key("c"), 3);
        assertThat(table.find(key("c"))).isEqualTo(slot);
        assertThat(ids("b")).containsExactly(2L);
        assertThat(ids("c")).containsExactly(3L);
    }

    @Test
    void theEvictionSweepVisitsEachKeyOnceBeforeWrapping() {
        table.add(key("a"), 1);
        table.add(key("b"), 1);
        table.add(key("c"), 1);
        table.remove(table.find(key("b")));

        List<String> swept = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            swept.add(new String(table.key(table.nextToEvict()), StandardCharsets.UTF_8));
        }

        assertThat(swept).containsExactly("a", "c", "a", "c");
    }

    @Test
    void anEmptyKeyIsAKeyLikeAnother() {
        table.add(new byte[0], 5);

        assertThat(table.key(table.find(new byte[0]))).isEmpty();
        assertThat(ids("")).containsExactly(5L);
    }

    @Test
    void seededAddsAndRemovesAgreeWithAMapOfSets() {
        long seed = 20261205L;
        System.out.println("seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, TreeSet<Long>> model = new HashMap<>();
        for (int step = 0; step < 50_000; step++) {
            String name = "key:" + random.nextInt(3000) + "x".repeat(random.nextInt(40));
            if (random.nextInt(4) == 0) {
                int slot = table.find(key(name));
                assertThat(slot >= 0).isEqualTo(model.containsKey(name));
                if (slot >= 0) {
                    assertThat(ids(name)).containsExactlyInAnyOrderElementsOf(model.remove(name));
                    table.remove(slot);
                }
            } else {
                long id = 1 + random.nextInt(500);
                boolean added = model.computeIfAbsent(name, n -> new TreeSet<>()).add(id);
                assertThat(table.add(key(name), id)).isEqualTo(added);
            }
        }

        assertThat(table.size()).isEqualTo(model.size());
        model.forEach((name, expected) -> assertThat(ids(name)).containsExactlyInAnyOrderElementsOf(expected));
    }

    private List<Long> ids(String name) {
        int slot = table.find(key(name));
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < table.idCount(slot); i++) {
            all.add(table.id(slot, i));
        }
        return all;
    }

    private static byte[] key(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }
}
