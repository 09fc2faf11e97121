package io.kvd.server.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InstantaneousMetricTest {
    private final InstantaneousMetric ops = new InstantaneousMetric();

    @Test
    void isZeroBeforeTwoSamples() {
        ops.sample(1_000, 500);
        assertThat(ops.value()).isZero();
    }

    @Test
    void isTheMeanOfTheLastSixteenSampledRates() {
        long count = 0;
        for (int i = 0; i <= 16; i++) {
            ops.sample(i * 100L, count);
            count += 100;
        }
        assertThat(ops.value()).isEqualTo(1000);
    }

    @Test
    void partlyFilledWindowAveragesOverSixteenAsRedis() {
        ops.sample(0, 0);
        ops.sample(100, 160);
        assertThat(ops.value()).isEqualTo(100);
    }

    @Test
    void samplesCloserThanAHundredMillisecondsAreSkipped() {
        ops.sample(0, 0);
        ops.sample(50, 1_000);
        ops.sample(100, 160);
        assertThat(ops.value()).isEqualTo(100);
    }

    @Test
    void resetForgetsEverySample() {
        ops.sample(0, 0);
        ops.sample(100, 160);
        ops.reset();
        assertThat(ops.value()).isZero();
    }
}
