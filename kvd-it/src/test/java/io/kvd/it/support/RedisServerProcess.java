package io.kvd.it.support;

import java.io.IOException;
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
        List<String> defaults = List.of("--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString());
        return start(dir, null, defaults, options);
    }

    /** Starts redis-server in {@code dir} from the config file {@code file}, with only its port and then {@code options} given after it. */
    public static RedisServerProcess startWithConfigFile(Path dir, Path file, String... options) {
        return start(dir, file, List.of(), options);
    }

    private static RedisServerProcess start(Path dir, Path file, List<String> defaults, String... options) {
        Path redisServer = Tools.require("redis-server");
        FreePortStart.Started started = FreePortStart.start("redis-server", dir, START_TIMEOUT, port -> {
            List<String> command = new ArrayList<>(List.of(redisServer.toString()));
            if (file != null) {
                command.add(file.toString());
            }
            command.addAll(List.of("--port", String.valueOf(port)));
            command.addAll(defaults);
            command.addAll(List.of(options));
            return command;
        }, RedisServerProcess::answersPing);
        return new RedisServerProcess(started.process(), started.port());
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
}
