package io.kvd.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SuiteLogTest {
    @TempDir
    Path dir;

    @Test
    void aSecondRunIntoTheSameDirectoryReplacesTheFilesOfTheExperimentsItRunsAndKeepsTheOthers() throws Exception {
        SuiteLog first = new SuiteLog(dir, new PrintWriter(new StringWriter()));
        first.record("depth", new ResultJson().field("run", 1L), "first");
        first.record("depth", new ResultJson().field("run", 1L), "first");
        first.record("memory", new ResultJson().field("run", 1L), "first");

        SuiteLog second = new SuiteLog(dir, new PrintWriter(new StringWriter()));
        second.record("depth", new ResultJson().field("run", 2L), "second");

        assertThat(Files.readAllLines(dir.resolve("depth.jsonl"))).containsExactly("{\"run\":2}");
        assertThat(Files.readAllLines(dir.resolve("memory.jsonl"))).containsExactly("{\"run\":1}");
    }
}
