package io.kvd.bench;

import io.kvd.codec.RespReply;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server the suite started: kvd from its jar or redis-server, on a free port, in a work directory of
 * its own, logging to a file there. Ready once it answers PING with +PONG (redis-server answers
 * -LOADING while it replays its AOF; kvd may not listen until it has).
 */
final class ServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final long POLL_MS = 5;
    /** Another process may take the free port between the probe and the server's bind. */
    private static final int ATTEMPTS = 3;
    /** KvdServer's startup line names the transport it chose. */
    private static final Pattern KVD_TRANSPORT = Pattern.compile("kvd \\S+ ready: transport ([^,\\s]+)");

    /** Which server, and how each is started. */
    enum Kind {
        KVD, REDIS;

        String label() {
            return this == KVD ? "kvd" : "redis";
        }
    }

    /** The server could not start; the reason is its log's last lines. */
    static final class StartFailure extends Exception {
        StartFailure(String message) {
            super(message);
        }
    }

    /** Every server started and not yet stopped: a suite interrupted (Ctrl-C) must not leave them running. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
    }

    private final Kind kind;
    private final Process process;
    private final Path log;
    private final ServerAddress address;
    private final long startNanos;
    private final long readyNanos;

    private ServerProcess(Kind kind, Process process, Path log, int port, long startNanos, long readyNanos) {
        this.kind = kind;
        this.process = process;
        this.log = log;
        this.address = new ServerAddress("127.0.0.1", port);
        this.startNanos = startNanos;
        this.readyNanos = readyNanos;
    }

    /**
     * Starts a server of {@code kind} in {@code dir} with {@code directives} (name to value, as in its
     * configuration file) and waits until it answers PING.
     */
    static ServerProcess start(Kind kind, ServerBinaries binaries, Path dir, Map<String, String> directives)
            throws StartFailure, IOException, InterruptedException {
        return launch(kind, binaries, dir, directives).awaitReady();
    }

    /** Starts the process without waiting, so that several servers (JVMs) can start at once. */
    static Launch launch(Kind kind, ServerBinaries binaries, Path dir, Map<String, String> directives)
            throws IOException {
        Files.createDirectories(dir);
        int port = freePort();
        List<String> command = binaries.command(kind, port, dir);
        directives.forEach((name, value) -> command.addAll(List.of("--" + name, value)));
        Path log = dir.resolve(kind.label() + ".log");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        RUNNING.add(process);
        process.onExit().thenAccept(RUNNING::remove);
        return new Launch(kind, binaries, dir, directives, process, log, port, start);
    }

    /** A server process started and perhaps not ready yet. */
    record Launch(Kind kind, ServerBinaries binaries, Path dir, Map<String, String> directives, Process process,
                  Path log, int port, long startNanos) {

        /** Waits for the first +PONG; on a port taken meanwhile, starts again on another. */
        ServerProcess awaitReady() throws StartFailure, IOException, InterruptedException {
            Launch launch = this;
            for (int attempt = 1; ; attempt++) {
                try {
                    long ready = ServerProcess.awaitReady(launch.process, launch.port);
                    return new ServerProcess(kind, launch.process, launch.log, launch.port, launch.startNanos, ready);
                } catch (StartFailure e) {
                    launch.process.destroyForcibly().waitFor();
                    if (attempt == ATTEMPTS || !Files.readString(launch.log).contains("Address already in use")) {
                        throw new StartFailure(kind.label() + " " + e.getMessage() + "; its log ends: "
                                + logTail(launch.log));
                    }
                    launch = launch(kind, binaries, dir, directives);
                }
            }
        }
    }

    ServerAddress address() {
        return address;
    }

    long pid() {
        return process.pid();
    }

    /** From the launch to the first +PONG: JVM start, or AOF replay, included. */
    double secondsToReady() {
        return (readyNanos - startNanos) / 1e9;
    }

    /** The socket layer serving: kvd names it in its log; redis-server on Linux uses epoll. */
    String transport() throws IOException {
        if (kind == Kind.REDIS) {
            return "epoll";
        }
        Matcher m = KVD_TRANSPORT.matcher(Files.readString(log));
        return m.find() ? m.group(1) : null;
    }

    /** Stops with SIGTERM (both servers exit cleanly on it, flushing their AOF) and waits. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static long awaitReady(Process process, int port) throws StartFailure, InterruptedException, IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StartFailure("exited with code " + process.exitValue());
            }
            try (RespClient client = RespClient.connect(new ServerAddress("127.0.0.1", port))) {
                if (client.call("PING") instanceof RespReply.SimpleString) {
                    return System.nanoTime();
                }
            } catch (IOException e) {
                // Not listening yet.
            }
            Thread.sleep(POLL_MS);
        }
        throw new StartFailure("no +PONG within " + START_TIMEOUT.toSeconds() + " s");
    }

    private static String logTail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())).strip();
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Where kvd.jar, its java argument file (null for the JVM's defaults) and redis-server are,
     * and the command lines that start them.
     */
    record ServerBinaries(Path kvdJar, Path kvdJvmOptions, Path redisServer) {
        List<String> command(Kind kind, int port, Path dir) {
            List<String> command = new ArrayList<>();
            if (kind == Kind.KVD) {
                command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                if (kvdJvmOptions != null) {
                    command.add("@" + kvdJvmOptions);
                }
                command.addAll(List.of("-jar", kvdJar.toString()));
            } else {
                command.addAll(List.of(redisServer.toString(), "--bind", "127.0.0.1", "--save", ""));
            }
            command.addAll(List.of("--port", String.valueOf(port), "--dir", dir.toString()));
            return command;
        }
    }
}
