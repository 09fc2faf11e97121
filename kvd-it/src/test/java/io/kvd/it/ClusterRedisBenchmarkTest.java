package io.kvd.it;

import io.kvd.it.support.KvdCluster;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code redis-benchmark --cluster} reads the slot map (CLUSTER NODES) from one kvd node and runs
 * SET and GET against all three to the end without an error. Throughput is not asserted.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ClusterRedisBenchmarkTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @RegisterExtension
    static final KvdCluster cluster = new KvdCluster();

    @Test
    void setAndGetRunOnEveryNodeWithoutErrors() throws IOException {
        Tools.require("redis-benchmark");
        Tools.Result result = Tools.run(TIMEOUT, null, "redis-benchmark", "--cluster", "-p",
                String.valueOf(cluster.port(0)), "-t", "set,get", "-n", "100000", "-q");

        assertThat(result.exitCode()).as("%s", result).isZero();
        List<String> lines = Arrays.asList(result.stdout().split("[\r\n]+"));
        assertThat(lines).as("%s", result).noneMatch(line -> line.toLowerCase(Locale.ROOT).contains("error"));
        assertThat(lines).as("%s", result).anyMatch(line -> line.startsWith("Cluster has 3 master nodes"));
        for (String test : List.of("SET", "GET")) {
            assertThat(lines).as("the summary line of %s in %s", test, result)
                    .anyMatch(line -> line.contains(test + ": ") && line.contains(" requests per second"));
        }
        for (int i = 0; i < cluster.size(); i++) {
            try (RespConnection node = RespConnection.open(cluster.port(i))) {
                assertThat(node.call("DBSIZE")).as("keys on node %d", i).isEqualTo(":1\r\n");
            }
        }
    }
}
