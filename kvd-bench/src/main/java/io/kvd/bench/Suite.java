package io.kvd.bench;

import io.kvd.bench.ServerProcess.Kind;
import io.kvd.bench.ServerProcess.ServerBinaries;
import io.kvd.bench.ServerProcess.StartFailure;
import io.kvd.bench.SuiteServers.Entry;
import io.kvd.bench.SuiteServers.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/**
 * The benchmark suite: each experiment starts kvd (and redis-server, when installed) with the
 * configuration it compares, then measures them in turn, run by run, writing one JSON line per run to
 * {@code <out>/<experiment>.jsonl}. Runs that cannot happen (a server refusing a configuration) are
 * recorded as skipped with the reason; runs that fail are recorded as failed.
 */
final class Suite {
    /** The experiments in the order they run; each names its output file. */
    static final List<String> EXPERIMENTS = List.of("depth", "connections", "workload", "aof", "aof-latency",
            "expiry", "replay", "transport", "memory");
    private static final int DATA_SIZE = 16;
    private static final int LOAD_WINDOW = 1_000;
    private static final long DBSIZE_SAMPLE_MS = 50;
    private static final int THROUGHPUT_CONNECTIONS = 50;

    private final ServerBinaries binaries;
    private final SuiteScale scale;
    private final int reps;
    private final Set<String> selected;
    private final SuiteLog log;
    private final Path work;

    Suite(ServerBinaries binaries, SuiteScale scale, int reps, Set<String> selected, SuiteLog log) {
        this.binaries = binaries;
        this.scale = scale;
        this.reps = reps;
        this.selected = selected;
        this.log = log;
        this.work = log.dir().resolve("work");
    }

    void run() throws IOException, InterruptedException {
        if (selected("depth") || selected("connections") || selected("workload")) {
            try (SuiteServers servers = start(SuiteServers.pair(binaries, Map.of(), Map.of()))) {
                depth(servers);
                connections(servers);
                workload(servers);
            }
        }
        if (selected("aof") || selected("aof-latency")) {
            for (AofPolicy policy : AofPolicy.values()) {
                try (SuiteServers servers = start(SuiteServers.pair(binaries, policy.kvdDirectives(),
                        policy.redisDirectives(), Map.of("appendfsync", policy.label())))) {
                    aof(servers);
                    aofLatency(servers);
                }
            }
        }
        if (selected("expiry")) {
            expiry();
        }
        if (selected("replay")) {
            replay();
        }
        if (selected("transport")) {
            transport();
        }
        if (selected("memory")) {
            memory();
        }
        SuiteServers.deleteTree(work);
    }

    /** 1. Pipeline depth at 50 connections, SET, 16-byte values. */
    private void depth(SuiteServers servers) throws IOException, InterruptedException {
        if (!selected("depth")) {
            return;
        }
        for (int depth : scale.depths()) {
            measure("depth", servers, THROUGHPUT_CONNECTIONS, depth, Workload.SET, null);
        }
    }

    /** 2. Connections at depth 1. */
    private void connections(SuiteServers servers) throws IOException, InterruptedException {
        if (!selected("connections")) {
            return;
        }
        for (int connections : scale.connections()) {
            measure("connections", servers, connections, 1, Workload.SET, null);
        }
    }

    /** 3. SET, GET and a 50/50 mix at depth 16 over keys all loaded first; GETs are verified. */
    private void workload(SuiteServers servers) throws IOException, InterruptedException {
        if (!selected("workload")) {
            return;
        }
        for (Entry entry : servers.entries()) {
            if (entry.process() != null) {
                load(entry.process(), scale.keys(), i -> set(key("key:", i), RequestTemplate.stampedValue(DATA_SIZE, i)));
            }
        }
        for (Workload workload : List.of(Workload.SET, Workload.GET, Workload.MIX)) {
            measure("workload", servers, THROUGHPUT_CONNECTIONS, 16, workload, null);
        }
    }

    /** 4. Throughput with the AOF off and under each fsync policy, depth 1 and 16. */
    private void aof(SuiteServers servers) throws IOException, InterruptedException {
        if (!selected("aof")) {
            return;
        }
        for (int depth : scale.aofDepths()) {
            measure("aof", servers, THROUGHPUT_CONNECTIONS, depth, Workload.SET, null);
        }
    }

