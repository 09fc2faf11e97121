package io.kvd.bench;

import io.kvd.bench.ServerProcess.Kind;
import io.kvd.bench.ServerProcess.ServerBinaries;
import io.kvd.bench.ServerProcess.StartFailure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The servers one configuration of an experiment runs against, started together and measured in turn:
 * usually kvd and redis-server with equivalent directives. A server that refuses to start stays in the
 * list with its reason, so that its runs are recorded as skipped rather than left out.
 */
final class SuiteServers implements AutoCloseable {

    /**
     * A server to start.
     *
     * @param directives what to start it with, beyond the suite's own (port, dir)
     * @param fields     what the runs' JSON lines say about this configuration, e.g. {@code appendfsync}
     */
    record Spec(Kind kind, Map<String, String> directives, Map<String, Object> fields) {
        static Spec of(Kind kind) {
            return new Spec(kind, Map.of(), Map.of());
        }
    }

    /** A started server, or the reason it is not running (then {@code process} is null). */
    record Entry(Spec spec, ServerProcess process, String refusal) {
        Kind kind() {
            return spec.kind();
        }
    }

    private final List<Entry> entries;
    private final Path dir;

    private SuiteServers(List<Entry> entries, Path dir) {
        this.entries = entries;
        this.dir = dir;
    }

    /** Starts every server, each in its own directory under {@code dir}. */
    static SuiteServers start(ServerBinaries binaries, Path dir, List<Spec> specs)
            throws IOException, InterruptedException {
        // All launched before any is waited for: JVMs starting side by side take half the time on 2 cores.
        List<ServerProcess.Launch> launches = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Spec spec = specs.get(i);
            launches.add(ServerProcess.launch(spec.kind(), binaries, dir.resolve(spec.kind().label() + "-" + i),
                    spec.directives()));
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            try {
                entries.add(new Entry(specs.get(i), launches.get(i).awaitReady(), null));
            } catch (StartFailure e) {
                entries.add(new Entry(specs.get(i), null, e.getMessage()));
            }
        }
        return new SuiteServers(entries, dir);
    }

    List<Entry> entries() {
        return entries;
    }

    /** kvd and, when it is installed, redis-server, each with its own directives. */
    static List<Spec> pair(ServerBinaries binaries, Map<String, String> kvd, Map<String, String> redis,
                           Map<String, Object> fields) {
        List<Spec> specs = new ArrayList<>(List.of(new Spec(Kind.KVD, kvd, fields)));
        if (binaries.redisServer() != null) {
            specs.add(new Spec(Kind.REDIS, redis, fields));
        }
        return specs;
    }

    /** kvd and redis-server with the same directives. */
    static List<Spec> pair(ServerBinaries binaries, Map<String, String> directives, Map<String, Object> fields) {
        return pair(binaries, directives, directives, fields);
    }

    /** Stops every server and deletes the directories: AOF files of millions of keys add up. */
    @Override
    public void close() throws IOException, InterruptedException {
        for (Entry entry : entries) {
            if (entry.process() != null) {
                entry.process().close();
            }
        }
        deleteTree(dir);
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    static Map<String, String> directives(String... namesAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return map;
    }
}
