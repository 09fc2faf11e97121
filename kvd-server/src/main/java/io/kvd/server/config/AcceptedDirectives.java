package io.kvd.server.config;

import io.kvd.server.numeric.IntegerText;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Redis 7.0.15's directives (config.c's table) that kvd reads, checks as Redis does and shows in
 * CONFIG GET, but that change nothing in kvd: so that an operator's redis.conf starts kvd.
 * Some have no meaning for a JVM (jemalloc-bg-thread, oom-score-adj, disable-thp, io-threads);
 * the others belong to features kvd does not have yet (snapshots, replication, client eviction,
 * ACL files), and a directive moves to {@link Config}'s own table when its feature lands, or stays
 * here for Redis's order and leaves the inert set (maxmemory and eviction's, tracking-table-max-keys,
 * see {@link Config}).
 * docs/configuration.md lists each with the reason.
 */
final class AcceptedDirectives {
    private static final long INT_MAX = Integer.MAX_VALUE;
    private static final long LONG_MAX = Long.MAX_VALUE;

    private AcceptedDirectives() {
    }

    /** Defines each directive through {@code define}, and each older name through {@code alias} (alias, name). */
    static void defineAll(Consumer<Directive> define, BiConsumer<String, String> alias) {
        Table t = new Table(define, alias);
        // Booleans
        t.bool("io-threads-do-reads", false, "no");
        t.bool("always-show-logo", false, "no");
        t.bool("rdb-del-sync-files", true, "no");
        t.bool("activerehashing", true, "yes");
        t.bool("set-proc-title", false, "yes");
        t.bool("dynamic-hz", true, "yes");
        t.bool("lazyfree-lazy-eviction", true, "no");
        t.bool("lazyfree-lazy-expire", true, "no");
        t.bool("lazyfree-lazy-server-del", true, "no");
        t.bool("lazyfree-lazy-user-del", true, "no");
        t.bool("lazyfree-lazy-user-flush", true, "no");
        t.bool("repl-disable-tcp-nodelay", true, "no");
        t.bool("repl-diskless-sync", true, "yes");
        t.bool("aof-rewrite-incremental-fsync", true, "yes");
        t.bool("no-appendfsync-on-rewrite", true, "no");
        t.bool("cluster-require-full-coverage", true, "yes");
        t.bool("rdb-save-incremental-fsync", true, "yes");
        t.bool("aof-timestamp-enabled", true, "no");
        t.bool("cluster-replica-no-failover", true, "no").alias("cluster-slave-no-failover");
        t.bool("replica-lazy-flush", true, "no").alias("slave-lazy-flush");
        t.bool("replica-serve-stale-data", true, "yes").alias("slave-serve-stale-data");
        t.bool("replica-read-only", true, "yes").alias("slave-read-only");
        t.bool("replica-ignore-maxmemory", true, "yes").alias("slave-ignore-maxmemory");
        t.bool("replica-ignore-disk-write-errors", true, "no");
        t.bool("jemalloc-bg-thread", true, "yes");
        t.bool("activedefrag", true, "no");
        t.bool("syslog-enabled", false, "no");
        t.bool("cluster-allow-reads-when-down", true, "no");
        t.bool("cluster-allow-pubsubshard-when-down", true, "yes");
        t.bool("crash-log-enabled", true, "yes");
        t.bool("crash-memcheck-enabled", true, "yes");
        t.bool("disable-thp", false, "yes");
        t.bool("cluster-allow-replica-migration", true, "yes");
        t.bool("replica-announced", true, "yes");
        t.bool("aof-disable-auto-gc", true, "no");
        t.bool("tls-cluster", true, "no");
        t.bool("tls-replication", true, "no");
        t.bool("tls-prefer-server-ciphers", true, "no");
        t.bool("tls-session-caching", true, "yes");
        // Strings
        t.string("aclfile", false, "");
        t.optionalString("replica-announce-ip", true).alias("slave-announce-ip");
        t.optionalString("masteruser", true);
        t.optionalString("masterauth", true);
        t.optionalString("cluster-announce-hostname", true);
        t.string("syslog-ident", false, "redis");
        t.optionalString("server_cpulist", false);
        t.optionalString("bio_cpulist", false);
        t.optionalString("aof_rewrite_cpulist", false);
        t.optionalString("bgsave_cpulist", false);
        t.string("ignore-warnings", true, "");
        t.string("proc-title-template", true, "{title} {listen-addr} {server-mode}");
        t.optionalString("bind-source-addr", true);
        for (String name : List.of("tls-client-cert-file", "tls-client-key-file", "tls-client-key-file-pass",
                "tls-dh-params-file", "tls-ca-cert-dir", "tls-ciphers", "tls-ciphersuites")) {
            t.optionalString(name, true);
        }
        // Enumerations
        t.oneOf("supervised", false, "no", "upstart", "systemd", "auto", "no");
        t.oneOf("syslog-facility", false, "local0", "user", "local0", "local1", "local2", "local3", "local4", "local5",
                "local6", "local7");
        t.oneOf("repl-diskless-load", true, "disabled", "disabled", "on-empty-db", "swapdb");
        t.oneOf("maxmemory-policy", true, "noeviction", "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
                "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction");
        t.oneOf("oom-score-adj", true, "no", "no", "yes", "relative", "absolute");
        t.oneOf("acl-pubsub-default", true, "resetchannels", "allchannels", "resetchannels");
        t.oneOf("sanitize-dump-payload", true, "no", "no", "yes", "clients");
        t.oneOf("enable-protected-configs", false, "no", "no", "yes", "local");
        t.oneOf("enable-module-command", false, "no", "no", "yes", "local");
        t.oneOf("cluster-preferred-endpoint-type", true, "ip", "ip", "hostname", "unknown-endpoint");
        t.oneOf("propagation-error-behavior", true, "ignore", "ignore", "panic", "panic-on-replicas");
        t.directive("shutdown-on-sigint", true, "default", AcceptedDirectives::shutdownFlags);
        t.directive("shutdown-on-sigterm", true, "default", AcceptedDirectives::shutdownFlags);
        // Integers
        t.integer("io-threads", false, 1, 128, "1");
        t.integer("cluster-replica-validity-factor", true, 0, INT_MAX, "10").alias("cluster-slave-validity-factor");
        t.integer("tcp-keepalive", true, 0, INT_MAX, "300");
        t.integer("cluster-migration-barrier", true, 0, INT_MAX, "1");
        t.integer("active-defrag-cycle-min", true, 1, 99, "1");
        t.integer("active-defrag-cycle-max", true, 1, 99, "25");
        t.integer("active-defrag-threshold-lower", true, 0, 1000, "10");
        t.integer("active-defrag-threshold-upper", true, 0, 1000, "100");
        t.integer("lfu-log-factor", true, 0, INT_MAX, "10");
        t.integer("lfu-decay-time", true, 0, INT_MAX, "1");
        t.integer("replica-priority", true, 0, INT_MAX, "100").alias("slave-priority");
        t.integer("repl-diskless-sync-delay", true, 0, INT_MAX, "5");
        t.integer("maxmemory-samples", true, 1, INT_MAX, "5");
        t.integer("maxmemory-eviction-tenacity", true, 0, 100, "10");
        t.integer("replica-announce-port", true, 0, 65535, "0").alias("slave-announce-port");
        t.integer("tcp-backlog", false, 0, INT_MAX, "511");
        t.integer("cluster-port", false, 0, 65535, "0");
        t.integer("cluster-announce-bus-port", true, 0, 65535, "0");
        t.integer("cluster-announce-port", true, 0, 65535, "0");
        t.integer("cluster-announce-tls-port", true, 0, 65535, "0");
        t.integer("repl-timeout", true, 1, INT_MAX, "60");
        t.integer("repl-ping-replica-period", true, 1, INT_MAX, "10").alias("repl-ping-slave-period");
        t.integer("active-expire-effort", true, 1, 10, "1");
        t.integer("min-replicas-to-write", true, 0, INT_MAX, "0").alias("min-slaves-to-write");
        t.integer("min-replicas-max-lag", true, 0, INT_MAX, "10").alias("min-slaves-max-lag");
        t.integer("shutdown-timeout", true, 0, INT_MAX, "10");
        t.integer("repl-diskless-sync-max-replicas", true, 0, INT_MAX, "0");
        t.integer("loading-process-events-interval-bytes", true, 1024, INT_MAX, "2097152");
        t.integer("socket-mark-id", false, 0, 4294967295L, "0");
        t.integer("active-defrag-max-scan-fields", true, 1, LONG_MAX, "1000");
        t.integer("acllog-max-len", true, 0, LONG_MAX, "128");
        t.integer("cluster-node-timeout", true, 0, LONG_MAX, "15000");
        t.integer(Config.TRACKING_TABLE_MAX_KEYS, true, 0, LONG_MAX, "1000000");
        t.integer("repl-backlog-ttl", true, 0, LONG_MAX, "3600");
        t.integer("tls-session-cache-size", true, 0, INT_MAX, "20480");
        t.integer("tls-session-cache-timeout", true, 0, INT_MAX, "300");
        // Sizes (Redis's memtoll units)
        t.memory("repl-backlog-size", true, 1, LONG_MAX, "1048576");
        t.memory("maxmemory", true, 0, LONG_MAX, "0");
        t.memory("cluster-link-sendbuf-limit", true, 0, LONG_MAX, "0");
        t.memory("active-defrag-ignore-bytes", true, 1, LONG_MAX, "104857600");
        t.directive(Config.MAXMEMORY_CLIENTS, true, "0", AcceptedDirectives::sizeOrPercent, Directive.Form.MEMORY);
        // Lists
        t.directive("oom-score-adj-values", true, "0 200 800", AcceptedDirectives::oomScoreAdjValues);
    }

