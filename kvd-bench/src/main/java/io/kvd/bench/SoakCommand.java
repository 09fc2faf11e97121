package io.kvd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code kvbench soak}: everything that strains a server's connections at once, for a long time (see {@link Soak}). */
@Command(name = "soak", sortOptions = false,
        description = {"Mixed pipelined load, connection churn, clients killed mid-reply and mid-request, and"
                + " BGREWRITEAOF every few seconds, all at once; values are read back and checked.",
                "Prints a progress line every --progress and a summary at the end."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the server answered throughout and every value read back was the one written",
                "1:the server became unreachable, or a value read back differed", "2:bad arguments"})
final class SoakCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerOptions server;

    @Option(names = "--duration", defaultValue = "30m", converter = DurationConverter.class,
            description = "How long to run, e.g. 30m, 60s (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--seed", defaultValue = "1",
            description = "Seed of every random choice; each thread's choices follow from it (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--rate", defaultValue = "10000",
            description = "Most requests per second of the load clients and the checker together; churn, kills and"
                    + " rewrites come on top, a few hundred a second (default: ${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = {"-c", "--clients"}, defaultValue = "8",
            description = "Load clients, a thread and a connection each (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = "--max-connections", defaultValue = "1000",
            description = "Most idle connections the churn holds open at once (default: ${DEFAULT-VALUE}).")
    private int maxConnections;

    @Option(names = {"-r", "--key-range"}, defaultValue = "10000",
            description = "The load's keys are soak:key:<n> for n in [0, r) (default: ${DEFAULT-VALUE}).")
    private int keyRange;

    @Option(names = "--progress", defaultValue = "10s", converter = DurationConverter.class,
            description = "Time between two progress lines (default: ${DEFAULT-VALUE}).")
    private Duration progress;

    @Override
    public Integer call() throws InterruptedException {
        Soak soak = new Soak(settings(), spec.commandLine().getOut());
        try {
            return soak.run() ? 0 : 1;
        } catch (IOException e) {
            spec.commandLine().getErr().println("kvbench soak: " + e.getMessage());
            return 1;
        }
    }

    private SoakSettings settings() {
        ServerAddress address = server.address(spec);
        positive(duration.toMillis(), "--duration");
        positive(rate, "--rate");
        positive(clients, "-c");
        positive(maxConnections, "--max-connections");
        positive(keyRange, "-r");
        positive(progress.toMillis(), "--progress");
        return new SoakSettings(address, duration, seed, rate, clients, maxConnections, keyRange, progress);
    }

    private void positive(long value, String option) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), option + " must be at least 1, not " + value);
        }
    }
}
