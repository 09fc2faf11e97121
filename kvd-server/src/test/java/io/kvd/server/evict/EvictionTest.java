package io.kvd.server.evict;

import io.kvd.server.config.Config;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

class EvictionTest {
    private static final long SEED = Long.getLong("evict.seed", 20261205L);
    private static final long NOW = 1_700_000_000_000L;

    private final Databases databases = new Databases(16, 7);
    private final Config config = Config.defaults();
    private final List<String> evicted = new ArrayList<>();
    private final Eviction eviction = new Eviction(databases, config, new LatencyMonitor(), () -> false,
            (db, key) -> evicted.add(db + ":" + new String(key, StandardCharsets.UTF_8)));

    EvictionTest() {
        databases.setTime(NOW);
        // No time budget: a test's first evictions run cold code; the budget has a test of its own.
        config.set(Config.MAXMEMORY_EVICTION_TENACITY, "100");
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Keyspace db(int index) {
        return databases.get(index);
    }

    /** Sets maxmemory so that exactly {@code keys} more keys of {@code keyBytes} each must go. */
    private void limitTo(long keys, long keyBytes) {
        config.set(Config.MAXMEMORY, String.valueOf(databases.usedMemory() - keys * keyBytes));
    }

    @Test
    void withoutMaxmemoryNothingIsEvicted() {
        db(0).put(b("k"), b("v"), PERSISTENT);
        assertThat(eviction.perform()).isEqualTo(Eviction.Result.OK);
        assertThat(evicted).isEmpty();
    }

    @Test
    void noevictionFailsAndDeletesNothing() {
        for (int i = 0; i < 100; i++) {
            db(0).put(b("k" + i), b("v"), PERSISTENT);
        }
        long keyBytes = db(0).memoryUsage(b("k10"), 5);
        limitTo(10, keyBytes);
        assertThat(eviction.perform()).isEqualTo(Eviction.Result.FAIL);
        assertThat(db(0).size()).isEqualTo(100);
        assertThat(eviction.evictedKeys()).isZero();
    }

    @Test
    void loweringMaxmemoryEvictsAtOnceAndCountsAndReportsEachKey() {
        config.set(Config.MAXMEMORY_POLICY, "allkeys-random");
        for (int i = 0; i < 100; i++) {
            db(3).put(b("k" + (100 + i)), b("v"), PERSISTENT);
        }
        long keyBytes = db(3).memoryUsage(b("k100"), 5);
        limitTo(25, keyBytes);
        assertThat(db(3).size()).isEqualTo(75);
        assertThat(eviction.evictedKeys()).isEqualTo(25);
        assertThat(evicted).hasSize(25).allMatch(k -> k.startsWith("3:k1"));
        assertThat(databases.usedMemory()).isLessThanOrEqualTo(eviction.maxmemory());
        db(3).checkInvariants();
    }

    @Test
    void allkeysLruEvictsTheKeysIdleLongest() {
        config.set(Config.MAXMEMORY_POLICY, "allkeys-lru");
        config.set(Config.MAXMEMORY_SAMPLES, "1000");
        for (int i = 0; i < 100; i++) {
            db(0).put(b("cold" + (100 + i)), b("v"), PERSISTENT);
            db(0).put(b("warm" + (100 + i)), b("v"), PERSISTENT);
        }
        databases.setTime(NOW + 100_000);
        for (int i = 0; i < 100; i++) {
            db(0).get(b("warm" + (100 + i)));
        }
        assertThat(db(0).accessStamp(b("cold100"))).isNotEqualTo(db(0).accessStamp(b("warm100")));
        limitTo(100, db(0).memoryUsage(b("cold100"), 5));
        // Approximated as Redis's: samples are capped at the keys left, so the last few cold
        // keys may be missed; random eviction would take about 50.
        assertThat(evicted).hasSize(100);
        assertThat(evicted).filteredOn(k -> k.startsWith("0:cold")).hasSizeGreaterThanOrEqualTo(95);
    }

    @Test
    void allkeysLfuEvictsTheKeysUsedLeast() {
        config.set(Config.MAXMEMORY_POLICY, "allkeys-lfu");
        config.set(Config.MAXMEMORY_SAMPLES, "1000");
        // Factor 0: every access counts, so the counters are exact.
        config.set(Config.LFU_LOG_FACTOR, "0");
        for (int i = 0; i < 100; i++) {
            db(0).put(b("rare" + (100 + i)), b("v"), PERSISTENT);
            db(0).put(b("used" + (100 + i)), b("v"), PERSISTENT);
            for (int n = 0; n < 3; n++) {
                db(0).get(b("used" + (100 + i)));
            }
        }
        limitTo(100, db(0).memoryUsage(b("rare100"), 5));
        assertThat(evicted).hasSize(100);
        assertThat(evicted).filteredOn(k -> k.startsWith("0:rare")).hasSizeGreaterThanOrEqualTo(95);
    }

    @Test
    void volatileTtlEvictsTheSoonestToExpireFirst() {
        config.set(Config.MAXMEMORY_POLICY, "volatile-ttl");
        config.set(Config.MAXMEMORY_SAMPLES, "1000");
        for (int i = 0; i < 10; i++) {
            db(5).put(b("t" + i), b("v"), NOW + 1_000_000 - i * 1000L);
        }
        limitTo(3, db(5).memoryUsage(b("t0"), 5));
        assertThat(evicted).containsExactlyInAnyOrder("5:t9", "5:t8", "5:t7");
    }

    @Test
    void volatilePoliciesNeverTakeKeysWithoutTtlAndFailWhenNoneIsLeft() {
        System.out.println("EvictionTest seed " + SEED + " (override with -Devict.seed=N)");
        SplittableRandom random = new SplittableRandom(SEED);
        String[] policies = {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"};
        for (int round = 0; round < 40; round++) {
            databases.clear();
            evicted.clear();
            config.set(Config.MAXMEMORY, "0");
            config.set(Config.MAXMEMORY_POLICY, policies[round % policies.length]);
            config.set(Config.MAXMEMORY_SAMPLES, String.valueOf(1 + random.nextInt(10)));
            Set<String> persistent = new HashSet<>();
            int keys = 1 + random.nextInt(500);
            for (int i = 0; i < keys; i++) {
                int db = random.nextInt(16);
                String key = "key:" + i;
                byte[] value = new byte[random.nextInt(200)];
                if (random.nextBoolean()) {
                    db(db).put(b(key), value, NOW + 1 + random.nextInt(1_000_000));
                } else {
                    db(db).put(b(key), value, PERSISTENT);
                    persistent.add(db + ":" + key);
                }
            }
            long used = databases.usedMemory();
            long limit = (long) (used * random.nextDouble());
            config.set(Config.MAXMEMORY, String.valueOf(Math.max(1, limit)));
            Eviction.Result result = eviction.perform();
            assertThat(evicted).as("round %d", round).doesNotContainAnyElementsOf(persistent);
            long withTtl = 0;
            for (int db = 0; db < 16; db++) {
                withTtl += db(db).sizeWithDeadline();
                db(db).checkInvariants();
            }
            if (result == Eviction.Result.OK) {
                assertThat(databases.usedMemory()).as("round %d", round).isLessThanOrEqualTo(eviction.maxmemory());
            } else {
                assertThat(result).isEqualTo(Eviction.Result.FAIL);
                assertThat(withTtl).as("round %d", round).isZero();
            }
            assertThat(databases.size()).isEqualTo(keys - evicted.size());
        }
    }

    @Test
    void evictionPastItsTimeBudgetGoesOnInALoopTask() {
        ArrayDeque<Runnable> loop = new ArrayDeque<>();
        eviction.useExecutor(loop::add);
        config.set(Config.MAXMEMORY_POLICY, "allkeys-random");
        for (int i = 0; i < 1000; i++) {
            db(0).put(b("k" + (1000 + i)), b("v"), PERSISTENT);
        }
        long keyBytes = db(0).memoryUsage(b("k1000"), 5);
        config.set(Config.MAXMEMORY_EVICTION_TENACITY, "0");
        limitTo(500, keyBytes);
        // A zero budget stops at the first time check, 16 keys in, and leaves a task.
        assertThat(evicted).hasSize(16);
        assertThat(loop).hasSize(1);
        assertThat(eviction.perform()).isEqualTo(Eviction.Result.RUNNING);
        int tasks = 0;
        while (!loop.isEmpty()) {
            loop.poll().run();
            tasks++;
        }
        assertThat(tasks).isGreaterThan(1);
        assertThat(evicted).hasSize(500);
        assertThat(eviction.perform()).isEqualTo(Eviction.Result.OK);
    }

    @Test
    void tenacityGivesRedisTimeBudget() {
        assertThat(Eviction.timeLimitMicros(0)).isZero();
        assertThat(Eviction.timeLimitMicros(10)).isEqualTo(500);
        assertThat(Eviction.timeLimitMicros(11)).isEqualTo(575);
        assertThat(Eviction.timeLimitMicros(100)).isGreaterThan(1L << 40);
    }
}
