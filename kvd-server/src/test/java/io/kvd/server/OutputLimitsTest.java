package io.kvd.server;

import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OutputLimitsTest {
    private static OutputLimits limits(String value) throws Exception {
        return new OutputLimits(Config.load(null, List.of("--client-output-buffer-limit", value)));
    }

    @Test
    void zeroLimitsNeverClose() throws Exception {
        assertThat(limits("normal 0 0 0").exceeded(false, Long.MAX_VALUE / 2, 0)).isFalse();
    }

    @Test
    void hardLimitClosesAtOnce() throws Exception {
        OutputLimits limits = limits("normal 1mb 0 0");
        assertThat(limits.exceeded(false, 1024 * 1024 - 1, 0)).isFalse();
        assertThat(limits.exceeded(false, 1024 * 1024, 0)).isTrue();
    }

    @Test
    void softLimitClosesOnlyAfterStayingAboveForTheGivenSeconds() throws Exception {
        OutputLimits limits = limits("normal 0 1kb 2");
        assertThat(limits.exceeded(false, 2048, 10_000)).isFalse();
        assertThat(limits.exceeded(false, 2048, 12_000)).isFalse();
        assertThat(limits.exceeded(false, 2048, 12_001)).isTrue();
    }

    @Test
    void droppingBelowTheSoftLimitRestartsItsClock() throws Exception {
        OutputLimits limits = limits("normal 0 1kb 2");
        limits.exceeded(false, 2048, 10_000);
        limits.exceeded(false, 10, 11_000);
        assertThat(limits.exceeded(false, 2048, 12_500)).isFalse();
        assertThat(limits.exceeded(false, 2048, 14_501)).isTrue();
    }

    @Test
    void aSubscriberIsHeldToThePubsubClass() throws Exception {
        OutputLimits limits = limits("normal 0 0 0 pubsub 1mb 0 0");
        assertThat(limits.exceeded(false, 1024 * 1024, 0)).isFalse();
        assertThat(limits.exceeded(true, 1024 * 1024, 0)).isTrue();
    }

    @Test
    void thePubsubClassDefaultsToRedisThirtyTwoMegabytesHardEightSoftForSixtySeconds() throws Exception {
        OutputLimits limits = limits("normal 0 0 0");
        assertThat(limits.exceeded(true, 32 * 1024 * 1024 - 1, 0)).isFalse();
        assertThat(limits.exceeded(true, 32 * 1024 * 1024, 0)).isTrue();
        assertThat(limits.exceeded(true, 8 * 1024 * 1024, 0)).isFalse();
        assertThat(limits.exceeded(true, 8 * 1024 * 1024, 60_001)).isTrue();
    }

    @Test
    void onlyASubscriberMakesThePubsubClassWorthChecking() throws Exception {
        Config config = Config.load(null, List.of());
        assertThat(OutputLimits.configured(config, false)).isFalse();
        assertThat(OutputLimits.configured(config, true)).isTrue();
    }
}
