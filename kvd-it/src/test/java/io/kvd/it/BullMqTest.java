package io.kvd.it;

import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * BullMQ, a job queue that runs nearly everything as Lua scripts (cmsgpack, cjson) over lists,
 * sorted sets, hashes and an events stream read with XREAD BLOCK: {@code src/test/node/bullmq/scenario.js}
 * runs plain, bulk, delayed, prioritized, retried, failing, flow and scheduled jobs through a Worker
 * and counts QueueEvents, against kvd and against redis-server; both must finish with the same summary.
 */
@ExtendWith(ServerLogsOnFailure.class)
class BullMqTest {
    private static final Path PROJECT = Path.of("src", "test", "node", "bullmq").toAbsolutePath();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void scenarioEndsWithTheSameJobsResultsAndEventsAsOnRedis() {
        Tools.require("node", "apt-get install nodejs npm");
        assumeTrue(Files.isDirectory(PROJECT.resolve("node_modules").resolve("bullmq")),
                () -> "BullMQ is not installed in " + PROJECT + " (npm ci there; .ci/run does it)");

        String onRedis;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            onRedis = runScenario(redis.port());
        }
        String onKvd = runScenario(kvd.port());

        assertThat(onRedis).as("the summary on redis-server").contains("\"completed\": 76");
        assertThat(onKvd).isEqualTo(onRedis);
    }

    private static String runScenario(int port) {
        Tools.Result result = Tools.run(TIMEOUT, null, "node", PROJECT.resolve("scenario.js").toString(),
                "127.0.0.1:" + port);
        assertThat(result.exitCode()).as("scenario against port %d: %s", port, result).isZero();
        return result.stdout();
    }
}
