package io.kvd.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** The suite's output directory: {@code <experiment>.jsonl} files of one JSON line per run, and a line of progress per run. */
final class SuiteLog {
    private final Path dir;
    private final PrintWriter progress;

    SuiteLog(Path dir, PrintWriter progress) throws IOException {
        // Absolute: the servers run in their own directories and are given paths below this one.
        this.dir = Files.createDirectories(dir).toAbsolutePath();
        this.progress = progress;
    }

    Path dir() {
        return dir;
    }

    /** Appends {@code line} to the experiment's file and says what it was. */
    void record(String experiment, ResultJson line, String summary) throws IOException {
        line.appendTo(dir.resolve(experiment + ".jsonl"));
        say(experiment + ": " + summary);
    }

    void say(String text) {
        progress.println(text);
        progress.flush();
    }
}
