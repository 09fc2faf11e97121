package io.kvd.server.scripting;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.Subcommands;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;
import io.kvd.server.scripting.FunctionLibraries.Library;
import io.kvd.server.scripting.LuaScripts.RegisteredFunction;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * FCALL, FCALL_RO and FUNCTION LOAD|DELETE|LIST|FLUSH|DUMP|RESTORE|KILL|STATS|HELP (Redis 7.0's
 * functions.c); the libraries are {@link FunctionLibraries}, the interpreter {@link LuaScripts}.
 * The subcommands that change the libraries reach the AOF as they were sent, as Redis propagates
 * them, so replay loads the same libraries.
 */
public final class FunctionCommands {
    private static final Set<Command.Flag> WRITE = Set.of(Command.Flag.WRITE, Command.Flag.NOSCRIPT);
    private static final Set<Command.Flag> WRITE_DENYOOM = Set.of(Command.Flag.WRITE, Command.Flag.DENYOOM,
            Command.Flag.NOSCRIPT);
    static final Set<Command.Flag> ALLOW_BUSY = Set.of(Command.Flag.NOSCRIPT, Command.Flag.ALLOW_BUSY);

    public static final Subcommands SUBCOMMANDS = new Subcommands("function")
            .add("load", -3, WRITE_DENYOOM, FunctionCommands::load,
                    "LOAD [REPLACE] <FUNCTION CODE>",
                    "    Create a new library with the given library name and code.")
            .add("delete", 3, WRITE, FunctionCommands::delete,
                    "DELETE <LIBRARY NAME>",
                    "    Delete the given library.")
            .add("list", -2, Subcommands.NOSCRIPT, FunctionCommands::list,
                    "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
                    "    Return general information on all the libraries:",
                    "    * Library name",
                    "    * The engine used to run the Library",
                    "    * Library description",
                    "    * Functions list",
                    "    * Library code (if WITHCODE is given)",
                    "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.")
            .add("stats", 2, ALLOW_BUSY, FunctionCommands::stats,
                    "STATS",
                    "    Return information about the current function running:",
                    "    * Function name",
                    "    * Command used to run the function",
                    "    * Duration in MS that the function is running",
                    "    If no function is running, return nil",
                    "    In addition, returns a list of available engines.")
            .add("kill", 2, ALLOW_BUSY, FunctionCommands::kill,
                    "KILL",
                    "    Kill the current running function.")
            .add("flush", -2, WRITE, FunctionCommands::flush,
                    "FLUSH [ASYNC|SYNC]",
                    "    Delete all the libraries.",
                    "    When called without the optional mode argument, the behavior is determined by the",
                    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
                    "    * ASYNC: Asynchronously flush the libraries.",
                    "    * SYNC: Synchronously flush the libraries.")
            .add("dump", 2, Subcommands.NOSCRIPT, FunctionCommands::dump,
                    "DUMP",
                    "    Return a serialized payload representing the current libraries, can be restored using"
                            + " FUNCTION RESTORE command")
            .add("restore", -3, WRITE_DENYOOM, FunctionCommands::restore,
                    "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
                    "    Restore the libraries represented by the given payload, it is possible to give a restore"
                            + " policy to",
                    "    control how to handle existing libraries (default APPEND):",
                    "    * FLUSH: delete all existing libraries.",
                    "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
                    "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace"
                            + " the old",
                    "      libraries with the new libraries (notice that even on this option there is a chance of"
                            + " failure",
                    "      in case of functions name collision with another library).")
            .withHelp();

    private FunctionCommands() {
    }

    /** FCALL function numkeys [key [key ...]] [arg [arg ...]] */
    public static void fcall(Client client, byte[][] argv) {
        call(client, argv, false);
    }

    /** FCALL_RO function numkeys [key [key ...]] [arg [arg ...]]: only a function flagged no-writes runs. */
    public static void fcallRo(Client client, byte[][] argv) {
        call(client, argv, true);
    }

