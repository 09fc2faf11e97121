package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * twemproxy (Debian's {@code nutcracker}) in front of kvd nodes, configured by the project's own
 * {@code config/twemproxy.yml} with the listen address and the nodes' addresses swapped for ephemeral
 * ports. Tests that need it are skipped where it is not installed ({@code .ci/run} installs it).
 */
public final class NutcrackerProcess implements AutoCloseable {
    /** The documented configuration, relative to kvd-it, where the tests run. */
    private static final Path DOCUMENTED_CONFIG = Path.of("../config/twemproxy.yml");
    private static final String DOCUMENTED_LISTEN = "127.0.0.1:22121";
    private static final List<String> DOCUMENTED_NODES = List.of("127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final LoggedProcess process;
    private final int port;

    private NutcrackerProcess(LoggedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts nutcracker for the three nodes on {@code nodePorts}, with {@code poolLines} (e.g.
     * {@code "redis_auth: secret"}) added to the pool; ready once it answers a PING, which it answers
     * itself (with {@code -NOAUTH} under redis_auth).
     */
    public static NutcrackerProcess start(List<Integer> nodePorts, String... poolLines) {
        Path nutcracker = Tools.require("nutcracker", "apt-get install nutcracker");
        Path dir = WorkDir.create("nutcracker");
        Path config = dir.resolve("nutcracker.yml");
        FreePortStart.Started started = FreePortStart.start("nutcracker", dir, START_TIMEOUT, port -> {
            write(config, configuration(port, nodePorts, poolLines));
            // -o: nutcracker logs to /var/log/nutcracker by default; -s: its stats port is fixed (22222) by default.
            return List.of(nutcracker.toString(), "-c", config.toString(), "-o", "/dev/stdout",
                    "-a", "127.0.0.1", "-s", String.valueOf(FreePortStart.freePort()));
        }, NutcrackerProcess::answers);
        return new NutcrackerProcess(started.process(), started.port());
    }

    /** The port clients connect to. */
    public int port() {
        return port;
    }

    public String log() {
        return process.logText();
    }

    /** Stops it with SIGTERM, on which nutcracker simply dies (it has no clean shutdown to check). */
    @Override
    public void close() {
        process.stop(STOP_TIMEOUT);
    }

    private static String configuration(int port, List<Integer> nodePorts, String... poolLines) {
        if (nodePorts.size() != DOCUMENTED_NODES.size()) {
            throw new IllegalArgumentException("config/twemproxy.yml has " + DOCUMENTED_NODES.size() + " nodes");
        }
        String text = read(DOCUMENTED_CONFIG).replace(DOCUMENTED_LISTEN, "127.0.0.1:" + port);
        for (int i = 0; i < nodePorts.size(); i++) {
            text = text.replace(DOCUMENTED_NODES.get(i) + ":", "127.0.0.1:" + nodePorts.get(i) + ":");
        }
        StringBuilder config = new StringBuilder(text);
        for (String line : poolLines) {
            config.append("  ").append(line).append('\n');
        }
        return config.toString();
    }

    private static boolean answers(int port) {
        try (RespConnection connection = RespConnection.open(port)) {
            connection.call("PING");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