    /** 5. One connection at depth 1 issuing a fixed count of SETs: the latency each policy costs. */
    private void aofLatency(SuiteServers servers) throws IOException, InterruptedException {
        if (selected("aof-latency")) {
            measure("aof-latency", servers, 1, 1, Workload.SET, scale.aofLatencyRequests());
        }
    }

    /**
     * 6. Active expiry: persistent keys, then as many keys sharing one PXAT deadline, set after timing the
     * first load (twice that plus 2 s, so that the second load ends before it); then DBSIZE every 50 ms.
     */
    private void expiry() throws IOException, InterruptedException {
        int keys = scale.expiryKeys();
        for (int rep = 1; rep <= reps; rep++) {
            try (SuiteServers servers = start(SuiteServers.pair(binaries, Map.of(), Map.of()))) {
                for (Entry entry : servers.entries()) {
                    Spec spec = entry.spec();
                    ResultJson line = header("expiry", entry, rep);
                    if (entry.process() == null) {
                        log.record("expiry", line.field("skipped", entry.refusal()), "skipped");
                        continue;
                    }
                    ServerProcess server = entry.process();
                    long loadStart = System.nanoTime();
                    load(server, keys, i -> set(key("persistent:", i), RequestTemplate.stampedValue(DATA_SIZE, i)));
                    long loadMillis = (System.nanoTime() - loadStart) / 1_000_000;
                    long deadline = System.currentTimeMillis() + 2 * loadMillis + 2_000;
                    String pxat = String.valueOf(deadline);
                    load(server, keys, i -> set(key("expiring:", i), RequestTemplate.stampedValue(DATA_SIZE, i),
                            ascii("PXAT"), ascii(pxat)));
                    long margin = deadline - System.currentTimeMillis();
                    long unexpiring = dbsize(server) - keys;
                    List<Long> times = new ArrayList<>();
                    List<Long> sizes = new ArrayList<>();
                    Long clearedAfter = null;
                    try (RespClient client = RespClient.connect(server.address())) {
                        long end = deadline + scale.expiryWatch().toMillis();
                        while (System.currentTimeMillis() < end) {
                            long size = Long.parseLong(client.callForText("DBSIZE"));
                            long t = System.currentTimeMillis() - deadline;
                            times.add(t);
                            sizes.add(size);
                            if (size == unexpiring && t >= 0) {
                                clearedAfter = t;
                                break;
                            }
                            Thread.sleep(DBSIZE_SAMPLE_MS);
                        }
                    }
                    line.field("persistent_keys", unexpiring).field("expiring_keys", keys)
                            .field("load_s", loadMillis / 1e3).field("deadline_margin_ms", margin)
                            .field("cleared_after_ms", clearedAfter).field("watch_s", scale.expiryWatch().toMillis() / 1e3)
                            .field("sample_t_ms", times).field("sample_dbsize", sizes);
                    log.record("expiry", line, format("%s margin %d ms, cleared %s ms after the deadline",
                            spec.kind().label(), margin, clearedAfter));
                }
            }
        }
    }

    /** 7. AOF replay: write N SETs with the AOF on, restart on the file, time the start to the first +PONG. */
    private void replay() throws IOException, InterruptedException {
        for (int rep = 1; rep <= reps; rep++) {
            for (int size : scale.replaySizes()) {
                for (Spec spec : SuiteServers.pair(binaries, AofPolicy.NO.kvdDirectives(), AofPolicy.NO.redisDirectives(),
                        Map.of("appendfsync", AofPolicy.NO.label()))) {
                    replayOnce(spec, size, rep);
                }
            }
        }
    }