    /** Redis's fcallCommandGeneric, then scriptPrepareForRun's checks of the function's flags. */
    private static void call(Client client, byte[][] argv, boolean readOnlyCommand) {
        // As Redis's fcallCommandGeneric: the call is shown to monitors before the commands it runs.
        Dispatcher.feedMonitors(client, argv);
        FunctionLibraries libraries = LuaEngines.of(client.server()).functions();
        RegisteredFunction function = libraries.function(Args.utf8(argv[1]));
        if (function == null) {
            throw new CommandError("ERR Function not found");
        }
        long numkeys = Args.parseLong(argv[2], "ERR Bad number of keys provided");
        if (numkeys > argv.length - 3) {
            throw new CommandError("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new CommandError("ERR Number of keys can't be negative");
        }
        boolean noWrites = LuaScripts.checkFlags(client, function.flags(), readOnlyCommand);
        libraries.engine().call(client, function, argv, (int) numkeys, noWrites);
    }

    /** FUNCTION <subcommand> */
    public static void function(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** FUNCTION LOAD [REPLACE] code */
    private static void load(Client client, byte[][] argv) {
        boolean replace = false;
        for (int i = 2; i < argv.length - 1; i++) {
            if (!Args.is(argv[i], "replace")) {
                throw new CommandError("ERR Unknown option given: " + Args.utf8(argv[i]));
            }
            replace = true;
        }
        // As Redis's mustObeyClient: the AOF's replay is not timed.
        String name = LuaEngines.of(client.server()).functions().load(argv[argv.length - 1], replace, !client.obeysEverySlot());
        logged(client, argv);
        client.reply().bulk(name);
    }

    /** FUNCTION DELETE library-name */
    private static void delete(Client client, byte[][] argv) {
        if (!LuaEngines.of(client.server()).functions().delete(Args.utf8(argv[2]))) {
            throw new CommandError("ERR Library not found");
        }
        logged(client, argv);
        client.reply().ok();
    }

    /** FUNCTION FLUSH [ASYNC|SYNC]: both drop the interpreter at once, as SCRIPT FLUSH does. */
    private static void flush(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw syntaxError(argv);
        }
        if (argv.length == 3 && !Args.is(argv[2], "sync") && !Args.is(argv[2], "async")) {
            throw new CommandError("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
        }
        LuaEngines.of(client.server()).functions().flush();
        logged(client, argv);
        client.reply().ok();
    }

    /** FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE] */
    private static void list(Client client, byte[][] argv) {
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < argv.length; i++) {
            if (!withCode && Args.is(argv[i], "withcode")) {
                withCode = true;
            } else if (pattern == null && Args.is(argv[i], "libraryname")) {
                if (i >= argv.length - 1) {
                    throw new CommandError("ERR library name argument was not given");
                }
                pattern = argv[++i];
            } else {
                throw new CommandError("ERR Unknown argument " + Args.utf8(argv[i]));
            }
        }
        List<Library> matching = new ArrayList<>();
        for (Library library : LuaEngines.of(client.server()).functions().libraries()) {
            if (pattern == null || Glob.matches(pattern, Args.bytes(library.name()), true)) {
                matching.add(library);
            }
        }
        Reply reply = client.reply();
        reply.arrayHeader(matching.size());
        for (Library library : matching) {
            reply.mapHeader(withCode ? 4 : 3);
            reply.bulk("library_name");
            reply.bulk(library.name());
            reply.bulk("engine");
            reply.bulk("LUA");
            reply.bulk("functions");
            reply.arrayHeader(library.functions().size());
            for (RegisteredFunction function : library.functions()) {
                reply.mapHeader(3);
                reply.bulk("name");
                reply.bulk(function.name());
                reply.bulk("description");
                if (function.description() == null) {
                    reply.nullBulk();
                } else {
                    reply.bulk(function.description());
                }
                reply.bulk("flags");
                List<String> flags = FunctionLibraries.flagNames(function.flags());
                reply.setHeader(flags.size());
                flags.forEach(reply::simpleString);
            }
            if (withCode) {
                reply.bulk("library_code");
                reply.bulk(library.code());
            }
        }
    }

    /**
     * FUNCTION STATS: the function running past busy-reply-threshold, if any (other clients are
     * only let in then), and the engine's counts. While an EVAL script runs, Redis refuses it.
     */
    private static void stats(Client client, byte[][] argv) {
        FunctionLibraries libraries = LuaEngines.of(client.server()).functions();
        LuaScripts busy = LuaEngines.of(client.server()).busyScript();
        if (busy != null && busy.isEval()) {
            throw new CommandError(busy.busyError());
        }
        Reply reply = client.reply();
        reply.mapHeader(2);
        reply.bulk("running_script");
        if (busy == null) {
            reply.nullBulk();
        } else {
            reply.mapHeader(3);
            reply.bulk("name");
            reply.bulk(busy.runningName());
            reply.bulk("command");
            byte[][] request = busy.runningRequest();
            reply.arrayHeader(request.length);
            for (byte[] arg : request) {
                reply.bulk(arg);
            }
            reply.bulk("duration_ms");
            reply.integer(busy.runningMillis());
        }
        reply.bulk("engines");
        reply.mapHeader(1);
        reply.bulk("LUA");
        reply.mapHeader(2);
        reply.bulk("libraries_count");
        reply.integer(libraries.libraries().size());
        reply.bulk("functions_count");
        reply.integer(libraries.functionCount());
    }

    /** FUNCTION KILL: stops the function running past busy-reply-threshold, unless it has written. */
    private static void kill(Client client, byte[][] argv) {
        LuaScripts.kill(client, false);
    }

    /** FUNCTION DUMP: the libraries in Redis's payload, see {@link FunctionPayload}. */
    private static void dump(Client client, byte[][] argv) {
        List<byte[]> codes = new ArrayList<>();
        LuaEngines.of(client.server()).functions().libraries().forEach(library -> codes.add(library.code()));
        client.reply().bulk(FunctionPayload.write(codes));
    }

    /** FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE] */
    private static void restore(Client client, byte[][] argv) {
        if (argv.length > 4) {
            throw syntaxError(argv);
        }
        FunctionLibraries.RestorePolicy policy = FunctionLibraries.RestorePolicy.APPEND;
        if (argv.length == 4) {
            if (Args.is(argv[3], "append")) {
                policy = FunctionLibraries.RestorePolicy.APPEND;
            } else if (Args.is(argv[3], "replace")) {
                policy = FunctionLibraries.RestorePolicy.REPLACE;
            } else if (Args.is(argv[3], "flush")) {
                policy = FunctionLibraries.RestorePolicy.FLUSH;
            } else {
                throw new CommandError("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
            }
        }
        List<byte[]> codes = FunctionPayload.read(argv[2]);
        LuaEngines.of(client.server()).functions().restore(codes, policy);
        logged(client, argv);
        client.reply().ok();
    }

    /** A change to the libraries goes to the AOF as sent (Redis's server.dirty++ and propagation). */
    private static void logged(Client client, byte[][] argv) {
        client.server().commandLog().append(client.db(), argv);
    }

    private static CommandError syntaxError(byte[][] argv) {
        return new CommandError("ERR unknown subcommand or wrong number of arguments for '" + Args.utf8(argv[1])
                + "'. Try FUNCTION HELP.");
    }
}
