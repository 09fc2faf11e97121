package io.kvd.it.support;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers for crash tests: each SETs {@code w<n>:<i>} to {@code v<i>} for i = 0, 1, ... until
 * the server dies, counting the writes it saw acknowledged; after a restart,
 * {@link #assertEveryAcknowledgedWriteIn} checks that each one is there.
 */
public final class AcknowledgedWriters implements AutoCloseable {
    private final ExecutorService pool;
    private final List<Future<Integer>> acknowledged = new ArrayList<>();
    private final AtomicInteger total = new AtomicInteger();

    public AcknowledgedWriters(int port, int writers) {
        pool = Executors.newFixedThreadPool(writers);
        for (int w = 0; w < writers; w++) {
            int writer = w;
            acknowledged.add(pool.submit(() -> writeUntilKilled(port, writer)));
        }
    }

    public void awaitFirstAcknowledgement() {
        Poll.until(Duration.ofSeconds(30), "a first acknowledged write", () -> total.get() > 0 ? true : null);
    }

    /** Writes acknowledged so far, by all writers. */
    public int total() {
        return total.get();
    }

    /** Once the server the writers wrote to is dead: every write it acknowledged reads back on {@code c}. */
    public void assertEveryAcknowledgedWriteIn(RespConnection c, String context) throws Exception {
        for (int w = 0; w < acknowledged.size(); w++) {
            int count = acknowledged.get(w).get();
            for (int i = 0; i < count; i++) {
                String value = "v" + i;
                assertThat(c.call("GET", key(w, i))).as("writer %d key %d of %d acknowledged, %s", w, i, count, context)
                        .isEqualTo("$" + value.length() + "\r\n" + value + "\r\n");
            }
        }
    }

    private int writeUntilKilled(int port, int writer) {
        int count = 0;
        try (RespConnection c = RespConnection.open(port)) {
            while (c.call("SET", key(writer, count), "v" + count).equals("+OK\r\n")) {
                count++;
                total.incrementAndGet();
            }
            return count;
        } catch (IOException e) {
            return count;
        }
    }

    private static String key(int writer, int i) {
        return "w" + writer + ":" + i;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
