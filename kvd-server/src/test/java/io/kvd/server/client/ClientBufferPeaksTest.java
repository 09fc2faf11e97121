package io.kvd.server.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientBufferPeaksTest {
    private final ClientBufferPeaks peaks = new ClientBufferPeaks();

    @Test
    void reportsTheLargestSizeOfTheLastSeconds() {
        peaks.input(10_000, 300);
        peaks.input(11_500, 100);
        peaks.output(12_000, 70);
        peaks.output(12_100, 90);
        assertThat(peaks.recentMaxInput()).isEqualTo(300);
        assertThat(peaks.recentMaxOutput()).isEqualTo(90);
    }

    @Test
    void aSecondsPeakIsForgottenOnceTheCronComesRoundToItsSlotAgain() {
        peaks.input(10_000, 300);
        peaks.output(10_000, 70);
        for (long now = 10_000; now < 16_999; now += 100) {
            peaks.cron(now);
        }
        assertThat(peaks.recentMaxInput()).isEqualTo(300);
        // At second 17 the cron empties the slot second 18 fills, which second 10 filled.
        peaks.cron(17_000);
        assertThat(peaks.recentMaxInput()).isZero();
        assertThat(peaks.recentMaxOutput()).isZero();
    }
}