    /** Redis's isValidDBfilename: a file name inside dir. */
    static String dbfilename(List<String> words) {
        String name = Directive.single(words);
        if (name.contains("/")) {
            throw new IllegalArgumentException("dbfilename can't be a path, just a filename");
        }
        return name;
    }

    /** Redis's SHUTDOWN flags in its enum's order, the order CONFIG GET shows them in. */
    private static final List<String> SHUTDOWN_FLAGS = List.of("save", "nosave", "now", "force");

    /**
     * shutdown-on-sigint and -sigterm: any of Redis's SHUTDOWN flags, or default (none), as its
     * multi-argument enum reads them: shown in the enum's order, SAVE and NOSAVE not together.
     */
    private static String shutdownFlags(List<String> words) {
        Set<String> given = new HashSet<>();
        for (String word : String.join(" ", words).trim().split("\\s+")) {
            String flag = word.toLowerCase(Locale.ROOT);
            if (!flag.equals("default") && !SHUTDOWN_FLAGS.contains(flag)) {
                throw new IllegalArgumentException(
                        "argument(s) must be one of the following: default, save, nosave, now, force");
            }
            given.add(flag);
        }
        if (given.contains("save") && given.contains("nosave")) {
            throw new IllegalArgumentException("shutdown options SAVE and NOSAVE can't be used simultaneously");
        }
        List<String> flags = SHUTDOWN_FLAGS.stream().filter(given::contains).toList();
        return flags.isEmpty() ? "default" : String.join(" ", flags);
    }

