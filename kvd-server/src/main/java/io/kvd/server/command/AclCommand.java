package io.kvd.server.command;

import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclCategory;
import io.kvd.server.acl.AclException;
import io.kvd.server.acl.Latin1;
import io.kvd.server.acl.User;
import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.pubsub.PubSub;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * ACL and its subcommands (Redis's aclCommand): users, their rules, the ACL log and the ACL file,
 * kept by {@link AccessControl}; here the replies, and the clients a change disconnects.
 */
final class AclCommand {
    private static final Logger LOG = LoggerFactory.getLogger(AclCommand.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int GENPASS_MAX_BITS = 4096;

    static final Subcommands SUBCOMMANDS = new Subcommands("acl")
            .add("cat", -2, Subcommands.NOSCRIPT, AclCommand::cat,
                    "CAT [<category>]",
                    "    List all commands that belong to <category>, or all command categories",
                    "    when no category is specified.")
            .add("deluser", -3, Subcommands.ADMIN, AclCommand::deluser,
                    "DELUSER <username> [<username> ...]",
                    "    Delete a list of users.")
            .add("dryrun", -4, Subcommands.ADMIN, AclCommand::dryrun,
                    "DRYRUN <username> <command> [<arg> ...]",
                    "    Returns whether the user can execute the given command without executing the command.")
            .add("getuser", 3, Subcommands.ADMIN, AclCommand::getuser,
                    "GETUSER <username>",
                    "    Get the user's details.")
            .add("genpass", -2, Subcommands.NOSCRIPT, AclCommand::genpass,
                    "GENPASS [<bits>]",
                    "    Generate a secure 256-bit user password. The optional `bits` argument can",
                    "    be used to specify a different size.")
            .add("list", 2, Subcommands.ADMIN, AclCommand::list,
                    "LIST",
                    "    Show users details in config file format.")
            .add("load", 2, Subcommands.ADMIN, AclCommand::load,
                    "LOAD",
                    "    Reload users from the ACL file.")
            .add("log", -2, Subcommands.ADMIN, AclCommand::log,
                    "LOG [<count> | RESET]",
                    "    Show the ACL log entries.")
            .add("save", 2, Subcommands.ADMIN, AclCommand::save,
                    "SAVE",
                    "    Save the current config to the ACL file.")
            .add("setuser", -3, Subcommands.ADMIN, AclCommand::setuser,
                    "SETUSER <username> <attribute> [<attribute> ...]",
                    "    Create or modify a user with the specified attributes.")
            .add("users", 2, Subcommands.ADMIN, AclCommand::users,
                    "USERS",
                    "    List all the registered usernames.")
            .add("whoami", 2, Subcommands.NOSCRIPT, AclCommand::whoami,
                    "WHOAMI",
                    "    Return the current connection username.")
            .withHelp();

    private AclCommand() {
    }

    static void acl(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** Redis's addReplySubcommandSyntaxError, for the forms a subcommand's arity lets through. */
    private static CommandError syntax(byte[][] argv) {
        return new CommandError("ERR unknown subcommand or wrong number of arguments for '" + Args.utf8(argv[1])
                + "'. Try ACL HELP.");
    }

    /** ACL SETUSER username [rule ...]: every rule is redacted from the slow log and MONITOR first. */
    private static void setuser(Client client, byte[][] argv) {
        for (int i = 2; i < argv.length; i++) {
            client.redactArgument(argv, i);
        }
        AccessControl acl = client.server().acl();
        AccessControl.Channels kept;
        try {
            kept = acl.setUser(Arrays.stream(argv).map(Latin1::text).toList());
        } catch (AclException e) {
            client.reply().latin1Error(e.getMessage());
            return;
        }
        if (kept != null) {
            // As Redis's ACLKillPubsubClientsIfNeeded: the user's subscribers to a channel or pattern
            // no longer allowed go.
            User user = acl.user(Latin1.text(argv[2]));
            disconnect(client, c -> c.user() == user && c.isSubscribed() && losesChannels(c.subscriptions(), kept));
        }
        client.reply().ok();
    }

    private static boolean losesChannels(PubSub.Subscriptions subscriptions, AccessControl.Channels kept) {
        return subscriptions.of(PubSub.Kind.PATTERN).stream().anyMatch(p -> !kept.allowsPattern(bytes(p)))
                || subscriptions.of(PubSub.Kind.CHANNEL).stream().anyMatch(c -> !kept.allowsChannel(bytes(c)))
                || subscriptions.of(PubSub.Kind.SHARD_CHANNEL).stream().anyMatch(c -> !kept.allowsChannel(bytes(c)));
    }

    private static byte[] bytes(ByteBuffer name) {
        byte[] bytes = new byte[name.remaining()];
        name.duplicate().get(bytes);
        return bytes;
    }

    /**
     * Redis's ACLFreeUserAndKillClients: the matching clients are closed; the one running this
     * command after its reply.
     */
    private static void disconnect(Client client, Predicate<Client> victim) {
        for (Client c : List.copyOf(client.server().clients().values())) {
            if (victim.test(c)) {
                if (c == client) {
                    client.closeAfterReply();
                } else {
                    c.connection().close();
                }
            }
        }
    }

    /** ACL GETUSER username: the user's map, or a null bulk if there is none. */
    private static void getuser(Client client, byte[][] argv) {
        User user = client.server().acl().user(Latin1.text(argv[2]));
        if (user == null) {
            client.reply().nullBulk();
        } else {
            user.writeTo(client.reply());
        }
    }

    /** ACL DELUSER username [username ...]: how many existed; their clients are disconnected. */
    private static void deluser(Client client, byte[][] argv) {
        for (int i = 2; i < argv.length; i++) {
            if (Latin1.text(argv[i]).equals(AccessControl.DEFAULT)) {
                throw new CommandError("ERR The 'default' user cannot be removed");
            }
        }
        int deleted = 0;
        for (int i = 2; i < argv.length; i++) {
            User user = client.server().acl().deleteUser(Latin1.text(argv[i]));
            if (user != null) {
                disconnect(client, c -> c.user() == user);
                deleted++;
            }
        }
        client.reply().integer(deleted);
    }

    /** ACL LIST: each user as the ACL file holds it. */
    private static void list(Client client, byte[][] argv) {
        client.reply().arrayHeader(client.server().acl().users().size());
        client.server().acl().users().forEach(u -> client.reply().bulk(Latin1.bytes(AccessControl.describe(u))));
    }

    /** ACL USERS: the names, in order. */
    private static void users(Client client, byte[][] argv) {
        client.reply().arrayHeader(client.server().acl().users().size());
        client.server().acl().users().forEach(u -> client.reply().bulk(Latin1.bytes(u.name())));
    }

    /** ACL WHOAMI */
    private static void whoami(Client client, byte[][] argv) {
        client.reply().bulk(Latin1.bytes(client.user().name()));
    }

    /** ACL CAT [category]: the categories, or the commands and subcommands of one. */
    private static void cat(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw syntax(argv);
        }
        if (argv.length == 2) {
            client.reply().arrayHeader(AclCategory.values().length);
            Arrays.stream(AclCategory.values()).forEach(c -> client.reply().bulk(c.ruleName()));
            return;
        }
        String name = Args.utf8(argv[2]);
        AclCategory category = AclCategory.byName(name);
        if (category == null) {
            throw new CommandError("ERR Unknown category '" + name.substring(0, Math.min(name.length(), 128)) + "'");
        }
        List<String> commands = client.server().acl().commandsIn(category);
        client.reply().arrayHeader(commands.size());
        commands.forEach(client.reply()::bulk);
    }

    /** ACL GENPASS [bits]: that many random bits (256 by default) in hex, rounded up to a whole digit. */
    private static void genpass(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw syntax(argv);
        }
        long bits = argv.length == 3 ? Args.parseLong(argv[2], Errors.NOT_AN_INTEGER) : 256;
        if (bits <= 0 || bits > GENPASS_MAX_BITS) {
            throw new CommandError("ERR ACL GENPASS argument must be the number of bits for the output password, a"
                    + " positive number up to " + GENPASS_MAX_BITS);
        }
        byte[] random = new byte[GENPASS_MAX_BITS / 8];
        RANDOM.nextBytes(random);
        client.reply().bulk(HexFormat.of().formatHex(random).substring(0, (int) ((bits + 3) / 4)));
    }

    /** ACL LOG [count | RESET]: the newest entries (10 by default), or the log emptied. */
    private static void log(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw syntax(argv);
        }
        long count = 10;
        if (argv.length == 3) {
            if (Args.is(argv[2], "reset")) {
                client.server().acl().log().reset();
                client.reply().ok();
                return;
            }
            count = Args.parseLong(argv[2], Errors.NOT_AN_INTEGER);
        }
        client.server().acl().log().write(client.reply(), count, System.currentTimeMillis());
    }

    /**
     * ACL DRYRUN username command [arg ...]: OK if the user may run the command, else why not, as
     * a bulk string; nothing runs and nothing is logged.
     */
    private static void dryrun(Client client, byte[][] argv) {
        User user = client.server().acl().user(Latin1.text(argv[2]));
        if (user == null) {
            throw new CommandError("ERR User '" + Args.utf8(argv[2]) + "' not found");
        }
        byte[][] request = Arrays.copyOfRange(argv, 3, argv.length);
        Command command = CommandTable.lookupFull(request);
        if (command == null) {
            throw new CommandError("ERR Command '" + Args.utf8(argv[3]) + "' not found");
        }
        if (!command.arityMatches(request.length)) {
            throw new CommandError(Errors.wrongArity(command.name()));
        }
        AccessControl.Denial denial = user.allowsEverything() ? null
                : client.server().acl().check(user, command.name(), request);
        if (denial == null) {
            client.reply().ok();
            return;
        }
        client.reply().bulk(Latin1.bytes(switch (denial.reason()) {
            case COMMAND -> "This user has no permissions to run the '" + command.name() + "' command";
            case KEY -> "This user has no permissions to access the '" + Latin1.text(request[denial.index()]) + "' key";
            default -> "This user has no permissions to access the '" + Latin1.text(request[denial.index()])
                    + "' channel";
        }));
    }

    private static final String NO_ACL_FILE = "ERR This Redis instance is not configured to use an ACL file. You may"
            + " want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a"
            + " Redis configuration file set) in order to store users in the Redis configuration.";

    private static String aclFile(Client client) {
        String file = client.server().config().get(Config.ACLFILE);
        if (file.isEmpty()) {
            throw new CommandError(NO_ACL_FILE);
        }
        return file;
    }

    /** ACL LOAD: the file's users replace all (nothing changes if a line is wrong); clients of replaced users go. */
    private static void load(Client client, byte[][] argv) {
        String file = aclFile(client);
        List<User> replaced;
        try {
            replaced = client.server().acl().loadFile(client.server().config().dir().resolve(file), file);
        } catch (AclException e) {
            client.reply().latin1Error("ERR " + e.getMessage());
            return;
        }
        Set<User> gone = Set.copyOf(replaced);
        disconnect(client, c -> c.user() != null && gone.contains(c.user()));
        client.reply().ok();
    }

    /** ACL SAVE: the users into the ACL file, atomically. */
    private static void save(Client client, byte[][] argv) {
        String file = aclFile(client);
        try {
            client.server().acl().saveFile(client.server().config().dir().resolve(file));
        } catch (IOException e) {
            LOG.warn("Saving the ACL file {}: {}", file, e.toString());
            throw new CommandError("ERR There was an error trying to save the ACLs. Please check the server logs for"
                    + " more information");
        }
        client.reply().ok();
    }
}
