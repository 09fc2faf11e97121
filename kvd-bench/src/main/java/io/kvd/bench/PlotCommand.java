package io.kvd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code kvbench plot DIR}: PNG charts and summary.csv from a suite's results. */
@Command(name = "plot", description = "Writes PNG charts and summary.csv into DIR from the suite's <experiment>.jsonl there.")
final class PlotCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--help", usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(paramLabel = "DIR", defaultValue = "results", description = "The suite's output (default: ${DEFAULT-VALUE}).")
    private Path dir;

    @Override
    public Integer call() throws IOException {
        if (!Files.isDirectory(dir)) {
            spec.commandLine().getErr().println("kvbench plot: no directory " + dir);
            return 2;
        }
        for (Path file : Plot.write(dir)) {
            spec.commandLine().getOut().println(file);
        }
        return 0;
    }
}
