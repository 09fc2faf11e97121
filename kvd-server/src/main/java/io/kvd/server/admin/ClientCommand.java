package io.kvd.server.admin;

import io.kvd.server.acl.Latin1;
import io.kvd.server.acl.User;
import io.kvd.server.client.Client;
import io.kvd.server.client.ClientInfo;
import io.kvd.server.client.ClientPause;
import io.kvd.server.client.Subcommands;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.tracking.Tracking;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * CLIENT ID | SETNAME | GETNAME | LIST | INFO | KILL | SETINFO | UNBLOCK | PAUSE | UNPAUSE | REPLY |
 * NO-EVICT | TRACKING | CACHING | GETREDIR | TRACKINGINFO | HELP. Every kvd client is a
 * normal client of the default user in database 0 speaking RESP2.
 */
public final class ClientCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("client")
            .add("caching", 3, Subcommands.NOSCRIPT, ClientCommand::caching,
                    "CACHING (YES|NO)",
                    "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.")
            .add("getredir", 2, Subcommands.NOSCRIPT, ClientCommand::getredir,
                    "GETREDIR",
                    "    Return the client ID we are redirecting to when tracking is enabled.")
            .add("getname", 2, Subcommands.NOSCRIPT, ClientCommand::getname,
                    "GETNAME",
                    "    Return the name of the current connection.")
            .add("id", 2, Subcommands.NOSCRIPT, ClientCommand::id,
                    "ID",
                    "    Return the ID of the current connection.")
            .add("info", 2, Subcommands.NOSCRIPT, ClientCommand::info,
                    "INFO",
                    "    Return information about the current client connection.")
            .add("kill", -3, Subcommands.ADMIN, ClientCommand::kill,
                    "KILL <ip:port>",
                    "    Kill connection made from <ip:port>.",
                    "KILL <option> <value> [<option> <value> [...]]",
                    "    Kill connections. Options are:",
                    "    * ADDR (<ip:port>|<unixsocket>:0)",
                    "      Kill connections made from the specified address",
                    "    * LADDR (<ip:port>|<unixsocket>:0)",
                    "      Kill connections made to specified local address",
                    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                    "      Kill connections by type.",
                    "    * USER <username>",
                    "      Kill connections authenticated by <username>.",
                    "    * SKIPME (YES|NO)",
                    "      Skip killing current connection (default: yes).")
            .add("list", -2, Subcommands.ADMIN, ClientCommand::list,
                    "LIST [options ...]",
                    "    Return information about client connections. Options:",
                    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                    "      Return clients of specified type.")
            .add("unpause", 2, Subcommands.NOSCRIPT, ClientCommand::unpause,
                    "UNPAUSE",
                    "    Stop the current client pause, resuming traffic.")
            .add("pause", -3, Subcommands.NOSCRIPT, ClientCommand::pause,
                    "PAUSE <timeout> [WRITE|ALL]",
                    "    Suspend all, or just write, clients for <timeout> milliseconds.")
            .add("reply", 3, Subcommands.NOSCRIPT, ClientCommand::reply,
                    "REPLY (ON|OFF|SKIP)",
                    "    Control the replies sent to the current connection.")
            .add("setname", 3, Subcommands.NOSCRIPT, ClientCommand::setname,
                    "SETNAME <name>",
                    "    Assign the name <name> to the current connection.")
            .add("setinfo", 4, Subcommands.NOSCRIPT, ClientCommand::setinfo,
                    "SETINFO <option> <value>",
                    "    Set client meta attr. Options are:",
                    "    * LIB-NAME: the client lib name.",
                    "    * LIB-VER: the client lib version.")
            .add("unblock", -3, Subcommands.ADMIN, ClientCommand::unblock,
                    "UNBLOCK <clientid> [TIMEOUT|ERROR]",
                    "    Unblock the specified blocked client.")
            .add("tracking", -3, Subcommands.NOSCRIPT, ClientCommand::tracking,
                    "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
                    "         [OPTIN] [OPTOUT] [NOLOOP]",
                    "    Control server assisted client side caching.")
            .add("trackinginfo", 2, Subcommands.NOSCRIPT, ClientCommand::trackinginfo,
                    "TRACKINGINFO",
                    "    Report tracking status for the current connection.")
            .add("no-evict", 3, Subcommands.ADMIN, ClientCommand::noEvict,
                    "NO-EVICT (ON|OFF)",
                    "    Protect current client connection from eviction.")
            .withHelp();

    private ClientCommand() {
    }

    /**
     * CLIENT REPLY ON|OFF|SKIP: OFF answers nothing, itself included, until ON; SKIP drops the
     * next command's reply (and answers nothing itself), as Redis's CLIENT_REPLY_OFF and _SKIP.
     */
    private static void reply(Client client, byte[][] argv) {
        switch (Args.utf8(argv[2]).toLowerCase(Locale.ROOT)) {
            case "on" -> {
                client.setReplies(Client.Replies.ON);
                client.reply().ok();
            }
            case "off" -> client.setReplies(Client.Replies.OFF);
            case "skip" -> client.setReplies(Client.Replies.SKIP_NEXT);
            default -> throw new CommandError(Errors.SYNTAX);
        }
    }

    /** CLIENT PAUSE timeout [WRITE|ALL] (Redis's clientPauseCommand): ALL unless WRITE is asked for. */
    private static void pause(Client client, byte[][] argv) {
        if (argv.length > 4) {
            throw new CommandError("ERR unknown subcommand or wrong number of arguments for '" + Args.utf8(argv[1])
                    + "'. Try CLIENT HELP.");
        }
        long timeoutMs = Args.parseLong(argv[2], "ERR timeout is not an integer or out of range");
        if (timeoutMs < 0) {
            throw new CommandError("ERR timeout is negative");
        }
        ClientPause.Type type = ClientPause.Type.ALL;
        if (argv.length == 4) {
            type = switch (Args.utf8(argv[3]).toLowerCase(Locale.ROOT)) {
                case "write" -> ClientPause.Type.WRITE;
                case "all" -> ClientPause.Type.ALL;
                default -> throw new CommandError("ERR CLIENT PAUSE mode must be WRITE or ALL");
            };
        }
        long now = System.currentTimeMillis();
        client.server().pause().pause(type, timeoutMs > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeoutMs);
        client.reply().ok();
    }

    /** CLIENT UNPAUSE: the held commands run now. */
    private static void unpause(Client client, byte[][] argv) {
        client.server().pause().unpause();
        client.reply().ok();
    }

    /**
     * CLIENT NO-EVICT ON|OFF: client eviction passes the client over, or no longer does; OFF may
     * evict it (or others) at once, as Redis measures the client anew after its command.
     */
    private static void noEvict(Client client, byte[][] argv) {
        String mode = Args.utf8(argv[2]);
        if (!mode.equalsIgnoreCase("on") && !mode.equalsIgnoreCase("off")) {
            throw new CommandError(Errors.SYNTAX);
        }
        client.noEvict(mode.equalsIgnoreCase("on"));
        client.reply().ok();
    }

    /**
     * CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX prefix ...] [OPTIN] [OPTOUT] [NOLOOP]
     * (Redis 7.0's clientCommand): the options parsed and checked in Redis's order, with its errors.
     */
    private static void tracking(Client client, byte[][] argv) {
        long redirect = 0;
        boolean bcast = false;
        boolean optin = false;
        boolean optout = false;
        boolean noloop = false;
        List<byte[]> prefixes = new ArrayList<>();
        for (int i = 3; i < argv.length; i++) {
            boolean more = i + 1 < argv.length;
            if (Args.is(argv[i], "redirect") && more) {
                i++;
                if (redirect != 0) {
                    throw new CommandError("ERR A client can only redirect to a single other client");
                }
                redirect = Args.parseLong(argv[i]);
                if (!client.server().clients().containsKey(redirect)) {
                    throw new CommandError("ERR The client ID you want redirect to does not exist");
                }
            } else if (Args.is(argv[i], "bcast")) {
                bcast = true;
            } else if (Args.is(argv[i], "optin")) {
                optin = true;
            } else if (Args.is(argv[i], "optout")) {
                optout = true;
            } else if (Args.is(argv[i], "noloop")) {
                noloop = true;
            } else if (Args.is(argv[i], "prefix") && more) {
                prefixes.add(argv[++i]);
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        Tracking tracking = client.server().tracking();
        if (Args.is(argv[2], "off")) {
            tracking.disable(client);
            client.reply().ok();
            return;
        }
        if (!Args.is(argv[2], "on")) {
            throw new CommandError(Errors.SYNTAX);
        }
        Tracking.Mode mode = client.trackingMode();
        if (!bcast && !prefixes.isEmpty()) {
            throw new CommandError("ERR PREFIX option requires BCAST mode to be enabled");
        }
        if (mode != null && mode.bcast() != bcast) {
            throw new CommandError("ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (bcast && (optin || optout)) {
            throw new CommandError("ERR OPTIN and OPTOUT are not compatible with BCAST");
        }
        if (optin && optout) {
            throw new CommandError("ERR You can't specify both OPTIN mode and OPTOUT mode");
        }
        if (mode != null && (optin && mode.optout() || optout && mode.optin())) {
            throw new CommandError("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (bcast) {
            Tracking.Collision collision = tracking.prefixCollision(client, prefixes);
            if (collision != null) {
                client.reply().error(collision.error());
                if (!collision.enables()) {
                    return;
                }
            }
        }
        tracking.enable(client, new Tracking.Options(redirect, bcast, optin, optout, noloop, prefixes));
        client.reply().ok();
    }

    /** CLIENT CACHING YES|NO: the next command's keys are tracked (OPTIN) or not (OPTOUT). */
    private static void caching(Client client, byte[][] argv) {
        Tracking.Mode mode = client.trackingMode();
        if (mode == null) {
            throw new CommandError("ERR CLIENT CACHING can be called only when the client is in tracking mode with "
                    + "OPTIN or OPTOUT mode enabled");
        }
        if (Args.is(argv[2], "yes")) {
            if (!mode.optin()) {
                throw new CommandError("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
            }
        } else if (Args.is(argv[2], "no")) {
            if (!mode.optout()) {
                throw new CommandError("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
            }
        } else {
            throw new CommandError(Errors.SYNTAX);
        }
        mode.caching(true);
        client.reply().ok();
    }

    /** CLIENT GETREDIR: the id invalidations go to, 0 for the client itself, -1 when not tracking. */
    private static void getredir(Client client, byte[][] argv) {
        Tracking.Mode mode = client.trackingMode();
        client.reply().integer(mode == null ? -1 : mode.redirect());
    }

    /** CLIENT TRACKINGINFO: a map of flags (a set), redirect and prefixes, as Redis 7.0. */
    private static void trackinginfo(Client client, byte[][] argv) {
        Tracking.Mode mode = client.trackingMode();
        List<String> flags = new ArrayList<>();
        flags.add(mode == null ? "off" : "on");
        if (mode != null) {
            if (mode.bcast()) {
                flags.add("bcast");
            }
            if (mode.optin()) {
                flags.add("optin");
                if (mode.caching()) {
                    flags.add("caching-yes");
                }
            }
            if (mode.optout()) {
                flags.add("optout");
                if (mode.caching()) {
                    flags.add("caching-no");
                }
            }
            if (mode.noloop()) {
                flags.add("noloop");
            }
            if (mode.brokenRedirect()) {
                flags.add("broken_redirect");
            }
        }
        Reply reply = client.reply();
        reply.mapHeader(3);
        reply.bulk("flags");
        reply.setHeader(flags.size());
        flags.forEach(reply::bulk);
        reply.bulk("redirect");
        reply.integer(mode == null ? -1 : mode.redirect());
        reply.bulk("prefixes");
        Set<byte[]> prefixes = mode == null ? Set.of() : mode.prefixes();
        reply.arrayHeader(prefixes.size());
        prefixes.forEach(reply::bulk);
    }

    public static void client(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** Redis's validateClientName: printable ASCII without spaces (so CLIENT LIST stays parseable). */
    public static void validateName(byte[] name) {
        if (!printableWithoutSpaces(name)) {
            throw new CommandError("ERR Client names cannot contain spaces, newlines or special characters.");
        }
    }

    private static void id(Client client, byte[][] argv) {
        client.reply().integer(client.id());
    }

    /** CLIENT SETNAME name: an empty name removes it. */
    private static void setname(Client client, byte[][] argv) {
        validateName(argv[2]);
        client.setName(Args.utf8(argv[2]));
        client.reply().ok();
    }

    private static void getname(Client client, byte[][] argv) {
        client.reply().bulk(client.name().isEmpty() ? null : Args.bytes(client.name()));
    }

    /** CLIENT SETINFO LIB-NAME|LIB-VER value, as Redis 7.2 (Jedis, go-redis and redis-py send it). */
    private static void setinfo(Client client, byte[][] argv) {
        String attribute = Args.utf8(argv[2]);
        boolean name = Args.is(argv[2], "lib-name");
        if (!name && !Args.is(argv[2], "lib-ver")) {
            throw new CommandError("ERR Unrecognized option '" + attribute + "'");
        }
        if (!printableWithoutSpaces(argv[3])) {
            throw new CommandError("ERR " + attribute + " cannot contain spaces, newlines or special characters.");
        }
        if (name) {
            client.setLibName(Args.utf8(argv[3]));
        } else {
            client.setLibVersion(Args.utf8(argv[3]));
        }
        client.reply().ok();
    }

    private static void info(Client client, byte[][] argv) {
        client.reply().verbatim(ClientInfo.describe(client) + "\n");
    }

    /** CLIENT LIST [TYPE NORMAL|MASTER|REPLICA|PUBSUB] | [ID id [id ...]] */
    private static void list(Client client, byte[][] argv) {
        StringBuilder out = new StringBuilder();
        if (argv.length == 4 && Args.is(argv[2], "type")) {
            Predicate<Client> type = typeIs(argv[3]);
            client.server().clients().values().stream().filter(type).forEach(c -> out.append(ClientInfo.describe(c)).append('\n'));
        } else if (argv.length > 3 && Args.is(argv[2], "id")) {
            for (int i = 3; i < argv.length; i++) {
                Client c = client.server().clients().get(Args.parseLong(argv[i], "ERR Invalid client ID"));
                if (c != null) {
                    out.append(ClientInfo.describe(c)).append('\n');
                }
            }
        } else if (argv.length == 2) {
            client.server().clients().values().forEach(c -> out.append(ClientInfo.describe(c)).append('\n'));
        } else {
            throw new CommandError(Errors.SYNTAX);
        }
        client.reply().verbatim(out.toString());
    }

    /**
     * CLIENT KILL ip:port (replies OK or "No such client"), or CLIENT KILL with filters ID, TYPE,
     * ADDR, LADDR, USER, SKIPME (replies how many were killed). A client that kills itself gets
     * the reply first.
     */
    private static void kill(Client client, byte[][] argv) {
        boolean oldForm = argv.length == 3;
        Predicate<Client> victim = oldForm ? addressIs(argv[2]) : killFilters(client, argv);
        List<Client> victims = new ArrayList<>();
        for (Client c : client.server().clients().values()) {
            if (victim.test(c)) {
                victims.add(c);
            }
        }
        for (Client c : victims) {
            if (c == client) {
                client.closeAfterReply();
            } else {
                c.connection().close();
            }
        }
        if (!oldForm) {
            client.reply().integer(victims.size());
        } else if (victims.isEmpty()) {
            throw new CommandError("ERR No such client");
        } else {
            client.reply().ok();
        }
    }

    /**
     * CLIENT UNBLOCK id [TIMEOUT|ERROR]: a client blocked in a blocking command gets the reply of a
     * timeout, or an UNBLOCKED error; 1 if it was blocked, else 0. The reason is checked first.
     */
    private static void unblock(Client client, byte[][] argv) {
        if (argv.length > 4) {
            throw new CommandError("ERR unknown subcommand or wrong number of arguments for '"
                    + Args.utf8(argv[1]) + "'. Try CLIENT HELP.");
        }
        String error = null;
        if (argv.length == 4) {
            if (Args.is(argv[3], "error")) {
                error = "UNBLOCKED client unblocked via CLIENT UNBLOCK";
            } else if (!Args.is(argv[3], "timeout")) {
                throw new CommandError("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
            }
        }
        Client target = client.server().clients().get(Args.parseLong(argv[2]));
        boolean unblocked = target != null && client.server().blockedClients().unblockEarly(target, error);
        client.reply().integer(unblocked ? 1 : 0);
    }

    private static Predicate<Client> killFilters(Client client, byte[][] argv) {
        Predicate<Client> filter = c -> true;
        boolean skipMe = true;
        for (int i = 2; i < argv.length; i += 2) {
            boolean hasValue = i + 1 < argv.length;
            byte[] option = argv[i];
            if (Args.is(option, "id") && hasValue) {
                Long id = Args.toLong(argv[i + 1]);
                if (id == null || id < 1) {
                    throw new CommandError("ERR client-id should be greater than 0");
                }
                filter = filter.and(c -> c.id() == id);
            } else if (Args.is(option, "type") && hasValue) {
                filter = filter.and(typeIs(argv[i + 1]));
            } else if (Args.is(option, "addr") && hasValue) {
                filter = filter.and(addressIs(argv[i + 1]));
            } else if (Args.is(option, "laddr") && hasValue) {
                String address = Args.utf8(argv[i + 1]);
                filter = filter.and(c -> c.connection().localAddress().equals(address));
            } else if (Args.is(option, "user") && hasValue) {
                User user = client.server().acl().user(Latin1.text(argv[i + 1]));
                if (user == null) {
                    throw new CommandError("ERR No such user '" + Args.utf8(argv[i + 1]) + "'");
                }
                filter = filter.and(c -> c.user() == user);
            } else if (Args.is(option, "skipme") && hasValue) {
                if (Args.is(argv[i + 1], "yes")) {
                    skipMe = true;
                } else if (Args.is(argv[i + 1], "no")) {
                    skipMe = false;
                } else {
                    throw new CommandError(Errors.SYNTAX);
                }
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        return skipMe ? filter.and(c -> c != client) : filter;
    }

    private static Predicate<Client> addressIs(byte[] address) {
        String text = Args.utf8(address);
        return c -> c.connection().remoteAddress().equals(text);
    }

    /**
     * The clients of a type, as Redis's getClientType: the master client, replicas, pubsub while
     * subscribed to anything, else normal; an unknown type is an error as in Redis.
     */
    private static Predicate<Client> typeIs(byte[] type) {
        if (Args.is(type, "normal")) {
            return c -> !c.isSubscribed() && c.replica() == null && !c.isMaster();
        }
        if (Args.is(type, "pubsub")) {
            return c -> c.isSubscribed() && c.replica() == null && !c.isMaster();
        }
        if (Args.is(type, "master")) {
            return Client::isMaster;
        }
        if (Args.is(type, "replica") || Args.is(type, "slave")) {
            return c -> c.replica() != null;
        }
        throw new CommandError("ERR Unknown client type '" + Args.utf8(type) + "'");
    }


    private static boolean printableWithoutSpaces(byte[] text) {
        for (byte b : text) {
            if (b < '!' || b > '~') {
                return false;
            }
        }
        return true;
    }
}
