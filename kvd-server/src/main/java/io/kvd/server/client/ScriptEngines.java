package io.kvd.server.client;

import java.util.List;

/**
 * The Lua engines (EVAL's interpreter, the function libraries) as the rest of the server sees
 * them. The scripting package implements it; the server state holds it by this interface because
 * scripts run their commands through the clients and the dispatcher here, so this package cannot
 * name that one.
 */
public interface ScriptEngines {
    /** The error every command but those allowed while busy gets while a script runs past busy-reply-threshold, else null. */
    String busyError();

    /** CLIENT PAUSE WRITE's question for EVAL, EVALSHA and FCALL: may the script of {@code argv} write (it does unless it declares no-writes)? */
    boolean mayWrite(String command, byte[][] argv);

    /**
     * The OOM check's question for EVAL, EVALSHA and FCALL: is the script of {@code argv} refused
     * when memory is full (it may write and is not flagged allow-oom)?
     */
    boolean deniedOnOom(String command, byte[][] argv);

    /** EVAL's interpreter's memory, 0 before the first script. */
    long evalMemoryBytes();

    /** The function libraries' interpreter's memory, 0 before the first library. */
    long functionsMemoryBytes();

    int cachedScripts();

    int functionCount();

    int libraryCount();

    /**
     * Loads a function library as FUNCTION LOAD does ({@code replace}: REPLACE), for a snapshot's
     * libraries; Redis's errors as a CommandError.
     */
    void loadFunctionLibrary(byte[] code, boolean replace);

    /** Drops every function library, as FUNCTION FLUSH (DEBUG RELOAD before it loads the file's). */
    void flushFunctions();

    /** Each function library's code, in load order: an AOF rewrite writes a FUNCTION LOAD of each first. */
    List<byte[]> functionLibraryCodes();

    /** The server stops: the interpreters' native memory goes with them (an embedded server's JVM lives on). */
    void close();
}
