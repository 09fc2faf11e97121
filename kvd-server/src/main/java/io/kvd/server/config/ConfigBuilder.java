package io.kvd.server.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Config} built in code, for running kvd inside another program (a JVM project's tests):
 *
 * <pre>{@code
 * Config config = ConfigBuilder.forTests().dir(tempDir).option("hz", "100").build();
 * try (KvdServer server = KvdServer.start(config)) { ... server.port() ... }
 * }</pre>
 *
 * The directives are the same as in kvd.conf and go through the same validation: {@link #build}
 * hands them to {@link Config#load} as command-line options.
 */
public final class ConfigBuilder {
    /** Directive name → its words; a later call for the same directive replaces the earlier one. */
    private final Map<String, List<String>> options = new LinkedHashMap<>();

    private ConfigBuilder() {
    }

    /** kvd's built-in defaults, as {@code java -jar kvd.jar} with no file and no options. */
    public static ConfigBuilder defaults() {
        return new ConfigBuilder();
    }

    /**
     * Defaults for a server inside a test: loopback only, a free port chosen at start (read it with
     * {@code KvdServer.port()}) and no AOF, so nothing is written unless a test asks for it.
     */
    public static ConfigBuilder forTests() {
        return new ConfigBuilder()
                .option(Config.BIND, "127.0.0.1")
                .port(0)
                .option(Config.APPENDONLY, "no");
    }

    /** The TCP port; 0 picks a free one. */
    public ConfigBuilder port(int port) {
        return option(Config.PORT, String.valueOf(port));
    }

    /** The directory for the files kvd writes (the AOF). */
    public ConfigBuilder dir(Path dir) {
        return option(Config.DIR, dir.toString());
    }

    /** Any directive of kvd.conf, with its words: {@code option("bind", "127.0.0.1", "::1")}. */
    public ConfigBuilder option(String name, String... words) {
        options.put(name, List.of(words));
        return this;
    }

    /**
     * The configuration, validated as kvd.conf would be.
     *
     * @throws IllegalArgumentException naming the directive and what is wrong with its value
     */
    public Config build() {
        List<String> commandLine = new ArrayList<>();
        options.forEach((name, words) -> {
            commandLine.add("--" + name);
            commandLine.addAll(words);
        });
        try {
            return Config.load(null, commandLine);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
