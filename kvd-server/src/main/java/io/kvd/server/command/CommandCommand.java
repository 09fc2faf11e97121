package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.glob.Glob;
import io.kvd.server.keyspec.CommandDocs;
import io.kvd.server.keyspec.CommandKeys;
import io.kvd.server.keyspec.KeyReference;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * COMMAND [COUNT | INFO [name ...] | DOCS [name ...] | GETKEYS command [arg ...] | GETKEYSANDFLAGS command [arg ...]
 * | LIST [FILTERBY MODULE m|ACLCAT c|PATTERN p] | HELP]:
 * kvd's table, described with Redis's own replies ({@link CommandDocs}).
 */
public final class CommandCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("command")
            .add("count", 2, CommandCommand::count,
                    "(no subcommand)",
                    "    Return details about all Redis commands.",
                    "COUNT",
                    "    Return the total number of commands in this Redis server.")
            .add("list", -2, CommandCommand::list,
                    "LIST",
                    "    Return a list of all commands in this Redis server.")
            .add("info", -2, CommandCommand::info,
                    "INFO [<command-name> ...]",
                    "    Return details about multiple Redis commands.",
                    "    If no command names are given, documentation details for all",
                    "    commands are returned.")
            .add("docs", -2, CommandCommand::docs,
                    "DOCS [<command-name> ...]",
                    "    Return documentation details about multiple Redis commands.",
                    "    If no command names are given, documentation details for all",
                    "    commands are returned.")
            .add("getkeys", -4, CommandCommand::getkeys,
                    "GETKEYS <full-command>",
                    "    Return the keys from a full Redis command.")
            .add("getkeysandflags", -4, CommandCommand::getkeysandflags,
                    "GETKEYSANDFLAGS <full-command>",
                    "    Return the keys and the access flags from a full Redis command.")
            .withHelp();

    private CommandCommand() {
    }

    /** COMMAND alone is COMMAND INFO for every command. */
    static void command(Client client, byte[][] argv) {
        if (argv.length == 1) {
            info(client, argv);
        } else {
            SUBCOMMANDS.dispatch(client, argv);
        }
    }

    /** COMMAND GETKEYS command [arg ...]: the keys of a full command. */
    private static void getkeys(Client client, byte[][] argv) {
        List<KeyReference> keys = keysOf(argv);
        client.reply().arrayHeader(keys.size());
        keys.forEach(key -> client.reply().bulk(argv[2 + key.position()]));
    }

    /** COMMAND GETKEYSANDFLAGS command [arg ...]: the keys of a full command, each with how it uses it. */
    private static void getkeysandflags(Client client, byte[][] argv) {
        List<KeyReference> keys = keysOf(argv);
        client.reply().arrayHeader(keys.size());
        for (KeyReference key : keys) {
            client.reply().arrayHeader(2);
            client.reply().bulk(argv[2 + key.position()]);
            client.reply().setHeader(key.flags().size());
            // Redis's addReplyFlagsForKeyArgs prints them in the flags' order, as the enum is.
            key.flags().stream().sorted().forEach(flag -> client.reply().simpleString(flag.replyName()));
        }
    }

    /**
     * Redis's getKeysSubcommandImpl: the keys of the command at {@code argv[2]} with its arguments,
     * or Redis's error for a command it cannot take; none for a command whose keys are all optional.
     */
    private static List<KeyReference> keysOf(byte[][] argv) {
        byte[][] request = Arrays.copyOfRange(argv, 2, argv.length);
        Command command = CommandTable.lookupFull(request);
        if (command == null) {
            throw new CommandError("ERR Invalid command specified");
        }
        CommandKeys keys = CommandDocs.keys(command.name());
        if (!keys.hasKeys()) {
            throw new CommandError("ERR The command has no key arguments");
        }
        if (!command.arityMatches(request.length)) {
            throw new CommandError("ERR Invalid number of arguments specified for command");
        }
        List<KeyReference> found = keys.find(request);
        if (found.isEmpty() && !command.has(Command.Flag.NO_MANDATORY_KEYS)) {
            throw new CommandError("ERR Invalid arguments specified for command");
        }
        return found;
    }

    private static void count(Client client, byte[][] argv) {
        client.reply().integer(CommandTable.all().size());
    }

    /** COMMAND INFO [name ...]: every command without names; a null for each unknown name. */
    private static void info(Client client, byte[][] argv) {
        List<String> names = argv.length > 2 ? names(argv) : tableNames();
        client.reply().arrayHeader(names.size());
        for (String name : names) {
            if (CommandDocs.info(name) == null) {
                client.reply().nullBulk();
            } else {
                CommandDocs.writeInfo(client.reply(), name);
            }
        }
    }

    /** COMMAND DOCS [name ...]: name and docs of every command without names; unknown names are left out. */
    private static void docs(Client client, byte[][] argv) {
        List<String> names = new ArrayList<>(argv.length > 2 ? names(argv) : tableNames());
        names.removeIf(name -> CommandDocs.docs(name) == null);
        client.reply().mapHeader(names.size());
        for (String name : names) {
            client.reply().bulk(name);
            CommandDocs.writeDocs(client.reply(), name);
        }
    }

    /** COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: commands, each followed by its subcommands. */
    private static void list(Client client, byte[][] argv) {
        Predicate<String> filter = name -> true;
        for (int i = 2; i < argv.length; i += 3) {
            if (!Args.is(argv[i], "filterby") || argv.length - 1 - i != 2) {
                throw new CommandError(Errors.SYNTAX);
            }
            String value = Args.utf8(argv[i + 2]);
            if (Args.is(argv[i + 1], "module")) {
                filter = name -> false;
            } else if (Args.is(argv[i + 1], "aclcat")) {
                filter = name -> CommandDocs.aclCategories(name).stream().anyMatch(value::equalsIgnoreCase);
            } else if (Args.is(argv[i + 1], "pattern")) {
                filter = name -> Glob.matches(value, name, true);
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        List<String> listed = new ArrayList<>();
        for (String name : tableNames()) {
            if (filter.test(name)) {
                listed.add(name);
            }
            CommandDocs.subcommands(name).stream().filter(filter).forEach(listed::add);
        }
        client.reply().arrayHeader(listed.size());
        listed.forEach(client.reply()::bulk);
    }

    private static List<String> tableNames() {
        return CommandTable.all().stream().map(Command::name).toList();
    }

    private static List<String> names(byte[][] argv) {
        List<String> names = new ArrayList<>();
        for (int i = 2; i < argv.length; i++) {
            names.add(Args.utf8(argv[i]).toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
