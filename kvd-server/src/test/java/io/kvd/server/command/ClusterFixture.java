package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link CommandFixture} that is node a (127.0.0.1:7001, slots 0-5460) of a three-node cluster
 * split as Redis usually splits it: b is 127.0.0.1:7002 with 5461-10922, c 127.0.0.1:7003 with
 * 10923-16383. Slots of keys used in tests: bar 5061, hello 866 (a); {}foo 9500 (b); foo 12182 (c).
 */
public final class ClusterFixture {
    static final String SLOT_MAP = """
            node a 127.0.0.1:7001 0-5460
            node b 127.0.0.1:7002 5461-10922
            node c 127.0.0.1:7003 10923-16383
            """;
    public static final String ID_A = "86f7e437faa5a7fce15d1ddcb9eaeaea377667b8";
    public static final String ID_B = "e9d71f5ee7c92d6dc9e92ffdad17b8bd49418f98";
    public static final String ID_C = "84a516841ba77a5b4648de2cd0dfcb30ea46dbb4";

    private ClusterFixture() {
    }

    /** Node a, its slot map written into {@code dir}. */
    public static CommandFixture nodeA(Path dir) {
        Path file = dir.resolve("cluster.conf");
        try {
            Files.writeString(file, SLOT_MAP);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Config config = ConfigBuilder.forTests().port(7001)
                .option(Config.CLUSTER_ENABLED, "yes")
                .option(Config.CLUSTER_CONFIG_FILE, file.toString())
                .build();
        return new CommandFixture(config);
    }
}
