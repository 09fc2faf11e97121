package io.kvd.bench;

import io.kvd.bench.ServerProcess.Kind;
import io.kvd.bench.ServerProcess.ServerBinaries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;

/**
 * {@code kvbench tracking}: client-side caching at scale (see {@link TrackingRun}), kvd and
 * redis-server started in turn for each round, then the medians side by side.
 */
@Command(name = "tracking", sortOptions = false,
        description = {"Client-side caching at scale: -c RESP3 clients in default tracking mode read random keys,"
                + " then writers SET random keys while the clients re-read what they are told is invalid.",
                "Measures SET throughput, the time from a SET's reply to its invalidation's arrival at a client"
                        + " that read the key, and the tracking table's bytes per item. Starts kvd and redis-server"
                        + " itself, alternating, for each of --rounds rounds."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every round ran", "1:a server failed to start, refused a request or a connection failed",
                "2:bad arguments"})
final class TrackingCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds per server (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = {"-c", "--clients"}, defaultValue = "1000",
            description = "Tracking clients, one connection each (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = {"-r", "--key-range"}, defaultValue = "100000",
            description = "Keys key:<12 digits> in [0, r), all SET first (default: ${DEFAULT-VALUE}).")
    private long keyRange;

    @Option(names = "--min-reads", defaultValue = "100",
            description = "Fewest keys a tracking client reads (default: ${DEFAULT-VALUE}).")
    private int minReads;

    @Option(names = "--max-reads", defaultValue = "1000",
            description = "Most keys a tracking client reads (default: ${DEFAULT-VALUE}).")
    private int maxReads;

    @Option(names = {"-w", "--writers"}, defaultValue = "4", description = "Writer connections (default: ${DEFAULT-VALUE}).")
    private int writers;

    @Option(names = {"-P", "--pipeline"}, defaultValue = "16",
            description = "SETs in flight per writer (default: ${DEFAULT-VALUE}).")
    private int pipeline;

    @Option(names = "--rate", defaultValue = "0",
            description = "Most SETs per second over all writers, so that both servers carry the same load and their"
                    + " latencies compare; 0 for as many as the servers answer (default: ${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = {"-d", "--data-size"}, defaultValue = "16", description = "Value size in bytes (default: ${DEFAULT-VALUE}).")
    private int dataSize;

    @Option(names = "--warmup", defaultValue = "3s", converter = DurationConverter.class,
            description = "Writes before the measured window (default: ${DEFAULT-VALUE}).")
    private Duration warmup;

    @Option(names = "--duration", defaultValue = "10s", converter = DurationConverter.class,
            description = "The measured window (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--probe-interval", defaultValue = "1ms", converter = DurationConverter.class,
            description = "One write in each interval is a probe whose invalidations are timed (default: ${DEFAULT-VALUE}).")
    private Duration probeInterval;

    @Option(names = "--settle", defaultValue = "5s", converter = DurationConverter.class,
            description = "Quiet before each memory reading: redis-server frees a client's query buffer once it has"
                    + " been idle 2 s (default: ${DEFAULT-VALUE}).")
    private Duration settle;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the clients' choice of keys (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--kvd-jar", description = "kvd's fat jar (default: kvd-server/target/kvd.jar).")
    private Path kvdJar = Path.of(System.getProperty("kvd.jar", "kvd-server/target/kvd.jar"));

    @Option(names = "--kvd-jvm-options", description = "java argument file kvd starts with (default: config/jvm.options "
            + "when it exists, as the README's command; 'none' for the JVM's defaults).")
    private String kvdJvmOptions;

    @Option(names = "--redis-server", description = "redis-server to compare with (default: the PATH's; 'none' for kvd alone).")
    private String redisServer;

    @Option(names = "--json", paramLabel = "FILE", description = "Append each round to FILE as one JSON line.")
    private Path json;

    @Override
    public Integer call() throws InterruptedException {
        TrackingSettings settings = settings();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(kvdJar)) {
            err.println("kvbench tracking: no kvd.jar at " + kvdJar.toAbsolutePath() + "; build kvd-server or pass --kvd-jar");
            return 2;
        }
        Path jvmOptions = SuiteCommand.kvdJvmOptions(kvdJvmOptions);
        Path redis = SuiteCommand.redisServer(redisServer);
        ServerBinaries binaries = new ServerBinaries(kvdJar.toAbsolutePath(),
                jvmOptions == null ? null : jvmOptions.toAbsolutePath(), redis);
        List<Kind> kinds = redis == null ? List.of(Kind.KVD) : List.of(Kind.KVD, Kind.REDIS);
        List<TrackingResult> results = new ArrayList<>();
        try {
            Path work = Files.createTempDirectory("kvbench-tracking");
            try {
                for (int round = 1; round <= rounds; round++) {
                    for (Kind kind : kinds) {
                        TrackingResult result = round(kind, binaries, work.resolve(kind.label() + "-" + round), settings);
                        results.add(result);
                        out.println("round " + round + ": " + result.summary());
                        out.flush();
                        if (json != null) {
                            result.json().appendTo(json);
                        }
                    }
                }
            } finally {
                SuiteServers.deleteTree(work);
            }
        } catch (IOException | ServerProcess.StartFailure e) {
            err.println("kvbench tracking: " + e.getMessage());
            return 1;
        }
        out.print(medians(results));
        out.flush();
        return 0;
    }

    private static TrackingResult round(Kind kind, ServerBinaries binaries, Path dir, TrackingSettings settings)
            throws IOException, InterruptedException, ServerProcess.StartFailure {
        try (ServerProcess server = ServerProcess.start(kind, binaries, dir, Map.of("appendonly", "no"))) {
            return new TrackingRun(server.address(), settings, server.pid(), kind == Kind.KVD).run(kind.label());
        }
    }

    /** The medians of each server's rounds, and kvd's over redis-server's, as a Markdown table. */
    static String medians(List<TrackingResult> results) {
        List<TrackingResult> kvd = results.stream().filter(r -> r.server().equals("kvd")).toList();
        List<TrackingResult> redis = results.stream().filter(r -> r.server().equals("redis")).toList();
        StringBuilder table = new StringBuilder("medians of " + kvd.size() + " rounds:\n"
                + "| | kvd | redis-server | kvd / redis |\n|---|---|---|---|\n");
        row(table, "tracking_total_keys", "%.0f", kvd, redis, TrackingResult::trackedKeys, false);
        row(table, "tracking_total_items", "%.0f", kvd, redis, TrackingResult::trackedItems, false);
        row(table, "SET ops/s", "%.0f", kvd, redis, TrackingResult::setsPerSecond, true);
        row(table, "invalidations/s", "%.0f", kvd, redis, TrackingResult::invalidationsPerSecond, true);
        row(table, "invalidation p50 ms", "%.3f", kvd, redis, r -> r.latencyMillis(50), true);
        row(table, "invalidation p99 ms", "%.3f", kvd, redis, r -> r.latencyMillis(99), true);
        row(table, "invalidation max ms", "%.3f", kvd, redis, TrackingResult::maxLatencyMillis, true);
        row(table, "server CPU µs per SET", "%.1f", kvd, redis, TrackingResult::serverMicrosPerSet, true);
        row(table, "server CPU (cores)", "%.2f", kvd, redis, TrackingResult::serverCores, false);
        row(table, "kvbench CPU (cores)", "%.2f", kvd, redis, TrackingResult::clientCores, false);
        row(table, "table B/item", "%.1f", kvd, redis, TrackingResult::bytesPerItem, true);
        row(table, "load average", "%.2f", kvd, redis, r -> r.loadAverage() == null ? Double.NaN : r.loadAverage(), false);
        return table.toString();
    }

    private static void row(StringBuilder table, String name, String format, List<TrackingResult> kvd,
                            List<TrackingResult> redis, ToDoubleFunction<TrackingResult> figure, boolean ratio) {
        double k = median(kvd, figure);
        double r = median(redis, figure);
        table.append("| ").append(name).append(" | ").append(String.format(Locale.ROOT, format, k)).append(" | ")
                .append(redis.isEmpty() ? "" : String.format(Locale.ROOT, format, r)).append(" | ")
                .append(ratio && !redis.isEmpty() ? String.format(Locale.ROOT, "%.2f", k / r) : "").append(" |\n");
    }

    private static double median(List<TrackingResult> results, ToDoubleFunction<TrackingResult> figure) {
        double[] values = results.stream().mapToDouble(figure).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private TrackingSettings settings() {
        positive(rounds, "--rounds");
        positive(clients, "-c");
        positive(keyRange, "-r");
        positive(minReads, "--min-reads");
        positive(writers, "-w");
        positive(pipeline, "-P");
        positive(dataSize, "-d");
        positive(duration.toMillis(), "--duration");
        positive(probeInterval.toNanos(), "--probe-interval");
        if (maxReads < minReads) {
            throw new ParameterException(spec.commandLine(), "--max-reads must be at least --min-reads");
        }
        if (keyRange < InvalidationProbes.EVERY) {
            throw new ParameterException(spec.commandLine(), "-r must be at least " + InvalidationProbes.EVERY
                    + ": one key in " + InvalidationProbes.EVERY + " is a probe key");
        }
        if (rate < 0) {
            throw new ParameterException(spec.commandLine(), "--rate must be 0 or more, not " + rate);
        }
        return new TrackingSettings(clients, keyRange, minReads, maxReads, writers, pipeline, rate, dataSize, warmup,
                duration, probeInterval, settle, seed);
    }

    private void positive(long value, String option) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), option + " must be at least 1, not " + value);
        }
    }
}
