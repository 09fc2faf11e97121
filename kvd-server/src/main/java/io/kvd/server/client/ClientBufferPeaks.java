package io.kvd.server.client;

/**
 * INFO's client_recent_max_input_buffer and client_recent_max_output_buffer, as Redis keeps them
 * (server.c, clientsCronTrackExpansiveClients): the largest query and output buffer seen in each
 * of the last 8 seconds, one slot per second; the cron empties the slot of the second to come,
 * so the report covers the last 7 to 8 seconds. Sizes are recorded where kvd already measures
 * them (after a read, after a flush), not by visiting every client in the cron.
 */
public final class ClientBufferPeaks {
    private static final int SLOTS = 8;

    private final long[] input = new long[SLOTS];
    private final long[] output = new long[SLOTS];

    /** A client's query buffer holds {@code bytes} (received, not yet run) at {@code nowMs}. */
    public void input(long nowMs, long bytes) {
        int slot = slot(nowMs);
        if (bytes > input[slot]) {
            input[slot] = bytes;
        }
    }

    /** A client's output holds {@code bytes} the socket has not taken yet at {@code nowMs}. */
    public void output(long nowMs, long bytes) {
        int slot = slot(nowMs);
        if (bytes > output[slot]) {
            output[slot] = bytes;
        }
    }

    /** Called from the cron: empties the slot the next second will fill. */
    public void cron(long nowMs) {
        int next = (slot(nowMs) + 1) % SLOTS;
        input[next] = 0;
        output[next] = 0;
    }

    public long recentMaxInput() {
        return max(input);
    }

    public long recentMaxOutput() {
        return max(output);
    }

    private static int slot(long nowMs) {
        return (int) (nowMs / 1000 % SLOTS);
    }

    private static long max(long[] slots) {
        long max = 0;
        for (long value : slots) {
            max = Math.max(max, value);
        }
        return max;
    }
}
