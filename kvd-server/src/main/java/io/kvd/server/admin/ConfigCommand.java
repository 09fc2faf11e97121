package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.Subcommands;
import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigRewrite;
import io.kvd.server.config.Directive;
import io.kvd.server.config.IoErrors;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.replication.Replication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** CONFIG GET | SET | RESETSTAT | REWRITE | HELP over kvd's directives (see {@link Config}). */
public final class ConfigCommand {
    private static final Logger log = LoggerFactory.getLogger(ConfigCommand.class);
    public static final Subcommands SUBCOMMANDS = new Subcommands("config")
            .add("get", -3, Subcommands.ADMIN, ConfigCommand::get,
                    "GET <pattern>",
                    "    Return parameters matching the glob-like <pattern> and their values.")
            .add("set", -4, Subcommands.ADMIN, ConfigCommand::set,
                    "SET <directive> <value>",
                    "    Set the configuration <directive> to <value>.")
            .add("resetstat", 2, Subcommands.ADMIN, ConfigCommand::resetstat,
                    "RESETSTAT",
                    "    Reset statistics reported by the INFO command.")
            .add("rewrite", 2, Subcommands.NOSCRIPT, ConfigCommand::rewrite,
                    "REWRITE",
                    "    Rewrite the configuration file.")
            .withHelp();

    private ConfigCommand() {
    }

    public static void config(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /**
     * CONFIG GET parameter [parameter ...]: a name without glob characters is looked up exactly and
     * answered under the name as given; a pattern matches names ignoring case. Each setting is
     * reported once. (Redis orders the pairs by its hash table; kvd by pattern, then table order.)
     */
    private static void get(Client client, byte[][] argv) {
        Config config = client.server().config();
        Map<String, String> matches = new LinkedHashMap<>();
        for (int i = 2; i < argv.length; i++) {
            String pattern = Args.utf8(argv[i]);
            if (!containsGlob(pattern)) {
                String value = value(config, pattern.toLowerCase(Locale.ROOT));
                if (value != null) {
                    matches.putIfAbsent(pattern, value);
                }
                continue;
            }
            for (String name : names()) {
                if (Glob.matches(pattern, name, true)) {
                    matches.putIfAbsent(name, value(config, name));
                }
            }
        }
        client.reply().mapHeader(matches.size());
        matches.forEach((name, value) -> {
            client.reply().bulk(name);
            client.reply().bulk(value);
        });
    }

    /** The directives Redis flags SENSITIVE_CONFIG, whose values the slow log and MONITOR never show. */
    private static final Set<String> SENSITIVE = Set.of("requirepass", "masterauth", "masteruser");

    /**
     * CONFIG SET parameter value [parameter value ...]: all or nothing. Unknown names fail first,
     * then immutable or repeated ones, then invalid values, each with Redis 7's text.
     */
    private static void set(Client client, byte[][] argv) {
        if (argv.length % 2 != 0) {
            throw new CommandError(Errors.SYNTAX);
        }
        List<Directive> directives = new ArrayList<>();
        String unknown = null;
        String rejected = null;
        String reason = null;
        for (int i = 2; i < argv.length; i += 2) {
            String name = Args.utf8(argv[i]);
            Directive d = Config.directive(name);
            if (d == null) {
                unknown = unknown == null ? name : unknown;
                continue;
            }
            // As Redis's configSetCommand: a password is redacted whatever fails, so no log shows it.
            if (SENSITIVE.contains(d.name())) {
                client.redactArgument(argv, i + 1);
            }
            if (Config.isProtected(d.name())
                    && !DebugCommand.allowProtectedAction(client.server().config().get("enable-protected-configs"), client)) {
                rejected = name;
                reason = "can't set protected config";
            } else if (!d.mutable() && !client.server().config().takesUnchanged(d.name(), Args.utf8(argv[i + 1]))) {
                rejected = name;
                reason = "can't set immutable config";
            } else if (directives.contains(d)) {
                rejected = name;
                reason = "duplicate parameter";
            }
            directives.add(d);
        }
        if (unknown != null) {
            throw new CommandError("ERR Unknown option or number of arguments for CONFIG SET - '" + unknown + "'");
        }
        if (rejected != null) {
            throw setFailed(rejected, reason);
        }
        // As Redis's DENY_LOADING_CONFIG: appendonly cannot change while a diskless load runs.
        Replication replication = client.server().replication();
        if ((replication.loading() || replication.asyncLoading())
                && directives.stream().anyMatch(d -> d.name().equals(Config.APPENDONLY))) {
            throw new CommandError(Replication.LOADING);
        }
        for (int i = 0; i < directives.size(); i++) {
            try {
                directives.get(i).parse(List.of(Args.utf8(argv[3 + 2 * i])));
            } catch (IllegalArgumentException e) {
                throw setFailed(directives.get(i).name(), e.getMessage());
            }
        }
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < directives.size(); i++) {
            // A directive read only at start gets here with its present value: nothing to set.
            if (directives.get(i).mutable()) {
                names.add(directives.get(i).name());
                values.add(Args.utf8(argv[3 + 2 * i]));
            }
        }
        try {
            client.server().config().setAll(names, values);
        } catch (Config.ApplyException e) {
            throw setFailed(e.directive(), e.getMessage());
        }
        client.reply().ok();
    }

    /** CONFIG RESETSTAT: zeroes INFO's counters, as Redis's resetServerStats. */
    private static void resetstat(Client client, byte[][] argv) {
        ServerState server = client.server();
        server.stats().reset();
        server.replication().resetStats();
        server.opsPerSecond().reset();
        server.inputBytesPerSecond().reset();
        server.outputBytesPerSecond().reset();
        server.databases().resetStats();
        server.expiryCycle().resetStats();
        server.eviction().resetStats();
        server.clientEviction().resetStats();
        server.commandStats().reset();
        server.errorStats().reset();
        client.reply().ok();
    }

    /** CONFIG REWRITE: the file kvd started from, rewritten as Redis's configRewriteCommand does. */
    private static void rewrite(Client client, byte[][] argv) {
        Config config = client.server().config();
        Path file = config.configFile();
        if (file == null) {
            throw new CommandError("ERR The server is running without a config file");
        }
        try {
            ConfigRewrite.rewriteFile(file, config, false);
        } catch (IOException e) {
            String reason = IoErrors.strerror(e);
            log.warn("CONFIG-REWRITE failed: {}", reason);
            throw new CommandError("ERR Rewriting config file: " + reason);
        }
        log.info("CONFIG REWRITE executed with success.");
        client.reply().ok();
    }

    private static CommandError setFailed(String name, String reason) {
        return new CommandError("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>();
        Config.directives().forEach(d -> {
            if (!Config.isHidden(d.name())) {
                names.add(d.name());
            }
        });
        names.addAll(Config.aliases());
        return names;
    }

    private static String value(Config config, String name) {
        Directive d = Config.directive(name);
        return d == null ? null : config.get(d.name());
    }

    private static boolean containsGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0 || pattern.indexOf('[') >= 0;
    }
}
