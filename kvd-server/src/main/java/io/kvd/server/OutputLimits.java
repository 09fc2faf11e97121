package io.kvd.server;

import io.kvd.server.config.Config;

/**
 * {@code client-output-buffer-limit normal <hard> <soft> <seconds>} for one client, as Redis's
 * checkClientOutputBufferLimits: over the hard limit at once, or over the soft limit for longer
 * than the given seconds. Read pausing already bounds a pipelining client; this catches single
 * huge replies and clients that never read.
 */
final class OutputLimits {
    private final Config config;
    /** When the output went above the soft limit, or -1 while it is below. */
    private long softSinceMs = -1;

    OutputLimits(Config config) {
        this.config = config;
    }

    /** False with {@code normal 0 0 0} (the default): no client can ever exceed a limit. */
    static boolean configured(Config config) {
        Config.OutputBufferLimit limit = config.outputBufferLimit();
        return limit.hardBytes() > 0 || limit.softBytes() > 0;
    }

    /** True when a client with {@code pendingBytes} of unsent output must be closed at {@code nowMs}. */
    boolean exceeded(long pendingBytes, long nowMs) {
        Config.OutputBufferLimit limit = config.outputBufferLimit();
        if (limit.hardBytes() > 0 && pendingBytes >= limit.hardBytes()) {
            return true;
        }
        if (limit.softBytes() > 0 && pendingBytes >= limit.softBytes()) {
            if (softSinceMs < 0) {
                softSinceMs = nowMs;
            }
            return nowMs - softSinceMs > limit.softSeconds() * 1000;
        }
        softSinceMs = -1;
        return false;
    }
}
