package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import org.junit.jupiter.api.Test;

import java.io.IOException;

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
    void aServerThatCannotStartFailsWithItsLog() {
        assertThatThrownBy(() -> KvdProcess.start("--hz", "0"))
                .hasMessageContaining("kvd exited before it was ready")
                .hasMessageContaining("kvd: bad configuration");
    }
}
