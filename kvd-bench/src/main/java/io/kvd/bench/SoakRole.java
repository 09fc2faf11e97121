package io.kvd.bench;

import io.netty.handler.codec.CorruptedFrameException;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One of the soak's threads: {@link #step} runs over and over until the soak ends. A step that
 * fails (a connection lost, a reply that is not RESP) is counted as an error and the role goes on
 * after {@link #afterFailure} and a short pause, so a server that is down is not hammered. Most
 * roles talk over one connection of their own, {@link #connection}.
 */
abstract class SoakRole implements Runnable {
    private static final long PAUSE_AFTER_FAILURE_MS = 100;

    final Soak soak;
    private final String name;
    private RespClient connection;

    SoakRole(Soak soak, String name) {
        this.soak = soak;
        this.name = name;
    }

    String name() {
        return name;
    }

    abstract void step() throws IOException, InterruptedException;

    /** The role's connection, opened if it has none. */
    RespClient connection() throws IOException {
        if (connection == null) {
            connection = soak.connect();
        }
        return connection;
    }

    /** Closes the role's connection, if it has one; the next {@link #connection} opens another. */
    void closeConnection(boolean reset) {
        if (connection != null) {
            soak.close(connection, reset);
            connection = null;
        }
    }

    /** Drops what the failed step left unusable: its connection, which may be mid-reply, with a reset. */
    void afterFailure() {
        closeConnection(true);
    }

    /** Closes every connection the role still holds; runs once, at the end. */
    void closeAll() {
        closeConnection(false);
    }

    @Override
    public final void run() {
        try {
            while (soak.running()) {
                try {
                    step();
                } catch (IOException | CorruptedFrameException e) {
                    soak.tally().error(name + ": " + e);
                    afterFailure();
                    TimeUnit.MILLISECONDS.sleep(PAUSE_AFTER_FAILURE_MS);
                }
            }
        } catch (InterruptedException e) {
            // The soak's end interrupts a role that is pausing; it only has to close its connections.
        } finally {
            closeAll();
        }
    }
}
