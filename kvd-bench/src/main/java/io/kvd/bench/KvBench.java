package io.kvd.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** The {@code kvbench} command line; option names and defaults follow redis-benchmark's where it has one. */
@Command(name = "kvbench", sortOptions = false, usageHelpAutoWidth = true, subcommands = {SuiteCommand.class, PlotCommand.class, SlowlorisCommand.class,
        FairnessCommand.class, SoakCommand.class, TrackingCommand.class},
        description = "A pipelined closed-loop RESP load generator: every connection keeps up to -P requests in flight.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run completed without error replies (or --allow-errors)",
                "1:error replies, or a connection failed", "2:bad arguments"})
public final class KvBench implements Callable<Integer> {
    private static final long DEFAULT_REQUESTS = 100_000;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerOptions server;

    @Option(names = {"-c", "--connections"}, defaultValue = "50", description = "Connections (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = {"-P", "--pipeline"}, defaultValue = "1",
            description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    private int pipeline;

    @Option(names = {"-n", "--requests"},
            description = "Total requests over all connections (default: " + DEFAULT_REQUESTS + ", unlimited with --duration).")
    private Long requests;

    @Option(names = "--duration", converter = DurationConverter.class,
            description = "Stop issuing requests after this long, e.g. 10s, 500ms, 2m; with -n, whichever ends first.")
    private Duration duration;

    @Option(names = "--threads", defaultValue = "1",
            description = "Event loop threads; each owns an equal share of the connections (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = {"-w", "--workload"}, defaultValue = "set",
            description = "One of: set, get, mix (half SET, half GET), incr, ping (default: ${DEFAULT-VALUE}).")
    private Workload workload;

    @Option(names = {"-d", "--data-size"}, defaultValue = "3", description = "SET value size in bytes (default: ${DEFAULT-VALUE}).")
    private int dataSize;

    @Option(names = {"-r", "--key-range"}, defaultValue = "100000",
            description = "Keys are key:<12-digit random number in [0, r)> (default: ${DEFAULT-VALUE}).")
    private long keyRange;

    @Option(names = "--servers", split = ",", paramLabel = "HOST:PORT", converter = ServerAddressConverter.class,
            description = "Shard keys over these servers by key number modulo their count (instead of -h and -p);"
                    + " each connection has one socket per server.")
    private List<ServerAddress> servers;

    @Option(names = "--cluster", paramLabel = "HOST:PORT", converter = ServerAddressConverter.class,
            description = "A Redis Cluster node (instead of -h and -p): the slot map is read from its CLUSTER SLOTS,"
                    + " each connection has one socket per master, and each key goes to the master of its slot.")
    private ServerAddress cluster;

    @Option(names = "--verify", description = "SET values end with their key's digits; check that GET returns them.")
    private boolean verify;

    @Option(names = "--warmup", converter = DurationConverter.class,
            description = "Run the same load this long, unmeasured, before the measured run (lets the JIT compile).")
    private Duration warmup;

    @Option(names = "--server-pid", split = ",", paramLabel = "PID",
            description = "The servers' process ids, for their CPU time (default: INFO's process_id of local servers).")
    private List<Long> serverPids;

    @Option(names = "--json", paramLabel = "FILE", description = "Append the results to FILE as one JSON line.")
    private Path json;

    @Option(names = "--allow-errors", description = "Exit 0 even when some replies were errors.")
    private boolean allowErrors;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The parser main uses: workload names are accepted in any case. */
    static CommandLine commandLine() {
        return new CommandLine(new KvBench()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() throws InterruptedException {
        BenchSettings settings = settings();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BenchResult result;
        try {
            result = LoadGenerator.run(settings, ProgressLine.onTerminal(err));
        } catch (IOException e) {
            err.println("kvbench: " + e.getMessage());
            return 1;
        }
        out.print(ResultText.render(result));
        out.flush();
        if (json != null) {
            try {
                ResultJson.line(result).appendTo(json);
            } catch (IOException e) {
                err.println("kvbench: cannot write " + json + ": " + e);
                return 1;
            }
        }
        if (result.errors() > 0 && !allowErrors) {
            String what = settings.verify() ? " errors (error replies or wrong GET values)" : " error replies";
            err.println("kvbench: " + result.errors() + what + " (pass --allow-errors to accept them)");
            return 1;
        }
        return 0;
    }

    /** The parsed options, checked. @throws ParameterException naming the first bad option */
    BenchSettings settings() {
        ServerAddress address = server.address(spec);
        if (cluster != null && servers != null) {
            throw new ParameterException(spec.commandLine(), "--cluster and --servers exclude each other");
        }
        if (cluster != null && serverPids != null) {
            throw new ParameterException(spec.commandLine(),
                    "--server-pid does not go with --cluster: the masters are discovered, their pids read from INFO");
        }
        List<ServerAddress> targets = cluster != null ? List.of(cluster)
                : servers != null ? servers : List.of(address);
        if (serverPids != null && serverPids.size() != targets.size()) {
            throw new ParameterException(spec.commandLine(), "--server-pid needs one process id per server");
        }
        atLeast(1, connections, "-c");
        atLeast(1, pipeline, "-P");
        atLeast(1, threads, "--threads");
        atLeast(0, dataSize, "-d");
        atLeast(1, keyRange, "-r");
        if (keyRange > RequestTemplate.MAX_KEY_RANGE) {
            throw new ParameterException(spec.commandLine(), "-r must be at most " + RequestTemplate.MAX_KEY_RANGE
                    + ": keys have " + RequestTemplate.KEY_DIGITS + " digits");
        }
        if (requests != null) {
            atLeast(1, requests, "-n");
        }
        if (duration != null && duration.isZero()) {
            throw new ParameterException(spec.commandLine(), "--duration must be longer than 0");
        }
        if (verify && dataSize == 0) {
            throw new ParameterException(spec.commandLine(), "--verify needs values of at least 1 byte (-d)");
        }
        long limit = requests != null ? requests : duration != null ? BenchSettings.UNLIMITED : DEFAULT_REQUESTS;
        return new BenchSettings(targets, connections, pipeline, limit, duration, threads, workload, dataSize, keyRange,
                verify, warmup, serverPids == null ? List.of() : serverPids, cluster);
    }

    private void atLeast(long minimum, long value, String option) {
        if (value < minimum) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + minimum + ", not " + value);
        }
    }
}
