package io.kvd.bench;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the kvbench command line in-process, as {@code java -jar kvbench.jar args...} would, keeping its output. */
final class Cli {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    int run(String... args) {
        CommandLine commandLine = KvBench.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    /** The settings the arguments parse to. @throws CommandLine.ParameterException for bad arguments */
    static BenchSettings settings(String... args) {
        CommandLine commandLine = KvBench.commandLine();
        commandLine.parseArgs(args);
        return ((KvBench) commandLine.getCommand()).settings();
    }
}
