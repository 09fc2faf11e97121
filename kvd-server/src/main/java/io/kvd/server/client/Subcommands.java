package io.kvd.server.client;

import io.kvd.codec.RespReply;
import io.kvd.server.keyspec.CommandDocs;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The subcommands of a container command (CLIENT, CONFIG, COMMAND, CLUSTER): each with its own arity,
 * checked as Redis checks a subcommand's ({@code 'client|setname'} in the error), and its HELP text.
 */
public final class Subcommands {
    /** The flags of a subcommand scripts may not run (CLIENT's and CONFIG's, SCRIPT's but HELP). */
    public static final Set<Command.Flag> NOSCRIPT = Set.of(Command.Flag.NOSCRIPT);
    /** The flags of CLIENT's and CONFIG's admin subcommands: no script runs them, no monitor sees them. */
    public static final Set<Command.Flag> ADMIN = Set.of(Command.Flag.NOSCRIPT, Command.Flag.ADMIN);

    private final String container;
    private final Map<String, Command> byName = new LinkedHashMap<>();
    private final List<String> help = new ArrayList<>();

    /** @param container lower-case name of the container command */
    public Subcommands(String container) {
        this.container = container;
        help.add(container.toUpperCase(Locale.ROOT) + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
    }

    /** Adds a subcommand and the lines HELP prints for it (Redis's texts). */
    public Subcommands add(String name, int arity, CommandHandler handler, String... helpLines) {
        return add(name, arity, Set.of(), handler, helpLines);
    }

    /**
     * Adds a subcommand with flags a caller checks (NOSCRIPT: scripts may not run it; ADMIN: monitors
     * do not see it; READONLY and WRITE: monitors may not run it).
     */
    public Subcommands add(String name, int arity, Set<Command.Flag> flags, CommandHandler handler, String... helpLines) {
        byName.put(name, subcommand(name, arity, flags, handler));
        help.addAll(List.of(helpLines));
        return this;
    }

    /** Adds HELP itself, which closes the help text as Redis's addReplyHelp does. */
    public Subcommands withHelp() {
        help.add("HELP");
        help.add("    Prints this help.");
        byName.put("help", subcommand("help", 2, Set.of(), this::help));
        return this;
    }

    /** The subcommands, named as Redis names them ({@code client|setname}), in the order they were added. */
    public List<Command> all() {
        return List.copyOf(byName.values());
    }

    /** Runs the subcommand named by {@code argv[1]}, after its arity check. */
    public void dispatch(Client client, byte[][] argv) {
        String refusal = refusal(argv);
        if (refusal != null) {
            throw new CommandError(refusal);
        }
        Command sub = byName.get(Args.utf8(argv[1]).toLowerCase(Locale.ROOT));
        // Inside EXEC (the transaction still set) CLIENT LIST's cmd stays exec, as Redis's.
        if (client.transaction() == null) {
            client.interacted(sub.name(), client.lastInteractionMs());
        }
        sub.handler().execute(client, argv);
    }

    /** The subcommand {@code argv[1]} names, or null. */
    public Command lookup(byte[][] argv) {
        return byName.get(Args.utf8(argv[1]).toLowerCase(Locale.ROOT));
    }

    /**
     * The error for a request naming no subcommand of this container or with the wrong argument
     * count for it, or null: Redis refuses those before running or queuing anything.
     */
    public String refusal(byte[][] argv) {
        String name = Args.utf8(argv[1]);
        Command sub = byName.get(name.toLowerCase(Locale.ROOT));
        if (sub == null) {
            return "ERR unknown subcommand '" + name.substring(0, Math.min(name.length(), 128)) + "'. Try "
                    + container.toUpperCase(Locale.ROOT) + " HELP.";
        }
        return sub.arityMatches(argv.length) ? null : Errors.wrongArity(sub.name());
    }

    /**
     * A subcommand as Redis names it, e.g. {@code client|setname}, with the key positions of its
     * COMMAND INFO (XGROUP CREATE's key is its third argument), which the cluster's slot check reads;
     * its flags live there too.
     */
    private Command subcommand(String name, int arity, Set<Command.Flag> flags, CommandHandler handler) {
        String fullName = container + "|" + name;
        List<RespReply> info = CommandDocs.elements(CommandDocs.info(fullName));
        return new Command(fullName, arity, flags, integer(info.get(3)), integer(info.get(4)), integer(info.get(5)),
                handler);
    }

    private static int integer(RespReply reply) {
        return (int) ((RespReply.Integer) reply).value();
    }

    /** HELP's reply: every line added, in order. */
    public void help(Client client, byte[][] argv) {
        client.reply().arrayHeader(help.size());
        help.forEach(client.reply()::simpleString);
    }
}
