package io.kvd.server;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code daemonize yes}: Redis forks and the parent exits; a JVM cannot fork, so the start runs
 * kvd again as a detached process (its own session under {@code setsid} where there is one,
 * standard streams on /dev/null, as Redis's daemonize does) and returns once that process is
 * ready to accept connections, or fails with its exit code. The child learns it is one, and where
 * to say it is ready, from an environment variable.
 */
final class Daemon {
    /** The file the detached kvd creates once it serves; set only in the detached kvd. */
    static final String READY_FILE = "KVD_DAEMON_READY_FILE";
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final long READY_DEADLINE_NANOS = 120_000_000_000L;

    private Daemon() {
    }

    /** Starts the detached kvd with this JVM's options and these arguments; the exit code for this process. */
    static int detach(String[] args) {
        try {
            Path ready = Files.createTempFile("kvd-daemon-", ".ready");
            Files.delete(ready);
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                command.add(SETSID.toString());
            }
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
            command.addAll(Arrays.asList(args));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.to(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.to(new File("/dev/null")));
            builder.environment().put(READY_FILE, ready.toString());
            Process child = builder.start();
            long deadline = System.nanoTime() + READY_DEADLINE_NANOS;
            while (!Files.exists(ready)) {
                if (!child.isAlive()) {
                    System.err.println("kvd: the detached server stopped with exit code " + child.exitValue()
                            + " before it was ready; see its logfile");
                    return 1;
                }
                if (System.nanoTime() > deadline) {
                    System.err.println("kvd: the detached server (pid " + child.pid() + ") is not ready after 120 s");
                    return 1;
                }
                Thread.sleep(10);
            }
            Files.deleteIfExists(ready);
            return 0;
        } catch (IOException e) {
            System.err.println("kvd: cannot start the detached server: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** In the detached kvd: the server serves, so the start that launched it may return. */
    static void announceReady() {
        String ready = System.getenv(READY_FILE);
        if (ready == null) {
            return;
        }
        try {
            Files.createFile(Path.of(ready));
        } catch (IOException e) {
            // The starting process then reports that the server is not ready; nothing to do here.
            System.err.println("kvd: cannot tell the start it is ready: " + e.getMessage());
        }
    }
}
