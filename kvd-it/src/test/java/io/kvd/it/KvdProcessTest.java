package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Starting and stopping kvd.jar as a process: what every other test here relies on. */
class KvdProcessTest {

    @Test
    void servesOnTheEphemeralPortItLoggedAndExitsZeroOnSigterm() throws IOException {
        KvdProcess kvd = KvdProcess.start();
        try (RespConnection connection = RespConnection.open(kvd.port())) {
            assertThat(connection.call("PING")).isEqualTo("+PONG\r\n");
        }

        assertThat(kvd.stop()).isZero();
        assertThat(kvd.log()).contains("kvd stopped");
    }

    @Test
    void thePlainJarKeepsItsHeapNearlyFullAndSaysWhichCollectorAndRegionSizeItRunsOn() {
        try (KvdProcess kvd = KvdProcess.start()) {
            assertThat(kvd.log()).contains("JVM: collector G1, region size ").contains("heap kept 1-10% free");
        }
    }

    @Test
    void heapFreeRatiosGivenOnTheCommandLineAreKept() {
        try (KvdProcess kvd = KvdProcess.startWithJvmOptions(List.of("-XX:MinHeapFreeRatio=20", "-XX:MaxHeapFreeRatio=50"))) {
            assertThat(kvd.log()).contains("heap kept 20-50% free");
        }
    }

    @Test
    void aCollectorOtherThanG1IsWarnedAbout() {
        try (KvdProcess kvd = KvdProcess.startWithJvmOptions(List.of("-XX:+UseSerialGC"))) {
            assertThat(kvd.log()).contains("WARN").contains("JVM: collector Serial");
        }
    }

    @Test
    void aServerThatCannotStartFailsWithItsLog() {
        assertThatThrownBy(() -> KvdProcess.start("--hz", "0"))
                .hasMessageContaining("kvd exited before it was ready")
                .hasMessageContaining("kvd: bad configuration");
    }
}
