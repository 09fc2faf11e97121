package io.kvd.bench;

import java.util.Locale;
import java.util.Map;

/** The AOF settings the suite compares: off, and on with each {@code appendfsync} policy. */
enum AofPolicy {
    OFF, NO, EVERYSEC, ALWAYS;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    Map<String, String> kvdDirectives() {
        return this == OFF ? Map.of() : SuiteServers.directives("appendonly", "yes", "appendfsync", label());
    }

    /**
     * The same for redis-server, whose AOF is then kept a plain command log: no RDB preamble and no
     * automatic rewrite, so that a replay replays commands as kvd's does.
     */
    Map<String, String> redisDirectives() {
        return this == OFF ? Map.of() : SuiteServers.directives("appendonly", "yes", "appendfsync", label(),
                "aof-use-rdb-preamble", "no", "auto-aof-rewrite-percentage", "0");
    }
}
