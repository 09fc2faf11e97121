package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigRewrite;
import io.kvd.server.config.Directive;
import io.kvd.server.config.IoErrors;
import io.kvd.server.debug.DatasetDigest;
import io.kvd.server.numeric.IntegerText;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * DEBUG (Redis 7.0's debug.c), the subcommands Redis's own test suite leans on that have a
 * meaning in kvd, allowed only as enable-debug-command says (no by default, as in Redis). The
 * ones that need C internals (SEGFAULT, MALLCTL, HTSTATS) are unknown subcommands.
 */
public final class DebugCommand {
    private static final Logger LOG = LoggerFactory.getLogger("kvd.debug");
    private static final String NOT_ALLOWED = "ERR DEBUG command not allowed. If the enable-debug-command option is"
            + " set to \"local\", you can run it from a local connection, otherwise you need to set this option in the"
            + " configuration file, and then restart the server.";
    private static final String[] HELP = {
            "DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "CHANGE-REPL-ID",
            "    Change the replication IDs of the instance.",
            "    Dangerous: should be used only for testing the replication subsystem.",
            "CONFIG-REWRITE-FORCE-ALL",
            "    Like CONFIG REWRITE but writes all configuration options, including",
            "    keywords not listed in original configuration file or default values.",
            "DIGEST",
            "    Output a hex signature representing the current DB content.",
            "DIGEST-VALUE <key> [<key> ...]",
            "    Output a hex signature of the values of all the specified keys.",
            "ERROR <string>",
            "    Return a Redis protocol error with <string> as message. Useful for clients",
            "    unit tests to simulate Redis errors.",
            "JMAP",
            "    Accepted; kvd's heap is inspected with the JDK's own tools.",
            "LISTPACK <key>",
            "    Show low level info about the listpack encoding of <key>.",
            "LOG <message>",
            "    Write <message> to the server log.",
            "OBJECT <key>",
            "    Show low level info about the <key> and associated value.",
            "PAUSE-CRON <0|1>",
            "    Stop periodic cron job processing.",
            "POPULATE <count> [<prefix>] [<size>]",
            "    Create <count> string keys named key:<num>. If <prefix> is specified then",
            "    it is used instead of the 'key' prefix. These are not propagated to",
            "    replicas. Cluster slots are not respected so keys not belonging to the",
            "    current node can be created in cluster mode.",
            "PROTOCOL <type>",
            "    Reply with a test value of the specified type. <type> can be: string,",
            "    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
            "    true, false.",
            "QUICKLIST-PACKED-THRESHOLD <size>",
            "    Accepted; kvd packs every list element into its nodes.",
            "REPLYBUFFER PEAK-RESET-TIME <NEVER||RESET|time>",
            "    Accepted; kvd's reply buffers are not resized by a peak.",
            "REPLYBUFFER RESIZING <0|1>",
            "    Accepted; kvd's reply buffers are not resized by a peak.",
            "SET-ACTIVE-EXPIRE <0|1>",
            "    Setting it to 0 disables expiring keys in background when they are not",
            "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
            "    default.",
            "SET-SKIP-CHECKSUM-VALIDATION <0|1>",
            "    Enables or disables checksum checks for RDB files and RESTORE's payload.",
            "SLEEP <seconds>",
            "    Stop the server for <seconds>. Decimals allowed.",
    };

    private DebugCommand() {
    }

    /** DEBUG subcommand [arg ...] */
    public static void debug(Client client, byte[][] argv) {
        if (!allowed(client)) {
            throw new CommandError(NOT_ALLOWED);
        }
        String sub = Args.utf8(argv[1]).toLowerCase(Locale.ROOT);
        int argc = argv.length;
        switch (sub) {
            case "help" -> help(client);
            case "reload" -> PersistenceCommands.reload(client, argv);
            case "loadaof" -> PersistenceCommands.loadAof(client);
            case "digest" -> {
                requireArgc(argc == 2, argv);
                client.reply().simpleString(new DatasetDigest().of(client.server().databases()));
            }
            case "digest-value" -> {
                DatasetDigest digest = new DatasetDigest();
                client.reply().arrayHeader(argc - 2);
                for (int i = 2; i < argc; i++) {
                    client.reply().simpleString(digest.ofValue(client.keyspace(), argv[i]));
                }
            }
            case "object" -> {
                requireArgc(argc == 3, argv);
                object(client, argv[2]);
            }
            case "populate" -> {
                requireArgc(argc >= 3 && argc <= 5, argv);
                populate(client, argv);
            }
            case "set-active-expire" -> {
                requireArgc(argc == 3, argv);
                client.server().expiryCycle().setEnabled(Args.parseLong(argv[2]) != 0);
                client.reply().ok();
            }
            case "replybuffer" -> {
                requireArgc(argc == 4, argv);
                replyBuffer(client, argv);
            }
            case "pause-cron" -> {
                requireArgc(argc == 3, argv);
                client.server().pauseCron(Args.parseLong(argv[2]) != 0);
                client.reply().ok();
            }
            case "aof-flush-sleep" -> {
                requireArgc(argc == 3, argv);
                // Redis's atoi: what is not a number is 0.
                client.server().commandLog().setFlushSleepMicros(IntegerText.atoi(argv[2]));
                client.reply().ok();
            }
            case "sleep" -> {
                requireArgc(argc == 3, argv);
                sleep(Args.utf8(argv[2]));
                client.reply().ok();
            }
            case "protocol" -> {
                requireArgc(argc == 3, argv);
                protocol(client, Args.utf8(argv[2]).toLowerCase(Locale.ROOT));
            }
            case "error" -> {
                requireArgc(argc == 3, argv);
                // Redis writes it raw (addReplyProto): no error statistic counts it.
                client.reply().frame(Unpooled.wrappedBuffer(("-" + Args.utf8(argv[2]).replace('\r', ' ').replace('\n', ' ')
                        + "\r\n").getBytes(StandardCharsets.UTF_8)));
            }
            case "listpack" -> {
                requireArgc(argc == 3, argv);
                listpack(client, argv[2]);
            }
            case "log" -> {
                requireArgc(argc == 3, argv);
                LOG.warn("DEBUG LOG: {}", Args.utf8(argv[2]));
                client.reply().ok();
            }
            // Accepted as Redis accepts them; what they change has no counterpart in kvd yet.
            case "jmap" -> {
                requireArgc(argc == 2, argv);
                client.reply().ok();
            }
            case "change-repl-id" -> {
                requireArgc(argc == 2, argv);
                client.server().replication().changeReplicationId();
                client.reply().ok();
            }
            case "replicate" -> {
                requireArgc(argc >= 3, argv);
                client.server().replication().replicateOnly(java.util.Arrays.copyOfRange(argv, 2, argc));
                client.reply().ok();
            }
            case "set-skip-checksum-validation" -> {
                requireArgc(argc == 3, argv);
                client.reply().ok();
            }
            case "config-rewrite-force-all" -> {
                requireArgc(argc == 2, argv);
                configRewriteForceAll(client);
            }
            case "quicklist-packed-threshold" -> {
                requireArgc(argc == 3, argv);
                packedThreshold(Args.utf8(argv[2]));
                client.reply().ok();
            }
            default -> throw new CommandError(unknown(argv));
        }
    }

    /** DEBUG CONFIG-REWRITE-FORCE-ALL: CONFIG REWRITE writing every directive, at its default too. */
    private static void configRewriteForceAll(Client client) {
        Config config = client.server().config();
        // Redis hands its NULL config file name to fopen and answers with EFAULT's text.
        if (config.configFile() == null) {
            throw new CommandError("ERR CONFIG-REWRITE-FORCE-ALL failed: Bad address");
        }
        try {
            ConfigRewrite.rewriteFile(config.configFile(), config, true);
        } catch (IOException e) {
            throw new CommandError("ERR CONFIG-REWRITE-FORCE-ALL failed: " + IoErrors.strerror(e));
        }
        client.reply().ok();
    }

    /** enable-debug-command: yes, no, or local (loopback clients only), as Redis's allowProtectedAction. */
    private static boolean allowed(Client client) {
        return allowProtectedAction(client.server().config().enableDebugCommand(), client);
    }

    /**
     * Redis's allowProtectedAction for enable-debug-command and enable-protected-configs: yes, no,
     * or local (clients on a loopback address or the UNIX socket, and the server's own).
     */
    static boolean allowProtectedAction(String setting, Client client) {
        return switch (setting) {
            case "yes" -> true;
            case "local" -> client.connection() == null || isLocal(client.connection().remoteAddress());
            default -> false;
        };
    }

    private static boolean isLocal(String address) {
        return address.startsWith("127.") || address.startsWith("[::1]") || address.startsWith("::1")
                || address.startsWith("/");
    }

    private static void help(Client client) {
        client.reply().arrayHeader(HELP.length + 2);
        for (String line : HELP) {
            client.reply().simpleString(line);
        }
        client.reply().simpleString("HELP");
        client.reply().simpleString("    Print this help.");
    }

    /**
     * Redis's reply names the value's address, refcount, encoding, serialized length and LRU.
     * kvd's stable address is the key's entry, which an in-place change (INCR of a raw string)
     * keeps; the serialized length is a string's length, 0 for a collection, until kvd writes RDB;
     * kvd keeps no LRU clock yet.
     */
    private static void object(Client client, byte[] key) {
        Keyspace.ObjectFacts facts = client.keyspace().objectFacts(key);
        if (facts == null) {
            throw new CommandError("ERR no such key");
        }
        long idleSeconds = client.keyspace().databases().access().idleMs(facts.accessStamp()) / 1000;
        client.reply().simpleString("Value at:0x" + Long.toHexString(facts.address()) + " refcount:1 encoding:"
                + facts.encoding() + " serializedlength:" + facts.stringLength() + " lru:" + facts.accessStamp()
                + " lru_seconds_idle:" + idleSeconds);
    }

    /**
     * PROTOCOL type: Redis's test value of each RESP3 type, in the RESP2 form Redis gives a RESP2
     * client (a map as a flat array, a double as a bulk string, the attribute dropped).
     */
    private static void protocol(Client client, String type) {
        Reply reply = client.reply();
        switch (type) {
            case "string" -> reply.bulk("Hello World");
            case "integer" -> reply.integer(12345);
            case "double" -> reply.doubleValue(3.141);
            case "bignum" -> reply.bigNumber("1234567999999999999999999999999999999");
            case "null" -> reply.nullBulk();
            case "array", "set" -> {
                if (type.equals("set")) {
                    reply.setHeader(3);
                } else {
                    reply.arrayHeader(3);
                }
                for (int i = 0; i < 3; i++) {
                    reply.integer(i);
                }
            }
            case "map" -> {
                reply.mapHeader(3);
                for (int i = 0; i < 3; i++) {
                    reply.integer(i);
                    reply.bool(i == 1);
                }
            }
            case "attrib" -> {
                if (reply.protocol() == 3) {
                    reply.attributeHeader(1);
                    reply.bulk("key-popularity");
                    reply.arrayHeader(2);
                    reply.bulk("key:123");
                    reply.integer(90);
                }
                // An attribute is no reply: a well-formed one follows it.
                reply.bulk("Some real reply following the attribute");
            }
            case "push" -> {
                if (reply.protocol() != 3) {
                    throw new CommandError("ERR RESP2 is not supported by this command");
                }
                reply.pushHeader(2);
                reply.bulk("server-cpu-usage");
                reply.integer(42);
                // A push is no reply to the command: one follows it.
                reply.bulk("Some real reply following the push reply");
            }
            case "verbatim" -> reply.verbatim("This is a verbatim\nstring");
            case "true" -> reply.bool(true);
            case "false" -> reply.bool(false);
            default -> throw new CommandError("ERR Wrong protocol type name. Please use one of the following: "
                    + "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
        }
    }

    /** LISTPACK key: Redis prints the listpack's entries to stdout; kvd logs that the key is one. */
    private static void listpack(Client client, byte[] key) {
        String encoding = client.keyspace().objectEncoding(key);
        if (encoding == null) {
            throw new CommandError("ERR no such key");
        }
        if (!encoding.equals("listpack")) {
            throw new CommandError("ERR Not a listpack encoded object.");
        }
        LOG.info("DEBUG LISTPACK {}: encoding listpack", Args.utf8(key));
        client.reply().simpleString("Listpack structure printed on stdout");
    }

    /** POPULATE count [prefix] [size]: string keys prefix:N holding value:N (cut or zero-padded to size), skipping existing ones. */
    private static void populate(Client client, byte[][] argv) {
        long count = positive(argv[2]);
        String prefix = argv.length >= 4 ? Args.utf8(argv[3]) : "key";
        long size = argv.length == 5 ? positive(argv[4]) : 0;
        Keyspace keyspace = client.keyspace();
        for (long i = 0; i < count; i++) {
            byte[] key = (prefix + ":" + i).getBytes(StandardCharsets.UTF_8);
            if (keyspace.exists(key)) {
                continue;
            }
            byte[] value = ("value:" + i).getBytes(StandardCharsets.US_ASCII);
            if (size > 0) {
                value = Arrays.copyOf(value, Math.toIntExact(size));
            }
            keyspace.put(key, value, Keyspace.PERSISTENT);
        }
        client.reply().ok();
    }

    private static long positive(byte[] arg) {
        long value = Args.parseLong(arg);
        if (value < 0) {
            throw new CommandError("ERR value is out of range, must be positive");
        }
        return value;
    }

    /** Checked as Redis checks it (a size up to 1 MB short of 4 GB; 0 is the default); kvd has no plain list nodes to size. */
    private static void packedThreshold(String size) {
        long bytes;
        try {
            bytes = Directive.memtoll(size);
        } catch (IllegalArgumentException e) {
            bytes = -1;
        }
        if (bytes < 0 || bytes > (1L << 32) - (1 << 20)) {
            throw new CommandError("ERR argument must be a memory value bigger than 1 and smaller than 4gb");
        }
    }

    private static void sleep(String seconds) {
        double value;
        try {
            value = Double.parseDouble(seconds);
        } catch (NumberFormatException e) {
            value = 0;
        }
        long micros = (long) (value * 1_000_000);
        if (micros > 0) {
            try {
                Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * DEBUG REPLYBUFFER PEAK-RESET-TIME|RESIZING value: checked as Redis checks it, then accepted;
     * kvd's reply buffers are not resized by a peak, so there is nothing to tune.
     */
    private static void replyBuffer(Client client, byte[][] argv) {
        switch (Args.utf8(argv[2]).toLowerCase(Locale.ROOT)) {
            case "peak-reset-time" -> {
                String value = Args.utf8(argv[3]);
                if (!value.equalsIgnoreCase("never") && !value.equalsIgnoreCase("reset")) {
                    Args.parseLong(argv[3]);
                }
            }
            case "resizing" -> {
            }
            default -> throw new CommandError(unknown(argv));
        }
        client.reply().ok();
    }

    private static void requireArgc(boolean ok, byte[][] argv) {
        if (!ok) {
            throw new CommandError(unknown(argv));
        }
    }

    private static String unknown(byte[][] argv) {
        String name = Args.utf8(argv[1]);
        return "ERR unknown subcommand or wrong number of arguments for '"
                + name.substring(0, Math.min(name.length(), 128)) + "'. Try DEBUG HELP.";
    }
}
