package io.kvd.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BenchResultTest {

    @Test
    void aSaturatedClientWithAnIdleServerIsTheBottleneck() {
        assertThat(result(1, 1.95, 1.0).clientBound()).isTrue();
    }

    @Test
    void aSaturatedServerIsTheBottleneckWhateverTheClient() {
        assertThat(result(1, 1.95, 1.9).clientBound()).isFalse();
    }

    @Test
    void aClientWithIdleThreadsIsNotTheBottleneck() {
        assertThat(result(2, 2.0, 1.0).clientBound()).isFalse();
    }

    @Test
    void withoutTheServersCpuNothingIsClaimed() {
        assertThat(result(1, 1.95, null).clientBound()).isFalse();
    }

    @Test
    void opsPerServerCpuSecondDividesTheRequestsByTheServersCpuTime() {
        assertThat(result(1, 1.0, 0.5).opsPerServerCpuSecond()).isEqualTo(2000.0);
        assertThat(result(1, 1.0, null).opsPerServerCpuSecond()).isNull();
    }

    /** 1000 requests in 2 s with one server, kvbench on {@code threads} threads using {@code clientCpu} seconds. */
    private static BenchResult result(int threads, double clientCpu, Double serverCpu) {
        BenchSettings settings = Cli.settings("--threads", String.valueOf(threads));
        Histogram latency = new Histogram(LoopStats.SIGNIFICANT_DIGITS);
        latency.recordValueWithCount(1000, 1000);
        ResourceUse use = new ResourceUse(0.5, 0.5, clientCpu, serverCpu == null ? List.of() : List.of(1L), serverCpu);
        return new BenchResult(settings, "epoll", 0, null, 0, 0, 2_000_000_000L, latency, use);
    }
}
