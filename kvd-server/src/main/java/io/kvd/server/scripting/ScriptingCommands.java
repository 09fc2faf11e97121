package io.kvd.server.scripting;

import io.kvd.server.client.Client;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.Subcommands;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT LOAD|EXISTS|FLUSH|KILL|HELP (Redis 7.0's eval.c); the
 * interpreter and the cache are {@link LuaScripts}.
 */
public final class ScriptingCommands {
    public static final Subcommands SUBCOMMANDS = new Subcommands("script")
            .add("exists", -3, Subcommands.NOSCRIPT, ScriptingCommands::exists,
                    "EXISTS <sha1> [<sha1> ...]",
                    "    Return information about the existence of the scripts in the script cache.")
            .add("flush", -2, Subcommands.NOSCRIPT, ScriptingCommands::flush,
                    "FLUSH [ASYNC|SYNC]",
                    "    Flush the Lua scripts cache. Very dangerous on replicas.",
                    "    When called without the optional mode argument, the behavior is determined by the",
                    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
                    "    * ASYNC: Asynchronously flush the scripts cache.",
                    "    * SYNC: Synchronously flush the scripts cache.")
            .add("kill", 2, FunctionCommands.ALLOW_BUSY, ScriptingCommands::kill,
                    "KILL",
                    "    Kill the currently executing Lua script.")
            .add("load", 3, Subcommands.NOSCRIPT, ScriptingCommands::load,
                    "LOAD <script>",
                    "    Load a script into the scripts cache without executing it.")
            .withHelp();

    private ScriptingCommands() {
    }

    /** EVAL script numkeys [key [key ...]] [arg [arg ...]] */
    public static void eval(Client client, byte[][] argv) {
        // As Redis's evalCommand: the script is shown to monitors before the commands it runs.
        Dispatcher.feedMonitors(client, argv);
        int numkeys = numkeys(argv);
        LuaScripts scripts = LuaEngines.of(client.server()).scripts();
        scripts.run(client, scripts.load(argv[1], true), argv, numkeys, false);
    }

    /** EVAL_RO script numkeys [key [key ...]] [arg [arg ...]]: write commands are refused. */
    public static void evalRo(Client client, byte[][] argv) {
        // As Redis's evalCommand: the script is shown to monitors before the commands it runs.
        Dispatcher.feedMonitors(client, argv);
        int numkeys = numkeys(argv);
        LuaScripts scripts = LuaEngines.of(client.server()).scripts();
        scripts.run(client, scripts.load(argv[1], true), argv, numkeys, true);
    }

    /** EVALSHA sha1 numkeys [key [key ...]] [arg [arg ...]] */
    public static void evalsha(Client client, byte[][] argv) {
        // As Redis's evalCommand: the script is shown to monitors before the commands it runs.
        Dispatcher.feedMonitors(client, argv);
        int numkeys = numkeys(argv);
        LuaEngines.of(client.server()).scripts().run(client, sha(argv[1]), argv, numkeys, false);
    }

    /** EVALSHA_RO sha1 numkeys [key [key ...]] [arg [arg ...]] */
    public static void evalshaRo(Client client, byte[][] argv) {
        // As Redis's evalCommand: the script is shown to monitors before the commands it runs.
        Dispatcher.feedMonitors(client, argv);
        int numkeys = numkeys(argv);
        LuaEngines.of(client.server()).scripts().run(client, sha(argv[1]), argv, numkeys, true);
    }

    /** SCRIPT <subcommand> */
    public static void script(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** SCRIPT LOAD script */
    private static void load(Client client, byte[][] argv) {
        client.reply().bulk(LuaEngines.of(client.server()).scripts().load(argv[2], false));
    }

    /** SCRIPT KILL: stops the script running past busy-reply-threshold, unless it has written. */
    private static void kill(Client client, byte[][] argv) {
        LuaScripts.kill(client, true);
    }

    /** SCRIPT EXISTS sha1 [sha1 ...] */
    private static void exists(Client client, byte[][] argv) {
        LuaScripts scripts = LuaEngines.of(client.server()).scripts();
        client.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            client.reply().integer(scripts.exists(sha(argv[i])) ? 1 : 0);
        }
    }

    /** SCRIPT FLUSH [ASYNC|SYNC]: both drop the interpreter at once, which frees its memory without walking it. */
    private static void flush(Client client, byte[][] argv) {
        if (argv.length > 3 || argv.length == 3 && !Args.is(argv[2], "sync") && !Args.is(argv[2], "async")) {
            throw new CommandError("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
        }
        LuaEngines.of(client.server()).scripts().flush();
        client.reply().ok();
    }

    /** Redis's evalGenericCommand: numkeys must be an integer between 0 and the arguments left. */
    private static int numkeys(byte[][] argv) {
        long numkeys = Args.parseLong(argv[2]);
        if (numkeys > argv.length - 3) {
            throw new CommandError("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new CommandError("ERR Number of keys can't be negative");
        }
        return (int) numkeys;
    }

    /** A script's name as the cache keys it: sha1 hex, lower case (EVALSHA takes either case). */
    private static String sha(byte[] arg) {
        return Args.utf8(arg).toLowerCase(java.util.Locale.ROOT);
    }
}
