package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference: a real redis-server, without persistence, on an ephemeral port in its own work
 * directory. Tests that need it are skipped where it is not installed ({@code .ci/run} installs it).
 */
public final class RedisServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** Another process may take the free port between our probe and redis-server's bind. */
    private static final int ATTEMPTS = 3;

    private final LoggedProcess process;
    private final int port;

    private RedisServerProcess(LoggedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    public static RedisServerProcess start() {
        return startIn(WorkDir.create("redis"));
    }

    /** Starts redis-server in {@code dir} with {@code options} after the defaults (later ones win, e.g. --appendonly yes). */
    public static RedisServerProcess startIn(Path dir, String... options) {
        Path redisServer = Tools.require("redis-server");
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(redisServer.toString(),
                    "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--dir", dir.toString()));
            command.addAll(List.of(options));
            LoggedProcess process = LoggedProcess.start("redis-server", dir, command);
            boolean exited = Poll.until(START_TIMEOUT, "redis-server to answer PING on port " + port, () -> {
                if (!process.isAlive()) {
                    return Boolean.TRUE;
                }
                return answersPing(port) ? Boolean.FALSE : null;
            });
            if (!exited) {
                return new RedisServerProcess(process, port);
            }
            if (attempt == ATTEMPTS || !process.logText().contains("Address already in use")) {
                throw new AssertionError("redis-server did not start: " + process.describe());
            }
        }
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        int exitCode = process.stop(STOP_TIMEOUT);
        if (exitCode != 0) {
            throw new AssertionError("redis-server exited with code " + exitCode + ": " + process.describe());
        }
    }

    private static boolean answersPing(int port) {
        try (RespConnection connection = RespConnection.open(port)) {
            return connection.call("PING").equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    /** A port nothing listens on now; another process may still take it before the caller binds it. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
