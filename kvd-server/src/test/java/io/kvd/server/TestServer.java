package io.kvd.server;

import io.kvd.server.config.ConfigBuilder;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.CountDownLatch;

/**
 * A kvd in this JVM on an ephemeral loopback port, stopped after each test:
 * {@code @RegisterExtension final TestServer kvd = new TestServer();} then {@code kvd.start("--hz", "100")}.
 */
final class TestServer implements AfterEachCallback {
    private KvdServer server;

    /** Starts kvd with these {@code --name value} options over the test defaults; returns its port. */
    int start(String... options) throws Exception {
        ConfigBuilder config = ConfigBuilder.forTests();
        for (int i = 0; i < options.length; i += 2) {
            config.option(options[i].substring(2), options[i + 1]);
        }
        server = KvdServer.start(config.build());
        return server.port();
    }

    /** The plain port of the server started last; 0 when it serves TLS only. */
    int port() {
        return server.port();
    }

    /** The TLS port of the server started last; 0 without TLS. */
    int tlsPort() {
        return server.tlsPort();
    }

    /** Holds the event loop until {@code release} counts down; returns once the loop is held. */
    void holdLoop(CountDownLatch release) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        server.runOnLoop(() -> {
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        held.await();
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