    private void replayOnce(Spec spec, int size, int rep) throws IOException, InterruptedException {
        Path dir = work.resolve("replay-" + spec.kind().label());
        ResultJson line = header("replay", new Entry(spec, null, null), rep).field("commands", size);
        try {
            try (ServerProcess writer = ServerProcess.start(spec.kind(), binaries, dir, spec.directives())) {
                load(writer, size, i -> set(key("key:", i), RequestTemplate.stampedValue(DATA_SIZE, i)));
            }
            long aofBytes = treeSize(dir) - Files.size(dir.resolve(spec.kind().label() + ".log"));
            try (ServerProcess reader = ServerProcess.start(spec.kind(), binaries, dir, spec.directives())) {
                Double cpu = ProcFs.cpuSeconds(reader.pid());
                long keys = dbsize(reader);
                line.field("aof_bytes", aofBytes).field("ready_s", reader.secondsToReady()).field("ready_cpu_s", cpu)
                        .field("keys_after_replay", keys);
                log.record("replay", line, format("%s %d commands: ready in %.3f s, %d keys", spec.kind().label(),
                        size, reader.secondsToReady(), keys));
            }
        } catch (StartFailure e) {
            log.record("replay", line.field("skipped", e.getMessage()), spec.kind().label() + " skipped: " + e.getMessage());
        } finally {
            SuiteServers.deleteTree(dir);
        }
    }

    /** 8. kvd on each transport at depth 1 and 16, redis-server (epoll) alongside. */
    private void transport() throws IOException, InterruptedException {
        List<Spec> specs = new ArrayList<>();
        for (String transport : List.of("nio", "epoll", "io_uring")) {
            specs.add(new Spec(Kind.KVD, SuiteServers.directives("transport", transport), Map.of()));
        }
        if (binaries.redisServer() != null) {
            specs.add(Spec.of(Kind.REDIS));
        }
        try (SuiteServers servers = start(specs)) {
            for (int depth : scale.transportDepths()) {
                measure("transport", servers, THROUGHPUT_CONNECTIONS, depth, Workload.SET, null);
            }
        }
    }

    /** 9. Memory per key after N SETs of 16-byte values: resident set and the server's own used_memory. */
    private void memory() throws IOException, InterruptedException {
        int keys = scale.memoryKeys();
        for (int rep = 1; rep <= reps; rep++) {
            try (SuiteServers servers = start(SuiteServers.pair(binaries, Map.of(), Map.of()))) {
                for (Entry entry : servers.entries()) {
                    Spec spec = entry.spec();
                    ResultJson line = header("memory", entry, rep);
                    if (entry.process() == null) {
                        log.record("memory", line.field("skipped", entry.refusal()), "skipped");
                        continue;
                    }
                    ServerProcess server = entry.process();
                    Long rssBefore = ProcFs.residentBytes(server.pid());
                    Long usedBefore = usedMemory(server);
                    load(server, keys, i -> set(key("key:", i), RequestTemplate.stampedValue(DATA_SIZE, i)));
                    Long rssAfter = ProcFs.residentBytes(server.pid());
                    Long usedAfter = usedMemory(server);
                    line.field("keys", keys).field("data_size", DATA_SIZE)
                            .field("rss_before", rssBefore).field("rss_after", rssAfter)
                            .field("used_memory_before", usedBefore).field("used_memory_after", usedAfter)
                            .field("rss_bytes_per_key", perKey(rssBefore, rssAfter, keys))
                            .field("used_memory_bytes_per_key", perKey(usedBefore, usedAfter, keys));
                    log.record("memory", line, format("%s %d keys: %s B/key resident, %s B/key used_memory",
                            spec.kind().label(), keys, perKey(rssBefore, rssAfter, keys), perKey(usedBefore, usedAfter, keys)));
                }
            }
        }
    }

