package io.kvd.it.support;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh redis-server and a fresh kvd started with the same options, for scenarios of several
 * connections that must read the same bytes from both ({@link Transcript}).
 */
public final class ServerPair implements AutoCloseable {
    /** A scenario against one server, recording what its connections read. */
    public interface Scenario {
        void run(int port, Transcript transcript) throws IOException;
    }

    private final RedisServerProcess redis;
    private final KvdProcess kvd;

    private ServerPair(RedisServerProcess redis, KvdProcess kvd) {
        this.redis = redis;
        this.kvd = kvd;
    }

    /** Starts both with {@code options} (directives as command-line flags both accept); skips the test without redis-server. */
    public static ServerPair start(String... options) {
        Tools.require("redis-server");
        RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis"), options);
        try {
            return new ServerPair(redis, KvdProcess.start(options));
        } catch (RuntimeException | Error e) {
            redis.close();
            throw e;
        }
    }

    public RedisServerProcess redis() {
        return redis;
    }

    public KvdProcess kvd() {
        return kvd;
    }

    /** Runs {@code scenario} against redis-server, then kvd: the transcripts must be equal. */
    public void assertSameTranscripts(Scenario scenario) throws IOException {
        Transcript expected = new Transcript();
        scenario.run(redis.port(), expected);
        Transcript actual = new Transcript();
        scenario.run(kvd.port(), actual);
        assertThat(actual.text()).isEqualTo(expected.text());
    }

    @Override
    public void close() {
        try {
            kvd.close();
        } finally {
            redis.close();
        }
    }
}
