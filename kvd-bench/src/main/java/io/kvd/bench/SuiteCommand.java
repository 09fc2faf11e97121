package io.kvd.bench;

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
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code kvbench suite}: every experiment, kvd and redis-server side by side, one JSON line per run. */
@Command(name = "suite", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs the benchmark suite: starts kvd (and redis-server, when on the PATH) for each"
                + " configuration and measures them in turn, writing <out>/<experiment>.jsonl and <out>/suite.json.",
                "Experiments: depth, connections, workload, aof, aof-latency, expiry, replay, transport, memory."})
final class SuiteCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--help", usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--out", defaultValue = "results", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--reps", description = "Runs per point and server (default: 3, or 1 with --quick).")
    private Integer reps;

    @Option(names = "--quick", description = "A reduced suite, under 2 minutes.")
    private boolean quick;

    @Option(names = "--experiments", split = ",", description = "Only these experiments (default: all).")
    private List<String> experiments;

    @Option(names = "--kvd-jar", description = "kvd's fat jar (default: kvd-server/target/kvd.jar).")
    private Path kvdJar = Path.of(System.getProperty("kvd.jar", "kvd-server/target/kvd.jar"));

    @Option(names = "--kvd-jvm-options", description = "java argument file kvd starts with (default: config/jvm.options "
            + "when it exists, as the README's command; 'none' for the JVM's defaults).")
    private String kvdJvmOptions;

    @Option(names = "--redis-server", description = "redis-server to compare with (default: the PATH's; 'none' for kvd alone).")
    private String redisServer;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        SuiteScale scale = quick ? SuiteScale.QUICK : SuiteScale.FULL;
        Set<String> selected = new LinkedHashSet<>(experiments == null ? Suite.EXPERIMENTS : experiments);
        if (!Suite.EXPERIMENTS.containsAll(selected)) {
            throw new ParameterException(spec.commandLine(), "--experiments: unknown " + selected.stream()
                    .filter(e -> !Suite.EXPERIMENTS.contains(e)).toList() + "; known: " + Suite.EXPERIMENTS);
        }
        if (!Files.isRegularFile(kvdJar)) {
            err.println("kvbench suite: no kvd.jar at " + kvdJar.toAbsolutePath() + "; build kvd-server or pass --kvd-jar");
            return 2;
        }
        Path jvmOptions = kvdJvmOptions(kvdJvmOptions);
        if (jvmOptions != null && !Files.isRegularFile(jvmOptions)) {
            err.println("kvbench suite: no JVM options file at " + jvmOptions.toAbsolutePath());
            return 2;
        }
        Path redis = redisServer(redisServer);
        if (redis == null) {
            err.println("kvbench suite: no redis-server; measuring kvd alone");
        }
        int runs = reps == null ? scale.reps() : reps;
        SuiteLog log = new SuiteLog(out, spec.commandLine().getOut());
        Instant start = Instant.now();
        Double loadBefore = ProcFs.loadAverage();
        log.say("kvbench suite (" + scale.name() + ", " + runs + " reps) into " + out + "; load average " + loadBefore);
        new Suite(new ServerBinaries(kvdJar.toAbsolutePath(), jvmOptions == null ? null : jvmOptions.toAbsolutePath(), redis),
                scale, runs, selected, log).run();
        Files.writeString(out.resolve("suite.json"), new ResultJson()
                .field("start", start.toString()).field("end", Instant.now().toString())
                .field("scale", scale.name()).field("reps", runs)
                .field("experiments", String.join(",", selected))
                .field("cpus", Runtime.getRuntime().availableProcessors())
                .field("cpu_model", cpuModel())
                .field("load_before", loadBefore).field("load_after", ProcFs.loadAverage())
                .field("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"))
                .field("kvd_jar", kvdJar.toAbsolutePath().toString())
                .field("kvd_jvm_options", jvmOptions == null ? null : jvmOptions.toAbsolutePath().toString())
                .field("redis_server", redis == null ? null : version(redis)) + "\n");
        log.say("done in " + Duration.between(start, Instant.now()).toSeconds() + " s; load average " + ProcFs.loadAverage());
        return 0;
    }

    /** The JVM options file for {@code --kvd-jvm-options}'s value (null when not given), null for none. */
    static Path kvdJvmOptions(String kvdJvmOptions) {
        if (kvdJvmOptions == null) {
            Path shipped = Path.of("config", "jvm.options");
            return Files.isRegularFile(shipped) ? shipped : null;
        }
        return "none".equals(kvdJvmOptions) ? null : Path.of(kvdJvmOptions);
    }

    /** redis-server for {@code --redis-server}'s value (null when not given: the PATH's), null for none. */
    static Path redisServer(String redisServer) {
        if ("none".equals(redisServer)) {
            return null;
        }
        if (redisServer != null) {
            return Path.of(redisServer);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static String version(Path redis) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(redis.toString(), "--version").redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes()).strip();
        process.waitFor(10, TimeUnit.SECONDS);
        return text;
    }
}
