package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Starting a server on a free port. Another process may take the port between the probe and the
 * server's bind, so a start whose log says the address is in use is tried again on another port.
 */
final class FreePortStart {
    private static final int ATTEMPTS = 3;

    /** A server that answered on {@code port}. */
    record Started(LoggedProcess process, int port) {
    }

    private FreePortStart() {
    }

    /**
     * Starts {@code command(port)} as {@code name} in {@code dir}, logging there, and waits up to
     * {@code timeout} until {@code answers(port)}; fails with the log if it exits first.
     */
    static Started start(String name, Path dir, Duration timeout, IntFunction<List<String>> command, IntPredicate answers) {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            LoggedProcess process = LoggedProcess.start(name, dir, command.apply(port));
            boolean exited = Poll.until(timeout, name + " to answer on port " + port, () -> {
                if (!process.isAlive()) {
                    return Boolean.TRUE;
                }
                return answers.test(port) ? Boolean.FALSE : null;
            });
            if (!exited) {
                return new Started(process, port);
            }
            // C servers say "Address already in use" (strerror), Go's "address already in use".
            if (attempt == ATTEMPTS || !process.logText().toLowerCase(Locale.ROOT).contains("address already in use")) {
                throw new AssertionError(name + " did not start: " + process.describe());
            }
        }
    }

    /** A port nothing listens on now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
