package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A server process whose standard output and error go to one log file in its work directory. Every
 * one started is remembered, so that {@link ServerLogsOnFailure} can show the logs of a failed test,
 * and a JVM that exits without stopping one does not leave it running.
 */
final class LoggedProcess {
    static final List<LoggedProcess> STARTED = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.forEach(p -> p.process.destroyForcibly())));
    }

    private final String name;
    private final Path log;
    private final Process process;

    private LoggedProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    static LoggedProcess start(String name, Path dir, List<String> command) {
        Path log = dir.resolve(name + ".log");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            LoggedProcess started = new LoggedProcess(name, log, process);
            STARTED.add(started);
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String logText() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The log's path and contents, for failure messages. */
    String describe() {
        return name + " (pid " + process.pid() + ", " + (isAlive() ? "running" : "exited " + process.exitValue())
                + "), log " + log + ":\n" + logText();
    }

    /** SIGKILL, then waits for the exit. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while killing " + name, e);
        }
    }

    /** SIGTERM, then waits for the exit; returns its code, or fails (after SIGKILL) on timeout. */
    int stop(Duration timeout) {
        process.destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("still running " + timeout.toMillis() + " ms after SIGTERM; killed. "
                        + describe());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted while stopping " + name, e);
        }
        return process.exitValue();
    }
}