    /**
     * maxmemory-clients as Redis's numericParseString reads a memory-or-percent directive: a size,
     * else a percentage of maxmemory up to 100% (0% is 0, off), else Redis's error.
     */
    private static String sizeOrPercent(List<String> words) {
        String word = Directive.single(words);
        try {
            return String.valueOf(Directive.memtoll(word));
        } catch (IllegalArgumentException notASize) {
            Long percent = word.length() > 1 && word.endsWith("%")
                    ? IntegerText.string2ll(word.substring(0, word.length() - 1).getBytes(StandardCharsets.UTF_8))
                    : null;
            if (percent == null || percent < 0) {
                throw new IllegalArgumentException("argument must be a memory or percent value");
            }
            if (percent > 100) {
                throw new IllegalArgumentException("percentage argument must be less or equal to 100");
            }
            return percent == 0 ? "0" : percent + "%";
        }
    }

    /** Three OOM score adjustments, for the master, replicas and background children. */
    private static String oomScoreAdjValues(List<String> words) {
        String[] values = String.join(" ", words).trim().split("\\s+");
        if (values.length != 3) {
            throw new IllegalArgumentException("wrong number of arguments");
        }
        List<String> out = new ArrayList<>();
        for (String value : values) {
            long adjustment;
            try {
                adjustment = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid oom-score-adj-values, elements must be between -2000 and 2000.");
            }
            if (adjustment < -2000 || adjustment > 2000) {
                throw new IllegalArgumentException("Invalid oom-score-adj-values, elements must be between -2000 and 2000.");
            }
            out.add(String.valueOf(adjustment));
        }
        return String.join(" ", out);
    }

    /** Builds directives of Redis's config types. */
    private static final class Table {
        private final Consumer<Directive> define;
        private final BiConsumer<String, String> alias;

        Table(Consumer<Directive> define, BiConsumer<String, String> alias) {
            this.define = define;
            this.alias = alias;
        }

        Named bool(String name, boolean mutable, String defaultValue) {
            return directive(name, mutable, defaultValue, Directive::yesNo);
        }

        /** A string that may be empty (Redis's ALLOW_EMPTY_STRING). */
        Named string(String name, boolean mutable, String defaultValue) {
            return directive(name, mutable, defaultValue, Directive::single, Directive.Form.STRING);
        }

        /** A string unset by default, and unset again when emptied (Redis's EMPTY_STRING_IS_NULL). */
        Named optionalString(String name, boolean mutable) {
            return directive(name, mutable, "", Directive::single, Directive.Form.OPTIONAL_STRING);
        }

        Named oneOf(String name, boolean mutable, String defaultValue, String... values) {
            return directive(name, mutable, defaultValue, Directive.oneOf(values));
        }

        Named integer(String name, boolean mutable, long min, long max, String defaultValue) {
            return directive(name, mutable, defaultValue, Directive.integer(min, max));
        }

        Named memory(String name, boolean mutable, long min, long max, String defaultValue) {
            return directive(name, mutable, defaultValue, Directive.memory(min, max), Directive.Form.MEMORY);
        }

        Named directive(String name, boolean mutable, String defaultValue, Function<List<String>, String> parser) {
            return directive(name, mutable, defaultValue, parser, Directive.Form.PLAIN);
        }

        Named directive(String name, boolean mutable, String defaultValue, Function<List<String>, String> parser,
                        Directive.Form form) {
            String defaultText = defaultValue.isEmpty() ? "\"\"" : Directive.quote(defaultValue);
            define.accept(new Directive(name, defaultText, mutable, parser, form));
            return older -> alias.accept(older, name);
        }
    }

    /** A directive just defined, to give it an older name Redis still reads. */
    private interface Named {
        void alias(String older);
    }
}
