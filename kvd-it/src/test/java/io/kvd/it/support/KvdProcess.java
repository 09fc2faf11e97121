package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kvd.jar running as a separate process on an ephemeral port, in its own work directory. Ready once
 * its log says so; {@link #close} stops it with SIGTERM and requires the clean exit (code 0) that
 * SIGTERM promises.
 */
public final class KvdProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** KvdServer's startup line: {@code kvd 0.1.0 ready: transport io_uring, bind 127.0.0.1 -::1, port 41235, PID: 4144}. */
    private static final Pattern READY = Pattern.compile("kvd \\S+ ready: transport (\\S+), bind .*, port (\\d+), PID: (\\d+)");

    private final LoggedProcess process;
    /** The file of a {@code --logfile} option, where kvd then logs instead of its standard output; null without one. */
    private final Path logfile;
    private final Path dir;
    private final String transport;
    private final int port;
    private final long pid;

    private KvdProcess(LoggedProcess process, Path logfile, Path dir, String transport, int port, long pid) {
        this.process = process;
        this.logfile = logfile;
        this.dir = dir;
        this.transport = transport;
        this.port = port;
        this.pid = pid;
    }

    /** Starts kvd with {@code options} ({@code "--name", "value"} pairs, as on its command line) after the defaults. */
    public static KvdProcess start(String... options) {
        return startIn(WorkDir.create("kvd"), options);
    }

    /**
     * Starts kvd in {@code dir} (its AOF and logs go there), e.g. again after {@link #kill}; each
     * start logs to its own file ({@code kvd.log}, {@code kvd-2.log}, ...).
     */
    public static KvdProcess startIn(Path dir, String... options) {
        return startIn(dir, List.of(), options);
    }

    /** Starts kvd with these JVM options before {@code -jar}, as {@code java -XX:... -jar kvd.jar} would. */
    public static KvdProcess startWithJvmOptions(List<String> jvmOptions, String... options) {
        return startIn(WorkDir.create("kvd"), jvmOptions, options);
    }

    /** Starts kvd in {@code dir} from the config file {@code file}, then {@code options}, as {@code kvd.jar FILE --name value}. */
    public static KvdProcess startWithConfigFile(Path dir, Path file, String... options) {
        return startIn(dir, List.of(), file, options);
    }

    private static KvdProcess startIn(Path dir, List<String> jvmOptions, String... options) {
        return startIn(dir, jvmOptions, null, options);
    }

    private static KvdProcess startIn(Path dir, List<String> jvmOptions, Path file, String... options) {
        Path jar = Path.of(System.getProperty("kvd.jar", "../kvd-server/target/kvd.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("no kvd.jar at " + jar + " (system property kvd.jar); build kvd-server first");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        if (file != null) {
            command.add(file.toString());
        }
        command.addAll(List.of("--port", "0", "--dir", dir.toString()));
        command.addAll(List.of(options));
        String name = "kvd";
        for (int n = 2; Files.exists(dir.resolve(name + ".log")); n++) {
            name = "kvd-" + n;
        }
        LoggedProcess process = LoggedProcess.start(name, dir, command);
        Path logfile = logfile(dir, options);
        Matcher ready = Poll.until(START_TIMEOUT, "kvd to log that it is ready", () -> {
            Matcher m = READY.matcher(logText(process, logfile));
            if (m.find()) {
                return m;
            }
            if (!process.isAlive()) {
                throw new AssertionError("kvd exited before it was ready: " + process.describe());
            }
            return null;
        });
        return new KvdProcess(process, logfile, dir, ready.group(1), Integer.parseInt(ready.group(2)),
                Long.parseLong(ready.group(3)));
    }

    /** Starts kvd on the named transport: nio, epoll, io_uring or kqueue. */
    public static KvdProcess startWithTransport(String transport) {
        return start("--transport", transport);
    }

    public int port() {
        return port;
    }

    /** The process id kvd reported at startup. */
    public long pid() {
        return pid;
    }

    /** The transport kvd reported at startup. */
    public String transport() {
        return transport;
    }

    public Path dir() {
        return dir;
    }

    /** What kvd logged: its standard output, or the file of its {@code --logfile} option. */
    public String log() {
        return logText(process, logfile);
    }

    /** The last {@code --logfile} option's file, relative to dir as kvd takes it; null when kvd logs to standard output. */
    private static Path logfile(Path dir, String... options) {
        String logfile = "";
        for (int i = 0; i + 1 < options.length; i++) {
            if (options[i].equals("--logfile")) {
                logfile = options[i + 1];
            }
        }
        return logfile.isEmpty() ? null : dir.resolve(logfile);
    }

    private static String logText(LoggedProcess process, Path logfile) {
        if (logfile == null) {
            return process.logText();
        }
        try {
            return Files.exists(logfile) ? Files.readString(logfile) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: the process dies at once, as in a crash, and this waits for it to be gone. */
    public void kill() {
        process.kill();
    }

    /** Stops with SIGTERM and returns the exit code, whatever it is. */
    public int stop() {
        return process.stop(STOP_TIMEOUT);
    }

    /** Stops with SIGTERM and fails, showing the log, unless kvd exits with code 0. */
    @Override
    public void close() {
        int exitCode = stop();
        if (exitCode != 0) {
            throw new AssertionError("kvd exited with code " + exitCode + " after SIGTERM: " + process.describe());
        }
    }
}
