package io.kvd.server;

import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Decided from addresses alone: no traffic leaves loopback. */
class AdmissionTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress LOOPBACK_V6 = new InetSocketAddress("::1", 50000);
    private static final InetSocketAddress REMOTE = new InetSocketAddress("10.1.2.3", 50000);

    @Test
    void protectedModeWithoutPasswordAdmitsLoopbackOnly() throws Exception {
        Config config = Config.load(null, List.of());
        assertThat(Admission.refusal(config, LOOPBACK, 0)).isNull();
        assertThat(Admission.refusal(config, LOOPBACK_V6, 0)).isNull();
        assertThat(Admission.refusal(config, REMOTE, 0)).startsWith("DENIED kvd is running in protected mode");
    }

    @Test
    void aPasswordOrProtectedModeOffAdmitsRemotePeers() throws Exception {
        assertThat(Admission.refusal(Config.load(null, List.of("--requirepass", "secret")), REMOTE, 0)).isNull();
        assertThat(Admission.refusal(Config.load(null, List.of("--protected-mode", "no")), REMOTE, 0)).isNull();
    }

    @Test
    void maxclientsRefusesTheNextConnection() throws Exception {
        Config config = Config.load(null, List.of("--maxclients", "2"));
        assertThat(Admission.refusal(config, LOOPBACK, 1)).isNull();
        assertThat(Admission.refusal(config, LOOPBACK, 2)).isEqualTo("ERR max number of clients reached");
    }
}
