package io.kvd.server;

import io.kvd.server.config.Config;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A kvd in this JVM on an ephemeral loopback port, stopped after each test:
 * {@code @RegisterExtension final TestServer kvd = new TestServer();} then {@code kvd.start("--hz", "100")}.
 */
final class TestServer implements AfterEachCallback {
    private KvdServer server;

    /** Starts kvd with these options over the test defaults and returns its port. */
    int start(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--bind", "127.0.0.1", "--appendonly", "no"));
        args.addAll(Arrays.asList(options));
        server = KvdServer.start(Config.load(null, args));
        return server.port();
    }

    void checkInvariants() {
        server.checkInvariants();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }
}
