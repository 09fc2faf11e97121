package io.kvd.server.evict;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class EvictionPoolTest {
    private static final long SEED = Long.getLong("evict.seed", 20261205L);

    private static byte[] key(long idle) {
        return ("k" + idle).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsTheSixteenIdlestOfDistinctOffersAndGivesThemIdlestFirst() {
        System.out.println("EvictionPoolTest seed " + SEED + " (override with -Devict.seed=N)");
        SplittableRandom random = new SplittableRandom(SEED);
        for (int round = 0; round < 200; round++) {
            EvictionPool pool = new EvictionPool();
            List<Long> offered = new ArrayList<>();
            int offers = 1 + random.nextInt(100);
            for (int i = 0; i < offers; i++) {
                long idle = random.nextLong(1_000_000);
                if (offered.contains(idle)) {
                    continue;
                }
                offered.add(idle);
                pool.offer(idle, key(idle), (int) (idle % 16));
            }
            offered.sort(Comparator.reverseOrder());
            List<Long> expected = offered.subList(0, Math.min(EvictionPool.SIZE, offered.size()));
            List<Long> popped = new ArrayList<>();
            for (int slot = pool.best(); slot >= 0; slot = pool.best()) {
                long idle = pool.idle(slot);
                assertThat(pool.key(slot)).isEqualTo(key(idle));
                assertThat(pool.db(slot)).isEqualTo((int) (idle % 16));
                popped.add(idle);
                pool.clear(slot);
            }
            assertThat(popped).as("round %d", round).isEqualTo(expected);
        }
    }

    @Test
    void fullPoolRefusesAKeyNoIdlerThanItsLeastIdle() {
        EvictionPool pool = new EvictionPool();
        for (int i = 1; i <= EvictionPool.SIZE; i++) {
            pool.offer(i * 10L, key(i * 10L), 0);
        }
        pool.offer(10, key(5), 0);
        pool.offer(5, key(5), 0);
        List<Long> idles = new ArrayList<>();
        for (int slot = pool.best(); slot >= 0; slot = pool.best()) {
            idles.add(pool.idle(slot));
            pool.clear(slot);
        }
        assertThat(idles).hasSize(EvictionPool.SIZE).last().isEqualTo(10L);
        assertThat(idles).doesNotContain(5L);
    }

    @Test
    void emptiedSlotsAreFilledAgainWithoutLosingOrder() {
        EvictionPool pool = new EvictionPool();
        pool.offer(30, key(30), 0);
        pool.offer(10, key(10), 0);
        pool.clear(pool.best());
        pool.offer(20, key(20), 0);
        pool.offer(40, key(40), 0);
        List<Long> idles = new ArrayList<>();
        for (int slot = pool.best(); slot >= 0; slot = pool.best()) {
            idles.add(pool.idle(slot));
            pool.clear(slot);
        }
        assertThat(idles).containsExactly(40L, 20L, 10L);
    }
}
