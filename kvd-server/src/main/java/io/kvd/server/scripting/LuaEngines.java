package io.kvd.server.scripting;

import io.kvd.server.client.Command;
import io.kvd.server.client.ScriptEngines;
import io.kvd.server.client.ServerState;
import io.kvd.server.protocol.Args;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A server's Lua engines: EVAL's interpreter and script cache, made at the first script, and the
 * function libraries with their own interpreter; and which of them runs a script past
 * busy-reply-threshold.
 */
public final class LuaEngines implements ScriptEngines {
    private final ServerState server;
    private final Function<byte[], Command> commands;
    private LuaScripts scripts;
    private final FunctionLibraries functions;
    /** The interpreter whose script ran past busy-reply-threshold, null when none has. */
    private LuaScripts busyScript;

    /** @param commands the command table's lookup by name, which redis.call uses */
    public LuaEngines(ServerState server, Function<byte[], Command> commands) {
        this.server = server;
        this.commands = commands;
        this.functions = new FunctionLibraries(this);
    }

    /**
     * The server's engines, for the scripting commands: the server state holds them as the
     * interface the packages below this one may name.
     */
    static LuaEngines of(ServerState server) {
        return (LuaEngines) server.scripting();
    }

    ServerState server() {
        return server;
    }

    Command lookup(byte[] name) {
        return commands.apply(name);
    }

    LuaScripts scripts() {
        if (scripts == null) {
            scripts = new LuaScripts(this, false);
        }
        return scripts;
    }

    FunctionLibraries functions() {
        return functions;
    }

    /** The interpreter running a script past busy-reply-threshold, or null. */
    LuaScripts busyScript() {
        return busyScript;
    }

    void busyScript(LuaScripts scripts) {
        this.busyScript = scripts;
    }

    @Override
    public String busyError() {
        return busyScript == null ? null : busyScript.busyError();
    }

    @Override
    public boolean mayWrite(String command, byte[][] argv) {
        return switch (command) {
            case "eval" -> scripts().mayWrite(LuaScripts.sha1hex(argv[1]), argv[1]);
            case "evalsha" -> scripts().mayWrite(Args.utf8(argv[1]).toLowerCase(Locale.ROOT), null);
            case "fcall" -> functions.mayWrite(Args.utf8(argv[1]));
            default -> throw new IllegalArgumentException(command + " runs no script");
        };
    }

    @Override
    public boolean deniedOnOom(String command, byte[][] argv) {
        return switch (command) {
            case "eval" -> scripts().deniedOnOom(LuaScripts.sha1hex(argv[1]), argv[1]);
            case "evalsha" -> scripts().deniedOnOom(Args.utf8(argv[1]).toLowerCase(Locale.ROOT), null);
            case "fcall" -> functions.deniedOnOom(Args.utf8(argv[1]));
            default -> throw new IllegalArgumentException(command + " runs no script");
        };
    }

    @Override
    public long evalMemoryBytes() {
        return scripts == null ? 0 : scripts.memoryBytes();
    }

    @Override
    public long functionsMemoryBytes() {
        return functions.memoryBytes();
    }

    @Override
    public int cachedScripts() {
        return scripts == null ? 0 : scripts.cachedScripts();
    }

    @Override
    public int functionCount() {
        return functions.functionCount();
    }

    @Override
    public int libraryCount() {
        return functions.libraries().size();
    }

    @Override
    public void loadFunctionLibrary(byte[] code, boolean replace) {
        functions.load(code, replace, false);
    }

    @Override
    public void flushFunctions() {
        functions.flush();
    }

    @Override
    public List<byte[]> functionLibraryCodes() {
        return functions.libraries().stream().map(FunctionLibraries.Library::code).toList();
    }

    @Override
    public void close() {
        if (scripts != null) {
            scripts.flush();
        }
        functions.flush();
    }
}
