package io.kvd.server;

import io.kvd.server.config.Config;

/**
 * {@code client-output-buffer-limit <class> <hard> <soft> <seconds>} for one client, as Redis's
 * checkClientOutputBufferLimits: over the hard limit at once, or over the soft limit for longer
 * than the given seconds. The class is pubsub while the client is subscribed to anything, else
 * normal (Redis's getClientType). Read pausing already bounds a pipelining client; this catches
 * single huge replies, clients that never read, and subscribers that fall behind their channels.
 */
final class OutputLimits {
    private final Config config;
    /** When the output went above the soft limit, or -1 while it is below. */
    private long softSinceMs = -1;

    OutputLimits(Config config) {
        this.config = config;
    }

    /** False with {@code normal 0 0 0} (the default) and no subscriber: no client can ever exceed a limit. */
    static boolean configured(Config config, boolean anySubscriber) {
        return configured(config.outputBufferLimit())
                || anySubscriber && configured(config.pubsubOutputBufferLimit());
    }

    private static boolean configured(Config.OutputBufferLimit limit) {
        return limit.hardBytes() > 0 || limit.softBytes() > 0;
    }

    /**
     * True when a client with {@code pendingBytes} of unsent output must be closed at {@code nowMs};
     * {@code subscriber}: the pubsub class's limit applies.
     */
    boolean exceeded(boolean subscriber, long pendingBytes, long nowMs) {
        Config.OutputBufferLimit limit = subscriber ? config.pubsubOutputBufferLimit() : config.outputBufferLimit();
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
