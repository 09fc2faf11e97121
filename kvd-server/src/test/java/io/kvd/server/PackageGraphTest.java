package io.kvd.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages of kvd-server's main code point one way (DESIGN.md's module map): a package that
 * uses another, by import or by a qualified name, is never used back, directly or around a cycle.
 * And each holds one concern: none grows past a share of the code a reader can take in.
 */
class PackageGraphTest {
    private static final Path SOURCES = Path.of("src/main/java/io/kvd/server");
    private static final int MOST_FILES = 40;
    private static final double LARGEST_SHARE_OF_LINES = 0.30;
    /** A use of a class of a subpackage, or (no group) of the root package. */
    private static final Pattern USE = Pattern.compile("\\bio\\.kvd\\.server\\.(?:([a-z]+)\\.)?[A-Z*]");

    @Test
    void thePackageGraphHasNoCycle() throws IOException {
        Map<String, Set<String>> uses = packageUses();
        assertThat(uses).as("packages read from %s", SOURCES.toAbsolutePath()).containsKeys("server", "command", "store");
        assertThat(cycles(uses)).as("package cycles (each listed from one package around to it)").isEmpty();
    }

    @Test
    void noPackageHoldsTooMuchOfTheCode() throws IOException {
        Map<String, Integer> files = new TreeMap<>();
        Map<String, Integer> lines = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(SOURCES)) {
            for (Path file : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = packageOf(file);
                files.merge(pkg, 1, Integer::sum);
                lines.merge(pkg, Files.readAllLines(file).size(), Integer::sum);
            }
        }
        int total = lines.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(total).as("lines of main code").isPositive();
        lines.forEach((pkg, count) -> assertThat((double) count / total)
                .as("share of the %d lines in package %s", total, pkg).isLessThanOrEqualTo(LARGEST_SHARE_OF_LINES));
        files.forEach((pkg, count) -> assertThat(count).as("files in package %s", pkg).isLessThanOrEqualTo(MOST_FILES));
    }

    @Test
    void aCycleIsFound() {
        Map<String, Set<String>> uses = new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a")));
        assertThat(cycles(uses)).containsExactly(List.of("a", "b", "c", "a"));
    }

    /** Each package (the root one named "server") to the packages its files use. */
    private static Map<String, Set<String>> packageUses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = packageOf(file);
                Set<String> used = uses.computeIfAbsent(pkg, p -> new TreeSet<>());
                Matcher m = USE.matcher(Files.readString(file));
                while (m.find()) {
                    String target = m.group(1) == null ? "server" : m.group(1);
                    if (!target.equals(pkg)) {
                        used.add(target);
                    }
                }
            }
        }
        return uses;
    }

    /** A source file's package under io.kvd.server, the root one named "server". */
    private static String packageOf(Path file) {
        Path dir = SOURCES.relativize(file.getParent());
        return dir.toString().isEmpty() ? "server" : dir.toString().replace('/', '.');
    }

    /** The cycles of the graph, one per package that starts one, as the path back to it. */
    private static List<List<String>> cycles(Map<String, Set<String>> uses) {
        List<List<String>> cycles = new ArrayList<>();
        Set<String> reported = new TreeSet<>();
        for (String start : uses.keySet()) {
            List<String> path = pathBack(uses, start, start, new ArrayList<>(List.of(start)), new TreeSet<>());
            if (path != null && reported.add(String.join(">", new TreeSet<>(path)))) {
                cycles.add(path);
            }
        }
        return cycles;
    }

    private static List<String> pathBack(Map<String, Set<String>> uses, String start, String at, List<String> path,
                                         Set<String> seen) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = pathBack(uses, start, next, path, seen);
                if (found != null) {
                    return found;
                }
                path.remove(path.size() - 1);
            }
        }
        return null;
    }
}
