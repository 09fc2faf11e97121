package io.kvd.it.support;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Redis's own programs (redis-server, redis-cli, redis-benchmark): finding them and running them. */
public final class Tools {
    private Tools() {
    }

    /** What a finished run printed. */
    public record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit code " + exitCode + "\n--- stdout:\n" + stdout + "\n--- stderr:\n" + stderr;
        }
    }

    /**
     * The program's path on PATH (or the program itself, given as an absolute path); skips the
     * calling test (with the reason) when it is not installed.
     */
    public static Path require(String program) {
        return require(program, "apt-get install redis-server redis-tools");
    }

    /**
     * As {@link #require(String)}, for a program that {@code install} installs. /usr/sbin is searched
     * after PATH: Debian puts daemons such as nutcracker there, and a user's PATH often lacks it.
     */
    public static Path require(String program, String install) {
        if (Path.of(program).isAbsolute()) {
            if (Files.isExecutable(Path.of(program))) {
                return Path.of(program);
            }
            Assumptions.abort(program + " is not installed");
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/bin") + ":/usr/sbin";
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Assumptions.abort(program + " is not installed (" + install + "; .ci/run does it)");
        throw new AssertionError("unreachable");
    }

    /**
     * Runs {@code program args...} with {@code stdin} (a file, or nothing when null) and returns
     * its output; fails when it runs longer than {@code timeout}. Output goes through files, so a
     * chatty program never blocks on a full pipe.
     */
    public static Result run(Duration timeout, Path stdin, String program, String... args) {
        List<String> command = new ArrayList<>();
        command.add(require(program).toString());
        command.addAll(List.of(args));
        Path dir = WorkDir.create(Path.of(program).getFileName().toString());
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.redirectInput(stdin == null ? ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())
                : ProcessBuilder.Redirect.from(stdin.toFile()));
        try {
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " still running after " + timeout.toMillis() + " ms; killed. "
                        + "Output so far in " + dir);
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }
}