    /** Runs one point against every server, rep by rep, alternating the servers run by run. */
    private void measure(String experiment, SuiteServers servers, int connections, int depth, Workload workload,
                         Long requests) throws IOException, InterruptedException {
        for (int rep = 1; rep <= reps; rep++) {
            for (Entry entry : servers.entries()) {
                ResultJson line = header(experiment, entry, rep);
                entry.spec().fields().forEach(line::field);
                ServerProcess server = entry.process();
                String what = format("%s%s%s %s c=%d P=%d", entry.kind().label(),
                        entry.spec().fields().isEmpty() ? "" : " " + entry.spec().fields().values(),
                        server == null ? "" : " (" + server.transport() + ")", workload.label(), connections, depth);
                if (server == null) {
                    line.field("workload", workload.label()).field("connections", connections).field("pipeline", depth);
                    log.record(experiment, line.field("skipped", entry.refusal()), what + " skipped: " + entry.refusal());
                    continue;
                }
                line.field("server_transport", server.transport());
                BenchSettings settings = settings(server, connections, depth, workload,
                        requests == null ? BenchSettings.UNLIMITED : requests,
                        requests == null ? scale.runTime() : scale.aofLatencyCap(), scale.runWarmup());
                try {
                    BenchResult result = LoadGenerator.run(settings);
                    log.record(experiment, line.result(result), format("%s: %.0f ops/s, p50 %.0f µs, p99 %.0f µs%s",
                            what, result.opsPerSecond(), result.latencyMicros(BenchResult.Percentile.P50),
                            result.latencyMicros(BenchResult.Percentile.P99),
                            result.errors() == 0 ? "" : ", " + result.errors() + " errors: " + result.firstError()));
                } catch (IOException e) {
                    log.record(experiment, line.field("failed", e.getMessage()), what + " failed: " + e.getMessage());
                }
            }
        }
    }

    private SuiteServers start(List<Spec> specs) throws IOException, InterruptedException {
        SuiteServers servers = SuiteServers.start(binaries, work.resolve("servers"), specs);
        for (Entry entry : servers.entries()) {
            if (entry.process() == null) {
                log.say("  " + entry.kind().label() + " " + entry.spec().directives() + " did not start: " + entry.refusal());
            } else if (scale.serverWarmup() != null) {
                // Then FLUSHALL: experiments count keys and memory from an empty keyspace.
                try (RespClient client = RespClient.connect(entry.process().address())) {
                    LoadGenerator.run(settings(entry.process(), THROUGHPUT_CONNECTIONS, 16, Workload.SET,
                            BenchSettings.UNLIMITED, scale.serverWarmup(), null));
                    client.callForText("FLUSHALL");
                } catch (IOException e) {
                    log.say("  warm-up of " + entry.kind().label() + " failed: " + e.getMessage());
                }
            }
        }
        return servers;
    }

    private BenchSettings settings(ServerProcess server, int connections, int depth, Workload workload, long requests,
                                   Duration duration, Duration warmup) {
        // Always stamped: every SET of the suite writes what a later verified GET expects.
        return new BenchSettings(List.of(server.address()), connections, depth, requests, duration, 1, workload,
                DATA_SIZE, scale.keys(), true, warmup, List.of(server.pid()));
    }

    private ResultJson header(String experiment, Entry entry, int rep) {
        return new ResultJson().field("time", Instant.now().toString()).field("experiment", experiment)
                .field("scale", scale.name()).field("server", entry.kind().label()).field("rep", rep);
    }

    private boolean selected(String experiment) {
        return selected.contains(experiment);
    }

    private static void load(ServerProcess server, int count, LongFunction<byte[][]> request)
            throws IOException {
        try (RespClient client = RespClient.connect(server.address())) {
            client.pipeline(count, request, LOAD_WINDOW);
        }
    }

    private static long dbsize(ServerProcess server) throws IOException {
        try (RespClient client = RespClient.connect(server.address())) {
            return Long.parseLong(client.callForText("DBSIZE"));
        }
    }

    private static Long usedMemory(ServerProcess server) throws IOException {
        try (RespClient client = RespClient.connect(server.address())) {
            String used = InfoFields.ask(client, "memory").get("used_memory");
            return used == null ? null : Long.valueOf(used);
        }
    }

    private static Double perKey(Long before, Long after, int keys) {
        return before == null || after == null ? null : (after - before) / (double) keys;
    }

    private static long treeSize(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            long total = 0;
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                total += Files.size(path);
            }
            return total;
        }
    }

    private static byte[][] set(byte[] key, byte[] value, byte[]... options) {
        byte[][] argv = new byte[3 + options.length][];
        argv[0] = ascii("SET");
        argv[1] = key;
        argv[2] = value;
        System.arraycopy(options, 0, argv, 3, options.length);
        return argv;
    }

    /** The key kvbench's requests use for number {@code i}: the prefix and 12 digits. */
    private static byte[] key(String prefix, long i) {
        return ascii(prefix + String.format(Locale.ROOT, "%012d", i));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
