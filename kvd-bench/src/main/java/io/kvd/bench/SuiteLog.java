package io.kvd.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The suite's output directory: {@code <experiment>.jsonl} files of one JSON line per run, and a
 * line of progress per run. A suite run replaces the file of each experiment it runs (its first
 * line starts the file afresh), so re-running into the same directory never mixes two runs.
 */
final class SuiteLog {
    private final Path dir;
    private final PrintWriter progress;
    private final Set<String> started = new HashSet<>();

    SuiteLog(Path dir, PrintWriter progress) throws IOException {
        // Absolute: the servers run in their own directories and are given paths below this one.
        this.dir = Files.createDirectories(dir).toAbsolutePath();
        this.progress = progress;
    }

    Path dir() {
        return dir;
    }

    /** Appends {@code line} to the experiment's file (replacing one from an earlier run) and says what it was. */
    void record(String experiment, ResultJson line, String summary) throws IOException {
        Path file = dir.resolve(experiment + ".jsonl");
        if (started.add(experiment)) {
            Files.deleteIfExists(file);
        }
        line.appendTo(file);
        say(experiment + ": " + summary);
    }

    void say(String text) {
        progress.println(text);
        progress.flush();
    }
}
