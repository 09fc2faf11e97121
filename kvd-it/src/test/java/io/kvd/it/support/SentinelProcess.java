package io.kvd.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real redis-sentinel on an ephemeral port, monitoring one primary as {@code mymaster} from a
 * config file of its own in its work directory (Sentinel rewrites it). Tests that need it are
 * skipped where it is not installed ({@code .ci/run} installs it).
 */
public final class SentinelProcess implements AutoCloseable {
    public static final String MASTER_NAME = "mymaster";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final LoggedProcess process;
    private final int port;

    private SentinelProcess(LoggedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Monitors the primary at 127.0.0.1:{@code primaryPort} with {@code quorum}, down after {@code downAfterMs}. */
    public static SentinelProcess monitor(int primaryPort, int quorum, long downAfterMs) throws IOException {
        Path sentinel = Tools.require("redis-sentinel");
        Path dir = WorkDir.create("sentinel");
        Path config = dir.resolve("sentinel.conf");
        Files.writeString(config, String.join("\n",
                "bind 127.0.0.1",
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + primaryPort + " " + quorum,
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfterMs,
                "sentinel failover-timeout " + MASTER_NAME + " 10000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                ""));
        FreePortStart.Started started = FreePortStart.start("redis-sentinel", dir, START_TIMEOUT,
                port -> List.of(sentinel.toString(), config.toString(), "--port", String.valueOf(port)),
                SentinelProcess::answersPing);
        return new SentinelProcess(started.process(), started.port());
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        process.stop(STOP_TIMEOUT);
    }

    private static boolean answersPing(int port) {
        try (RespConnection connection = RespConnection.open(port)) {
            return connection.call("PING").equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }
}
