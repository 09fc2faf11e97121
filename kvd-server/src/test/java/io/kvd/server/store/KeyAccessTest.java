package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyAccessTest {
    private static final long MINUTE = 60_000;
    private final KeyAccess access = new KeyAccess();

    @Test
    void newKeyUnderLfuStartsAtFiveAndDecaysOnePerDecayTime() {
        access.configure(true, 10, 2);
        access.setTime(1_000 * MINUTE);
        int stamp = access.fresh();
        assertThat(access.decremented(stamp)).isEqualTo(KeyAccess.LFU_INIT_VAL);
        access.setTime(1_006 * MINUTE);
        assertThat(access.decremented(stamp)).isEqualTo(2);
        access.setTime(1_100 * MINUTE);
        assertThat(access.decremented(stamp)).isZero();
    }

    @Test
    void decayTimeZeroNeverDecays() {
        access.configure(true, 10, 0);
        access.setTime(0);
        int stamp = access.fresh();
        access.setTime(10_000 * MINUTE);
        assertThat(access.decremented(stamp)).isEqualTo(KeyAccess.LFU_INIT_VAL);
    }

    @Test
    void logFactorZeroCountsEveryAccessUpTo255() {
        access.configure(true, 0, 1);
        int stamp = access.fresh();
        for (int i = 0; i < 300; i++) {
            stamp = access.touched(stamp);
        }
        assertThat(access.decremented(stamp)).isEqualTo(255);
    }

    @Test
    void logFactorMakesHighCountsRare() {
        access.configure(true, 10, 1);
        int stamp = access.fresh();
        for (int i = 0; i < 100_000; i++) {
            stamp = access.touched(stamp);
        }
        // Redis's redis.conf table: factor 10 reaches about 142 after 100K hits (1M gives 255).
        assertThat(access.decremented(stamp)).isBetween(100, 180);
    }

    @Test
    void lruIdleTimeCountsSecondsAcrossTheClockWrapAsRedisDoes() {
        access.configure(false, 10, 1);
        access.setTime((KeyAccess.LRU_CLOCK_MAX - 5L) * 1000);
        int stamp = access.fresh();
        access.setTime((KeyAccess.LRU_CLOCK_MAX + 10L) * 1000);
        // 15 s passed; Redis's estimateObjectIdleTime counts one tick less across the wrap, and so does kvd.
        assertThat(access.idleMs(stamp)).isEqualTo(14_000);
        assertThat(access.idleMs(access.touched(stamp))).isZero();
    }

    @Test
    void restoredStampsAreThoseOfObjectSetLruOrLfu() {
        access.configure(false, 10, 1);
        access.setTime(5_000_000L * 1000);
        assertThat(access.idleMs(access.restored(-1, 1000))).isEqualTo(1_000_000);
        // An idle time past the clock's start is the oldest stamp; a frequency means nothing under LRU.
        assertThat(access.restored(-1, 6_000_000)).isZero();
        assertThat(access.restored(100, -1)).isEqualTo(-1);
        access.configure(true, 10, 1);
        assertThat(access.decremented(access.restored(100, -1))).isEqualTo(100);
        assertThat(access.restored(-1, 1000)).isEqualTo(-1);
    }
}
