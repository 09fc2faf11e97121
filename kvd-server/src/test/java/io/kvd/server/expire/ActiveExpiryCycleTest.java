package io.kvd.server.expire;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

class ActiveExpiryCycleTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final int HZ = 10;

    private final Keyspace keyspace = new Databases(1, 3).get(0);
    private final ActiveExpiryCycle cycle = new ActiveExpiryCycle(keyspace.databases());

    private void put(String key, long deadline) {
        keyspace.put(key.getBytes(StandardCharsets.UTF_8), new byte[]{'v'}, deadline);
    }

    @Test
    void untouchedExpiredKeysDisappearAndPersistentOnesStay() {
        keyspace.setTime(NOW);
        for (int i = 0; i < 10_000; i++) {
            put("expiring:" + i, NOW + 1 + i % 100);
        }
        for (int i = 0; i < 1_000; i++) {
            put("persistent:" + i, PERSISTENT);
        }
        long removed = 0;
        long later = NOW + 1_000;
        for (int run = 0; run < 10_000 && keyspace.sizeWithDeadline() > 0; run++) {
            removed += cycle.runSlow(later + run * 100L, HZ);
        }
        assertThat(removed).isEqualTo(10_000);
        assertThat(keyspace.size()).isEqualTo(1_000);
        assertThat(keyspace.databases().expiredKeys()).isEqualTo(10_000);
        keyspace.checkInvariants();
    }

    @Test
    void keysWhoseDeadlineIsStillAheadStay() {
        keyspace.setTime(NOW);
        for (int i = 0; i < 1_000; i++) {
            put("expired:" + i, NOW + 1);
            put("future:" + i, NOW + 60_000);
        }
        for (int run = 0; run < 1_000; run++) {
            cycle.runSlow(NOW + 10, HZ);
        }
        assertThat(keyspace.size()).isEqualTo(1_000);
        assertThat(keyspace.sizeWithDeadline()).isEqualTo(1_000);
        assertThat(keyspace.exists("future:0".getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    @Test
    void aCycleThatRunsOutOfTimeWithKeysStillExpiringIsBehind() {
        keyspace.setTime(NOW);
        // 200,000 removals cannot fit in a fast cycle's 1 ms (that would be 5 ns each).
        for (int i = 0; i < 200_000; i++) {
            put("expiring:" + i, NOW + 1);
        }
        long removed = cycle.runFast(NOW + 10);
        assertThat(removed).isPositive().isLessThan(200_000);
        assertThat(cycle.behind()).isTrue();
        assertThat(cycle.timeCapReachedCount()).isEqualTo(1);
    }

    @Test
    void aCycleThatEmptiedItsSampleIsNotBehind() {
        keyspace.setTime(NOW);
        for (int i = 0; i < 10; i++) {
            put("expiring:" + i, NOW + 1);
        }
        cycle.runFast(NOW + 10);
        assertThat(keyspace.size()).isZero();
        assertThat(cycle.behind()).isFalse();
        assertThat(cycle.timeCapReachedCount()).isZero();
    }

    @Test
    void fastCyclesFinishWhatTheSlowCycleLeft() {
        keyspace.setTime(NOW);
        for (int i = 0; i < 200_000; i++) {
            put("expiring:" + i, NOW + 1);
        }
        cycle.runFast(NOW + 10);
        int cycles = 1;
        while (cycle.behind()) {
            cycle.runFast(NOW + 10);
            cycles++;
        }
        // Every key with a deadline is due, so only an empty deadline index ends the run.
        assertThat(cycles).isGreaterThan(1);
        assertThat(keyspace.sizeWithDeadline()).isZero();
        keyspace.checkInvariants();
    }

    @Test
    void runSetsTheKeyspaceClock() {
        cycle.runSlow(NOW + 5, HZ);
        assertThat(keyspace.now()).isEqualTo(NOW + 5);
    }

    @Test
    void averageTtlStartsAtTheFirstSamplesMean() {
        keyspace.setTime(NOW);
        for (int i = 0; i < 100; i++) {
            put("k" + i, NOW + 10_000);
        }
        cycle.runSlow(NOW, HZ);
        assertThat(cycle.averageTtlMs(0)).isEqualTo(10_000);
    }

    @Test
    void averageTtlIsZeroOnceNoKeyHasADeadline() {
        keyspace.setTime(NOW);
        put("k", NOW + 10_000);
        cycle.runSlow(NOW, HZ);
        keyspace.setDeadline("k".getBytes(StandardCharsets.UTF_8), PERSISTENT);
        cycle.runSlow(NOW, HZ);
        assertThat(cycle.averageTtlMs(0)).isZero();
    }
}
