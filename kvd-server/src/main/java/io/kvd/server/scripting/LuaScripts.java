package io.kvd.server.scripting;

import io.kvd.codec.InlineRequest;
import io.kvd.codec.KeySlot;
import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclLog;
import io.kvd.server.acl.User;
import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.Subcommands;
import io.kvd.server.cluster.ClusterTopology;
import io.kvd.server.config.Config;
import io.kvd.server.evict.Eviction;
import io.kvd.server.numeric.Printf;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.replication.Replication;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import party.iroiro.luajava.JFunction;
import party.iroiro.luajava.Lua;
import party.iroiro.luajava.lua51.Lua51;
import party.iroiro.luajava.lua51.Lua51Natives;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Lua 5.1 interpreter with Redis's API, and the script cache (Redis 7.0's eval.c and
 * script_lua.c): created at the first script, its globals are Redis's (base, table, string,
 * math, the {@code redis} table), read-only. A script's commands run through the dispatcher's run
 * step as a client of their own, so they reply, refuse and reach the AOF as any client's; the
 * caller's EXEC-like wrapping makes the AOF see MULTI ... EXEC. EVAL's scripts and the function
 * libraries ({@link FunctionLibraries}, Redis's function_lua.c) each have an interpreter of this
 * kind, so both share one redis.* API and one set of conversions, in separate Lua states.
 */
public final class LuaScripts {
    private static final Logger LOG = LoggerFactory.getLogger("kvd.script");
    /** Lua 5.1's pseudo-index of the globals table. */
    private static final int GLOBALS = -10002;
    private static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";
    private static final String BUSY_EVAL =
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    private static final String BUSY_FUNCTION =
            "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
    private static final String UNKILLABLE = "UNKILLABLE Sorry the script already executed write commands against"
            + " the dataset. You can either wait the script termination or kill the server in a hard way using the"
            + " SHUTDOWN NOSAVE command.";
    /** Lua's source name of the code below: frames with it are kvd's, not the script's. */
    private static final String INTERNAL = "=kvd";
    /** Redis's LOAD_TIMEOUT_MS: a library still running its top level after this is stopped. */
    private static final long LIBRARY_LOAD_TIMEOUT_NANOS = 500_000_000L;

    private static final byte[] HEX = Args.bytes("0123456789abcdef");
    /** A digest per thread: getInstance costs more than hashing a short script. */
    private static final ThreadLocal<MessageDigest> SHA1 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private final LuaEngines engines;
    private final ServerState server;
    private final boolean forFunctions;
    /** The client a script's commands run as: its own database (SELECT in a script stays there), never blocking. */
    private final Client scriptClient;
    /** The client whose script runs, which the ACL log names for a refused command. */
    private Client caller;
    private static final byte[] CHUNK_HEAD = Args.bytes("return \"");
    /** Binary values up to this size are written into one kept buffer; larger ones into their own. */
    private static final int CHUNK_SCRATCH_MAX = 1 << 20;
    private ByteBuffer chunkScratch;
    /** Script sha1 (lower-case hex) to its compiled function's reference in the interpreter's registry. */
    private final Map<String, Integer> cache = new HashMap<>();
    /**
     * The scripts only EVAL loaded, least recently run first. Redis 7.0 keeps every one until
     * SCRIPT FLUSH, so a client sending ever-new bodies grows it without end; kvd bounds them as
     * Redis 7.4 does (its LRU_LIST_LENGTH), while those SCRIPT LOAD loaded stay.
     */
    private final LinkedHashMap<String, Boolean> loadedByEval = new LinkedHashMap<>(16, 0.75f, true);
    static final int EVAL_SCRIPTS_KEPT = 500;
    /**
     * The flags of the cached scripts that begin with a {@code #!lua} shebang line; a script
     * without one runs in Redis's compatibility mode, without flags, and is not here.
     */
    private final Map<String, Integer> shebangFlags = new HashMap<>();
    private Lua lua;
    private Lua51Natives natives;
    /** Gives a compiled script the protected globals as its environment. */
    private int sandboxRef;
    private int errorHandlerRef;
    /** The names KEYS and ARGV as Lua strings: got from the registry, cheaper than pushing them from Java at every run. */
    private int keysNameRef;
    private int argvNameRef;
    private int libraryEnvironmentRef;
    /** The functions the library loading registers; null unless a library loads. */
    private List<RegisteredFunction> registering;
    /** The library loading is stopped past {@link #LIBRARY_LOAD_TIMEOUT_NANOS}. */
    private boolean loadTimed;
    /** True while an EVAL_RO or EVALSHA_RO runs: write commands are refused. */
    private boolean readOnly;
    /** When the running script started (System.nanoTime). */
    private long startedNanos;
    /** A script runs: only then may the count hook stop anything. */
    private boolean running;
    /** What FUNCTION STATS shows of the running script: its name and its caller's request. */
    private String runningName;
    private byte[][] runningRequest;
    /** The running script is EVAL's, not a function (Redis's SCRIPT_EVAL_MODE). */
    private boolean evalMode;
    /** The running script has called a write command (Redis's SCRIPT_WRITE_DIRTY): it cannot be killed. */
    private boolean wrote;
    /** The running script passed busy-reply-threshold (Redis's SCRIPT_TIMEDOUT): other clients are let in. */
    private boolean timedOut;
    /** SCRIPT KILL or FUNCTION KILL asked the running script to stop. */
    private boolean killed;
    /**
     * In cluster mode, the slot of the keys the caller declared, or of the first key the script
     * touched (Redis's original client's slot), -1 before either; and whether the script may
     * touch keys of other slots this node serves (a function's allow-cross-slot-keys).
     */
    private int slot;
    private boolean allowCrossSlot;
    /** The running script's allow-oom flag: its writes pass even when memory was full at its start. */
    private boolean allowOom;
    /** Whether the script's caller is the AOF's replay, which memory never refuses (Redis's mustObeyClient). */
    private boolean callerReplaysAof;
    /** The script's caller is a replica's master client, which a read-only replica obeys. */
    private boolean callerIsMaster;
    /** Whether the script's writes reach the AOF: redis.set_repl's REPL_AOF bit, set again at each run. */
    private boolean logsWrites;
    /** The caller is exempt from the slot checks (Redis's mustObeyClient). */
    private boolean callerObeysEverySlot;
    /** The last script was stopped, which left the hook firing on every line: re-armed before the next. */
    private boolean stopped;
    private int armRef;

    /**
     * An interpreter for EVAL's scripts or, if {@code forFunctions}, for function libraries, whose
     * redis table lacks EVAL's breakpoint, debug and replicate_commands, as Redis's function_lua.c.
     */
    LuaScripts(LuaEngines engines, boolean forFunctions) {
        this.engines = engines;
        this.server = engines.server();
        this.forFunctions = forFunctions;
        this.scriptClient = Client.forScripts(server, PooledByteBufAllocator.DEFAULT);
    }

    /** SHA1 of {@code body} in lower-case hex, as Redis names scripts. */
    public static String sha1hex(byte[] body) {
        byte[] digest = SHA1.get().digest(body);
        byte[] hex = new byte[40];
        for (int i = 0; i < 20; i++) {
            hex[2 * i] = HEX[(digest[i] >> 4) & 0xF];
            hex[2 * i + 1] = HEX[digest[i] & 0xF];
        }
        return new String(hex, StandardCharsets.ISO_8859_1);
    }

    /**
     * Compiles {@code body} into the cache unless there; returns its sha1. One EVAL loaded may be
     * evicted by later ones; SCRIPT LOAD ({@code byEval} false) keeps it until SCRIPT FLUSH.
     */
    String load(byte[] body, boolean byEval) {
        String sha = sha1hex(body);
        if (!cache.containsKey(sha)) {
            boolean hasShebang = body.length >= 2 && body[0] == '#' && body[1] == '!';
            int shebang = hasShebang ? indexOf(body, (byte) '\n') : -1;
            int flags = hasShebang ? shebangFlags(body, shebang) : 0;
            Lua lua = interpreter();
            // The shebang line is left out, its newline kept: the script's lines keep their numbers.
            compile(lua, shebang < 0 ? body : Arrays.copyOfRange(body, shebang, body.length), "@user_script",
                    "ERR Error compiling script (new function): ");
            lua.refGet(sandboxRef);
            lua.insert(-2);
            lua.pCall(1, 1);
            if (byEval && loadedByEval.size() >= EVAL_SCRIPTS_KEPT) {
                String oldest = loadedByEval.keySet().iterator().next();
                loadedByEval.remove(oldest);
                shebangFlags.remove(oldest);
                lua.unref(cache.remove(oldest));
            }
            cache.put(sha, lua.ref());
            if (shebang >= 0) {
                shebangFlags.put(sha, flags);
            }
            if (byEval) {
                loadedByEval.put(sha, Boolean.TRUE);
            }
        } else if (!byEval) {
            loadedByEval.remove(sha);
        }
        return sha;
    }

    /**
     * Redis's evalExtractShebangFlags for a script whose first line, up to {@code newline}, starts
     * with {@code #!}: {@code #!lua} and {@code flags=} options, split as sdssplitargs splits.
     */
    /**
     * Redis's evalGetCommandFlags for CLIENT PAUSE WRITE: whether EVAL of {@code body}, or EVALSHA
     * of {@code sha} (body null), may write. Only a script declaring no-writes in its shebang may
     * not; one without a shebang, an unknown sha or a bad shebang may.
     */
    boolean mayWrite(String sha, byte[] body) {
        Integer flags = shebangFlags.get(sha);
        if (flags == null && body != null && body.length >= 2 && body[0] == '#' && body[1] == '!') {
            try {
                flags = shebangFlags(body, indexOf(body, (byte) '\n'));
            } catch (CommandError e) {
                return true;
            }
        }
        return flags == null || (flags & FunctionLibraries.NO_WRITES) == 0;
    }

    /**
     * Redis's evalGetCommandFlags for the OOM check: a script with a shebang is refused when
     * memory is full unless flagged no-writes or allow-oom (scriptFlagsToCmdFlags); one without
     * is not, its first write is checked instead ({@link #redisCall}).
     */
    boolean deniedOnOom(String sha, byte[] body) {
        Integer flags = shebangFlags.get(sha);
        if (flags == null && body != null && body.length >= 2 && body[0] == '#' && body[1] == '!') {
            try {
                flags = shebangFlags(body, indexOf(body, (byte) '\n'));
            } catch (CommandError e) {
                return false;
            }
        }
        return flags != null && deniedOnOom(flags);
    }

    /** scriptFlagsToCmdFlags: no-writes implies allow-oom. */
    static boolean deniedOnOom(int flags) {
        return (flags & (FunctionLibraries.NO_WRITES | FunctionLibraries.ALLOW_OOM)) == 0;
    }

    private static int shebangFlags(byte[] body, int newline) {
        if (newline < 0) {
            throw new CommandError("ERR Invalid script shebang");
        }
        byte[][] parts = InlineRequest.split(Arrays.copyOf(body, newline));
        if (parts == null || parts.length == 0) {
            throw new CommandError("ERR Invalid engine in script shebang");
        }
        String engine = Args.utf8(parts[0]);
        if (!engine.equals("#!lua")) {
            throw new CommandError("ERR Unexpected engine in script shebang: " + engine);
        }
        int flags = 0;
        for (int i = 1; i < parts.length; i++) {
            String option = Args.utf8(parts[i]);
            if (!option.startsWith("flags=")) {
                throw new CommandError("ERR Unknown lua shebang option: " + option);
            }
            // As sdssplitlen: "flags=" lists no flag, "flags=a," an empty one.
            String names = option.substring(6);
            for (String name : names.isEmpty() ? new String[0] : names.split(",", -1)) {
                int flag = FunctionLibraries.flag(name);
                if (flag == 0) {
                    throw new CommandError("ERR Unexpected flag in script shebang: " + name);
                }
                flags |= flag;
            }
        }
        return flags;
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Compiles {@code body} as the chunk {@code name}, left on the stack; a syntax error is answered after {@code error}. */
    private void compile(Lua lua, byte[] body, String name, String error) {
        ByteBuffer source = ByteBuffer.allocateDirect(Math.max(1, body.length)).put(body).flip();
        if (natives.luaJ_loadbuffer(lua.getPointer(), source, body.length, name) != 0) {
            String message = string(lua, -1);
            lua.setTop(0);
            throw new CommandError(error + message);
        }
    }

    /** A function a library registered while it loaded (Redis's functionInfo); {@code callback} is its registry reference. */
    record RegisteredFunction(String name, int callback, int flags, String description) {
    }

    /**
     * FUNCTION LOAD's run of a library (Redis's luaEngineCreate): compiles {@code body}, the code
     * from the end of its shebang line on, runs its top level where only register_function, log
     * and the versions exist, and returns the functions it registered, in order. Unless
     * {@code timed} (FUNCTION RESTORE, the AOF's replay: Redis's timeout 0) it may run as long as it takes.
     */
    List<RegisteredFunction> loadLibrary(byte[] body, boolean timed) {
        Lua lua = interpreter();
        compile(lua, body, "@user_function", "ERR Error compiling function: ");
        rearmIfStopped(lua);
        lua.refGet(libraryEnvironmentRef);
        lua.pushValue(-2);
        lua.pCall(1, 0);
        lua.refGet(errorHandlerRef);
        lua.insert(-2);
        List<RegisteredFunction> registered = new ArrayList<>();
        registering = registered;
        loadTimed = timed;
        startedNanos = System.nanoTime();
        String error = null;
        try {
            if (natives.lua_pcall(lua.getPointer(), 0, 0, 1) != 0) {
                error = errorMessage(lua, -1);
            }
        } finally {
            // The count hook stops nothing once no library loads, so this runs even after a timeout.
            registering = null;
            lua.setTop(0);
            lua.refGet(libraryEnvironmentRef);
            lua.pushNil();
            lua.pCall(1, 0);
        }
        if (error != null) {
            registered.forEach(f -> lua.unref(f.callback()));
            throw new CommandError("ERR Error registering functions: " + error);
        }
        return registered;
    }

    /** The message of an error value: an error table's err field, or the value itself. */
    private static String errorMessage(Lua lua, int index) {
        if (lua.type(index) == Lua.LuaType.TABLE) {
            lua.getField(index, "err");
            String message = string(lua, -1);
            lua.pop(1);
            return message;
        }
        return string(lua, index);
    }

    /** A deleted or replaced library's function: its callback goes from the registry. */
    void release(RegisteredFunction function) {
        if (lua != null) {
            lua.unref(function.callback());
        }
    }

    /** The interpreter's memory (Lua's own count), 0 before the first script. */
    long memoryBytes() {
        if (lua == null) {
            return 0;
        }
        long kilobytes = natives.lua_gc(lua.getPointer(), 3, 0);
        return kilobytes * 1024 + natives.lua_gc(lua.getPointer(), 4, 0);
    }

    int cachedScripts() {
        return cache.size();
    }

    boolean exists(String sha) {
        return cache.containsKey(sha);
    }

    /** SCRIPT FLUSH: the cache and the interpreter go (Redis's scriptingReset); the next script starts a new one. */
    void flush() {
        cache.clear();
        loadedByEval.clear();
        shebangFlags.clear();
        if (lua != null) {
            lua.close();
            lua = null;
        }
    }

    /**
     * EVAL and EVALSHA: runs the cached script {@code sha} with {@code argv[3..]} as KEYS (the first
     * {@code numkeys}) and ARGV, replying to {@code caller}.
     */
    void run(Client caller, String sha, byte[][] argv, int numkeys, boolean readOnly) {
        Integer function = sha.length() == 40 ? cache.get(sha) : null;
        if (function == null) {
            throw new CommandError(NOSCRIPT);
        }
        Integer flags = shebangFlags.get(sha);
        if (flags != null) {
            readOnly = checkFlags(caller, flags, readOnly);
        }
        // Run, an EVAL-loaded script becomes the last to evict.
        loadedByEval.get(sha);
        Lua lua = interpreter();
        setKeysAndArgv(lua, argv, numkeys);
        lua.refGet(errorHandlerRef);
        lua.refGet(function);
        allowCrossSlot = flags != null && (flags & FunctionLibraries.ALLOW_CROSS_SLOT_KEYS) != 0;
        allowOom = flags != null && (flags & FunctionLibraries.ALLOW_OOM) != 0;
        execute(caller, sha, argv, numkeys, 0, readOnly, true);
    }

    /**
     * Redis's scriptPrepareForRun for a script with flags (a function, or an EVAL script with a
     * shebang): what refuses it before it runs. Returns whether it runs read-only (no-writes).
     */
    static boolean checkFlags(Client caller, int flags, boolean readOnlyCommand) {
        if ((flags & FunctionLibraries.NO_CLUSTER) != 0 && caller.server().config().cluster() != null) {
            throw new CommandError("ERR Can not run script on cluster, 'no-cluster' flag is set.");
        }
        boolean noWrites = (flags & FunctionLibraries.NO_WRITES) != 0;
        if (!noWrites) {
            ServerState server = caller.server();
            Replication replication = server.replication();
            if (replication.isReplica() && server.config().get(Config.REPLICA_READ_ONLY).equals("yes")
                    && !caller.isMaster()) {
                throw new CommandError("READONLY Can not run script with write flag on readonly replica");
            }
            String failure = server.commandLog().failure();
            if (failure != null) {
                throw new CommandError(Errors.aofFailing(failure));
            }
            if (readOnlyCommand) {
                throw new CommandError("ERR Can not execute a script with write flag using *_ro command.");
            }
            if (!replication.enoughGoodReplicas(System.currentTimeMillis())) {
                throw new CommandError(Replication.NOREPLICAS);
            }
        }
        return noWrites;
    }

    /**
     * FCALL and FCALL_RO: runs a library's function, named {@code name}, with {@code argv[3..]} as
     * its two arguments, the keys (the first {@code numkeys}) and the other arguments.
     */
    void call(Client caller, RegisteredFunction function, byte[][] argv, int numkeys, boolean readOnly) {
        Lua lua = interpreter();
        lua.refGet(errorHandlerRef);
        lua.refGet(function.callback());
        pushArray(lua, argv, 3, 3 + numkeys);
        pushArray(lua, argv, 3 + numkeys, argv.length);
        allowCrossSlot = (function.flags() & FunctionLibraries.ALLOW_CROSS_SLOT_KEYS) != 0;
        allowOom = (function.flags() & FunctionLibraries.ALLOW_OOM) != 0;
        execute(caller, function.name(), argv, numkeys, 2, readOnly, false);
    }

    /**
     * Runs the function on the stack, under the error handler, over {@code args} arguments: EVAL's
     * and FCALL's common part. {@code request} is the caller's, its keys {@code numkeys} from the
     * fourth argument on.
     */
    private void execute(Client caller, String name, byte[][] request, int numkeys, int args, boolean readOnly,
                         boolean evalMode) {
        Lua lua = this.lua;
        int handler = lua.getTop() - args - 1;
        scriptClient.select(caller.db());
        // As Redis's scriptPrepareForRun: the script's commands run as the caller's user.
        scriptClient.authenticateAs(caller.user());
        this.caller = caller;
        this.readOnly = readOnly;
        rearmIfStopped(lua);
        this.startedNanos = System.nanoTime();
        this.runningName = name;
        this.runningRequest = request;
        this.callerObeysEverySlot = caller.obeysEverySlot();
        this.callerReplaysAof = caller.isReplayingAof();
        this.callerIsMaster = caller.isMaster();
        this.evalMode = evalMode;
        // As Redis's scriptPrepareForRun: every script starts reading replies in RESP2.
        scriptClient.reply().protocol(2);
        this.wrote = false;
        this.killed = false;
        this.logsWrites = true;
        // The dispatcher has checked that the declared keys share a slot this node serves.
        this.slot = numkeys > 0 && server.config().cluster() != null ? KeySlot.of(request[3]) : -1;
        this.running = true;
        CommandLog log = server.commandLog();
        // As EXEC: the script's writes reach the AOF together, in MULTI ... EXEC when two or more
        // (inside a transaction they join the transaction's block).
        boolean wrap = !log.holdsTransaction();
        if (wrap) {
            log.beginTransaction();
        }
        int heldBefore = log.heldCount();
        try {
            if (natives.lua_pcall(lua.getPointer(), args, 1, handler) != 0) {
                replyError(lua, caller.reply(), name);
            } else {
                reply(lua, caller.reply(), lua.getTop());
            }
        } finally {
            running = false;
            runningRequest = null;
            if (timedOut) {
                timedOut = false;
                engines.busyScript(null);
            }
            lua.setTop(0);
            // As Redis, which exits before it propagates: SHUTDOWN NOSAVE under a script drops its writes.
            if (server.shutdownRequested()) {
                log.dropHeldSince(heldBefore);
            }
            if (wrap) {
                log.endTransaction();
            }
        }
    }

    /** The error for a command refused while this interpreter's script is past busy-reply-threshold. */
    String busyError() {
        return evalMode ? BUSY_EVAL : BUSY_FUNCTION;
    }

    /**
     * SCRIPT KILL ({@code eval}) or FUNCTION KILL (Redis's scriptKill): asks the script past
     * busy-reply-threshold to stop, unless it has written or is not the kind the command kills.
     */
    static void kill(Client client, boolean eval) {
        LuaScripts busy = LuaEngines.of(client.server()).busyScript();
        if (busy == null) {
            throw new CommandError("NOTBUSY No scripts in execution right now.");
        }
        if (busy.wrote) {
            throw new CommandError(UNKILLABLE);
        }
        if (eval != busy.evalMode) {
            throw new CommandError(busy.busyError());
        }
        busy.killed = true;
        client.reply().ok();
    }

    /** The running script's name, or null when none is past busy-reply-threshold (FUNCTION STATS). */
    String runningName() {
        return timedOut ? runningName : null;
    }

    /** The request that started the running script (FUNCTION STATS). */
    byte[][] runningRequest() {
        return runningRequest;
    }

    /** How long the running script has run (FUNCTION STATS). */
    long runningMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    boolean isEval() {
        return evalMode;
    }

    /** A stopped script or library left the hook firing on every line: the count hook again. */
    private void rearmIfStopped(Lua lua) {
        if (stopped) {
            lua.refGet(armRef);
            lua.pCall(0, 0);
            stopped = false;
        }
    }

    private Lua interpreter() {
        if (lua != null) {
            return lua;
        }
        Lua lua = new Lua51();
        for (String library : new String[]{"base", "table", "string", "math", "debug"}) {
            lua.openLibrary(library);
        }
        LuaLibraries.install(lua);
        lua.newTable();
        function(lua, "call", l -> redisCall(l, true));
        function(lua, "pcall", l -> redisCall(l, false));
        function(lua, "acl_check_cmd", this::aclCheckCmd);
        function(lua, "sha1hex", this::sha1hexFunction);
        function(lua, "log", this::log);
        function(lua, "setresp", this::setresp);
        function(lua, "set_repl", this::setRepl);
        function(lua, "__overdue", this::overdue);
        function(lua, "__register_function", this::registerFunction);
        lua.setGlobal("redis");
        try {
            LuaLibraries.run(lua, "sandbox", 4, () -> {
                lua.push(forFunctions);
                return 1;
            });
        } catch (IllegalStateException e) {
            lua.close();
            throw e;
        }
        this.sandboxRef = lua.ref();
        this.errorHandlerRef = lua.ref();
        this.armRef = lua.ref();
        this.libraryEnvironmentRef = lua.ref();
        lua.push("KEYS");
        this.keysNameRef = lua.ref();
        lua.push("ARGV");
        this.argvNameRef = lua.ref();
        this.natives = (Lua51Natives) lua.getLuaNatives();
        this.lua = lua;
        return lua;
    }

    private static void function(Lua lua, String name, JFunction function) {
        lua.push(function);
        lua.setField(-2, name);
    }

    /** KEYS and ARGV of EVAL's {@code argv}, set raw in the globals: to scripts, behind their proxy, they are read-only. */
    private void setKeysAndArgv(Lua lua, byte[][] argv, int numkeys) {
        lua.refGet(keysNameRef);
        pushArray(lua, argv, 3, 3 + numkeys);
        lua.rawSet(GLOBALS);
        lua.refGet(argvNameRef);
        pushArray(lua, argv, 3 + numkeys, argv.length);
        lua.rawSet(GLOBALS);
    }

    private void pushArray(Lua lua, byte[][] argv, int from, int to) {
        lua.createTable(to - from, 0);
        for (int i = from; i < to; i++) {
            pushBytes(lua, argv[i], 0, argv[i].length);
            lua.rawSetI(-2, i - from + 1);
        }
    }

    /**
     * The count hook's check (Redis's luaMaskCountHook and scriptInterrupt). Past
     * busy-reply-threshold the script lets the other clients in at every check: their commands are
     * answered -BUSY, but SCRIPT KILL or FUNCTION KILL, which stop a script that has not written,
     * and SHUTDOWN NOSAVE, which stops any.
     */
    private int overdue(Lua lua) {
        if (registering != null) {
            if (!loadTimed || System.nanoTime() - startedNanos < LIBRARY_LOAD_TIMEOUT_NANOS) {
                return 0;
            }
            stopped = true;
            lua.push("ERR FUNCTION LOAD timeout");
            return 1;
        }
        if (!running) {
            return 0;
        }
        if (!timedOut) {
            long elapsedMs = runningMillis();
            if (elapsedMs < server.config().busyReplyThresholdMs()) {
                return 0;
            }
            LOG.warn("Slow script detected: still in execution after {} milliseconds. You can try killing the script"
                    + " using the {} command. Script name is: {}.", elapsedMs, evalMode ? "SCRIPT KILL" : "FUNCTION KILL",
                    runningName);
            timedOut = true;
            engines.busyScript(this);
        }
        server.processEventsWhileBlocked();
        if (!killed && !server.shutdownRequested()) {
            return 0;
        }
        stopped = true;
        LOG.warn("Lua script killed by user with SCRIPT KILL.");
        lua.push("ERR Script killed by user with SCRIPT KILL...");
        return 1;
    }

    /**
     * redis.call and redis.pcall (Redis's luaRedisGenericCommand and scriptCall): the checks a
     * script's command passes, then the dispatcher's run step; the reply converted to Lua. An error
     * is raised by call, returned by pcall, as a table {err=...}.
     */
    private int redisCall(Lua lua, boolean raise) {
        int argc = lua.getTop();
        if (argc == 0) {
            return fail(lua, NO_ARGUMENTS, raise);
        }
        byte[][] argv = commandLine(lua, argc);
        if (argv == null) {
            return fail(lua, NOT_AN_ARGUMENT, raise);
        }
        Command command = engines.lookup(argv[0]);
        if (command == null) {
            return reject(lua, null, "ERR Unknown Redis command called from script", raise);
        }
        if (!command.arityMatches(argc)) {
            return reject(lua, command, "ERR Wrong number of args calling Redis command from script", raise);
        }
        // A container's subcommand is a command of its own here, as in Redis's lookupCommand.
        Subcommands subcommands = command.subcommands();
        Command checked = subcommands == null ? command : subcommands.lookup(argv);
        if (checked == null) {
            return reject(lua, null, "ERR Unknown Redis command called from script", raise);
        }
        if (!checked.arityMatches(argc)) {
            return reject(lua, checked, "ERR Wrong number of args calling Redis command from script", raise);
        }
        if (command.has(Command.Flag.NOSCRIPT) || checked.has(Command.Flag.NOSCRIPT)) {
            return reject(lua, checked, "ERR This Redis command is not allowed from script", raise);
        }
        // As Redis's scriptVerifyACL: the caller's user, logged with the caller's client.
        AccessControl.Denial denial = Dispatcher.checkAccess(scriptClient, caller, checked, argv, AclLog.Context.LUA);
        if (denial != null) {
            return reject(lua, checked, switch (denial.reason()) {
                case COMMAND -> "ERR The user executing the script can't run this command or subcommand";
                case KEY -> "ERR The user executing the script can't access at least one of the keys mentioned in the"
                        + " command arguments";
                default -> "ERR The user executing the script can't publish to the channel mentioned in the command";
            }, raise);
        }
        // As Redis's scriptVerifyWriteCommandAllow: what propagates (PUBLISH, PFCOUNT) counts as a write.
        if (readOnly && (checked.has(Command.Flag.WRITE) || checked.has(Command.Flag.MAY_REPLICATE))) {
            return reject(lua, checked, "ERR Write commands are not allowed from read-only scripts.", raise);
        }
        // As Redis's scriptVerifyWriteCommandAllow: a failing AOF refuses a script's writes as a client's.
        String failure = server.commandLog().failure();
        if (failure != null && checked.has(Command.Flag.WRITE)) {
            return reject(lua, checked, Errors.aofFailing(failure), raise);
        }
        // As Redis's scriptVerifyWriteCommandAllow: before its first write, a script on a read-only
        // replica, or on a primary short of min-replicas-to-write, is refused as a client's write.
        if (checked.has(Command.Flag.WRITE) && !wrote && !callerReplaysAof && !callerIsMaster) {
            Replication replication = server.replication();
            if (replication.isReplica() && server.config().get(Config.REPLICA_READ_ONLY).equals("yes")) {
                return reject(lua, checked, Replication.READONLY, raise);
            }
            if (!replication.enoughGoodReplicas(System.currentTimeMillis())) {
                return reject(lua, checked, Replication.NOREPLICAS, raise);
            }
        }
        // As Redis's scriptVerifyOOM: memory full when the script started refuses its first write
        // that may grow memory; once it wrote, it cannot be stopped halfway.
        if (!allowOom && !wrote && !callerReplaysAof && checked.has(Command.Flag.DENYOOM)
                && server.eviction().outOfMemoryAtScriptStart()) {
            return reject(lua, checked, Eviction.OOM, raise);
        }
        if (checked.has(Command.Flag.WRITE)) {
            wrote = true;
        }
        ClusterTopology cluster = server.config().cluster();
        if (cluster != null && !callerObeysEverySlot) {
            String refusal = clusterRefusal(cluster, checked, argv);
            if (refusal != null) {
                return reject(lua, checked, "ERR " + refusal, raise);
            }
        }
        CommandLog log = server.commandLog();
        int held = logsWrites ? 0 : log.heldCount();
        Dispatcher.run(scriptClient, command, argv);
        if (!logsWrites) {
            log.dropHeldSince(held);
        }
        ByteBuf out = scriptClient.reply().take();
        if (out == null) {
            lua.pushNil();
            return 1;
        }
        try {
            boolean error = out.getByte(out.readerIndex()) == '-';
            pushReply(lua, out);
            return error && raise ? -1 : 1;
        } finally {
            out.release();
        }
    }

    /** Redis's field of an error table whose error INFO errorstats already counted. */
    private static final String COUNTED = "ignore_error_stats_update";
    private static final String NO_ARGUMENTS = "Please specify at least one argument for this redis lib call";
    private static final String NOT_AN_ARGUMENT = "Lua redis lib command arguments must be strings or integers";

    /** The {@code argc} arguments of a redis.* call as a command line (Redis's luaArgsToRedisArgv); null if one is not a string or number. */
    private static byte[][] commandLine(Lua lua, int argc) {
        byte[][] argv = new byte[argc][];
        for (int i = 0; i < argc; i++) {
            Lua.LuaType type = lua.type(i + 1);
            if (type == Lua.LuaType.STRING) {
                argv[i] = bytes(lua, i + 1);
            } else if (type == Lua.LuaType.NUMBER) {
                argv[i] = Args.bytes(formatNumber(lua.toNumber(i + 1)));
            } else {
                return null;
            }
        }
        return argv;
    }

    /**
     * redis.acl_check_cmd(command, arg...) (Redis's luaRedisAclCheckCmdPermissionsCommand): whether
     * the caller's user may run the command with these arguments (nothing is logged); an unknown
     * command or subcommand is an error.
     */
    private int aclCheckCmd(Lua lua) {
        int argc = lua.getTop();
        if (argc == 0) {
            return raise(lua, NO_ARGUMENTS);
        }
        byte[][] argv = commandLine(lua, argc);
        if (argv == null) {
            return raise(lua, NOT_AN_ARGUMENT);
        }
        Command command = engines.lookup(argv[0]);
        Subcommands subcommands = command == null ? null : command.subcommands();
        // As Redis's lookupCommand: a container named alone is the container.
        if (command == null || argc > 1 && subcommands != null && subcommands.lookup(argv) == null) {
            return raise(lua, "Invalid command passed to redis.acl_check_cmd()");
        }
        User user = caller.user();
        lua.push(user == null || user.allowsEverything()
                || server.acl().check(user, command.lookedUp(argv).name(), argv) == null);
        return 1;
    }

    /**
     * Redis's scriptVerifyClusterState: a command's keys must be served here and, unless the
     * function allows other slots, share the slot of the script's earlier keys.
     */
    private String clusterRefusal(ClusterTopology cluster, Command command, byte[][] argv) {
        if (Dispatcher.redirection(cluster, command, argv) != null) {
            return "Script attempted to access a non local key in a cluster node";
        }
        int first = command.movableKeys() != null ? firstOrNone(command.movableKeys().positions(argv))
                : command.firstKey() > 0 && argv.length > command.firstKey() ? command.firstKey() : -1;
        if (first < 0 || allowCrossSlot) {
            return null;
        }
        int keySlot = KeySlot.of(argv[first]);
        if (slot == -1) {
            slot = keySlot;
        } else if (slot != keySlot) {
            return "Script attempted to access keys that do not hash to the same slot";
        }
        return null;
    }

    private static int firstOrNone(int[] positions) {
        return positions.length == 0 ? -1 : positions[0];
    }

    /**
     * redis.register_function(name, callback), or with one table of named arguments
     * {function_name=, callback=, flags={...}, description=} (Redis's luaRegisterFunction): checked
     * as Redis checks them, in the order it does.
     */
    private int registerFunction(Lua lua) {
        // A function may keep register_function in a local and call it later.
        if (registering == null) {
            return raise(lua, "redis.register_function can only be called on FUNCTION LOAD command");
        }
        String name = null;
        String description = null;
        int flags = 0;
        boolean callback = false;
        int argc = lua.getTop();
        if (argc == 1) {
            if (lua.type(1) != Lua.LuaType.TABLE) {
                return raise(lua, "calling redis.register_function with a single argument is only applicable to Lua"
                        + " table (representing named arguments).");
            }
            lua.pushNil();
            while (lua.next(1) != 0) {
                // A number key passes Redis's lua_isstring and matches no argument's name.
                if (lua.type(-2) == Lua.LuaType.NUMBER) {
                    return raise(lua, "unknown argument given to redis.register_function");
                }
                if (lua.type(-2) != Lua.LuaType.STRING) {
                    return raise(lua, "named argument key given to redis.register_function is not a string");
                }
                switch (string(lua, -2)) {
                    case "function_name" -> {
                        if (!isString(lua, -1)) {
                            return raise(lua, "function_name argument given to redis.register_function must be a string");
                        }
                        name = string(lua, -1);
                    }
                    case "description" -> {
                        if (!isString(lua, -1)) {
                            return raise(lua, "description argument given to redis.register_function must be a string");
                        }
                        description = string(lua, -1);
                    }
                    case "callback" -> {
                        if (lua.type(-1) != Lua.LuaType.FUNCTION) {
                            return raise(lua, "callback argument given to redis.register_function must be a function");
                        }
                        callback = true;
                    }
                    case "flags" -> {
                        if (lua.type(-1) != Lua.LuaType.TABLE) {
                            return raise(lua, "flags argument to redis.register_function must be a table representing"
                                    + " function flags");
                        }
                        int table = lua.getTop();
                        lua.pushNil();
                        while (lua.next(table) != 0) {
                            int flag = lua.type(-1) == Lua.LuaType.STRING ? FunctionLibraries.flag(string(lua, -1)) : 0;
                            if (flag == 0) {
                                return raise(lua, "unknown flag given");
                            }
                            flags |= flag;
                            lua.pop(1);
                        }
                    }
                    default -> {
                        return raise(lua, "unknown argument given to redis.register_function");
                    }
                }
                lua.pop(1);
            }
            if (name == null) {
                return raise(lua, "redis.register_function must get a function name argument");
            }
            if (!callback) {
                return raise(lua, "redis.register_function must get a callback argument");
            }
            lua.getField(1, "callback");
        } else if (argc == 2) {
            if (!isString(lua, 1)) {
                return raise(lua, "first argument to redis.register_function must be a string");
            }
            if (lua.type(2) != Lua.LuaType.FUNCTION) {
                return raise(lua, "second argument to redis.register_function must be a function");
            }
            name = string(lua, 1);
            lua.pushValue(2);
        } else {
            return raise(lua, "wrong number of arguments to redis.register_function");
        }
        // Redis checks a function's name with the text of a library's.
        if (!FunctionLibraries.validName(name)) {
            return raise(lua, FunctionLibraries.INVALID_NAME);
        }
        for (RegisteredFunction registered : registering) {
            if (registered.name().equals(name)) {
                return raise(lua, "Function already exists in the library");
            }
        }
        registering.add(new RegisteredFunction(name, lua.ref(), flags, description));
        return 0;
    }

    /** Lua's lua_isstring: a string or a number. */
    private static boolean isString(Lua lua, int index) {
        Lua.LuaType type = lua.type(index);
        return type == Lua.LuaType.STRING || type == Lua.LuaType.NUMBER;
    }

    /** Raises {err = "ERR " .. message}, Redis's luaPushError then luaError. */
    private static int raise(Lua lua, String message) {
        pushError(lua, "ERR " + message);
        return -1;
    }

    /** Redis's luaPushError then luaError (call) or a returned error table (pcall). */
    private static int fail(Lua lua, String message, boolean raise) {
        pushError(lua, "ERR " + message);
        return raise ? -1 : 1;
    }

    /**
     * Redis's scriptCall refusing a script's command: the error counts now, as a reply would
     * (afterErrorReply), and against the command (rejected_calls; none for an unknown one). The
     * error table says so, so that a script replying with it does not count it again.
     */
    private int reject(Lua lua, Command command, String error, boolean raise) {
        server.errorStats().count(error);
        server.commandStats().rejected(command == null ? null : command.name());
        pushCountedError(lua, error);
        return raise ? -1 : 1;
    }

    private static void pushError(Lua lua, String message) {
        lua.newTable();
        lua.push(message);
        lua.setField(-2, "err");
    }

    /** An error table for an error already counted, marked as Redis marks it (scripts can see the field). */
    private static void pushCountedError(Lua lua, String message) {
        pushError(lua, message);
        lua.push(true);
        lua.setField(-2, COUNTED);
    }

    /** redis.sha1hex(x) */
    private int sha1hexFunction(Lua lua) {
        if (lua.getTop() != 1) {
            pushError(lua, "ERR wrong number of arguments");
            return -1;
        }
        byte[] body = lua.type(1) == Lua.LuaType.NUMBER ? Args.bytes(lua.toString(1)) : bytes(lua, 1);
        lua.push(sha1hex(body == null ? new byte[0] : body));
        return 1;
    }

    /** redis.log(level, message ...): to kvd's log, DEBUG and VERBOSE as debug, NOTICE as info, WARNING as warn. */
    private int log(Lua lua) {
        int argc = lua.getTop();
        if (argc < 2) {
            pushError(lua, "ERR redis.log() requires two arguments or more.");
            return -1;
        }
        if (lua.type(1) != Lua.LuaType.NUMBER) {
            pushError(lua, "ERR First argument must be a number (log level).");
            return -1;
        }
        int level = (int) lua.toNumber(1);
        if (level < 0 || level > 3) {
            pushError(lua, "ERR Invalid debug level.");
            return -1;
        }
        StringBuilder message = new StringBuilder();
        for (int i = 2; i <= argc; i++) {
            Lua.LuaType type = lua.type(i);
            if (type == Lua.LuaType.STRING || type == Lua.LuaType.NUMBER) {
                if (i != 2) {
                    message.append(' ');
                }
                byte[] text = type == Lua.LuaType.NUMBER ? Args.bytes(lua.toString(i)) : bytes(lua, i);
                message.append(new String(text, StandardCharsets.UTF_8));
            }
        }
        switch (level) {
            case 0, 1 -> LOG.debug("{}", message);
            case 2 -> LOG.info("{}", message);
            default -> LOG.warn("{}", message);
        }
        return 0;
    }

    /**
     * redis.setresp(2|3): the protocol the script's redis.call replies are read in from now on,
     * and whether a Lua boolean it returns is an integer or null (2) or a boolean (3).
     */
    private int setresp(Lua lua) {
        if (lua.getTop() != 1) {
            pushError(lua, "ERR redis.setresp() requires one argument.");
            return -1;
        }
        double version = lua.type(1) == Lua.LuaType.NUMBER ? lua.toNumber(1) : 0;
        if (version != 2 && version != 3) {
            pushError(lua, "ERR RESP version must be 2 or 3.");
            return -1;
        }
        scriptClient.reply().protocol((int) version);
        return 0;
    }

    /** redis.set_repl(flags): checked and accepted; kvd logs every script's writes. */
    private int setRepl(Lua lua) {
        if (lua.getTop() != 1) {
            pushError(lua, "ERR redis.set_repl() requires one argument.");
            return -1;
        }
        double flags = lua.type(1) == Lua.LuaType.NUMBER ? lua.toNumber(1) : -1;
        if (flags < 0 || flags > 3 || flags != Math.rint(flags)) {
            pushError(lua, "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
            return -1;
        }
        // kvd has no replicas: only the AOF bit tells anything.
        logsWrites = ((int) flags & 1) != 0;
        return 0;
    }

    /** A Lua number as a command argument, as Redis 7.0 formats it: "%.17g". */
    static String formatNumber(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e17 && (value != 0 || 1 / value > 0)) {
            return Long.toString((long) value);
        }
        return Printf.g17(value);
    }

    // ---- Redis reply -> Lua (redisProtocolToLuaType) ----

    /**
     * Pushes one reply read from {@code in}: integer as number, bulk as string, RESP2's nulls as
     * false, array as table, status {ok=}, error {err=}; after redis.setresp(3) also RESP3's null
     * as nil, boolean as boolean, {map={k=v}}, {set={member=true}}, {double=n}, {big_number=s},
     * {verbatim_string={format=, string=}}, and an attribute skipped (Redis 7.0 shows scripts none).
     */
    private void pushReply(Lua lua, ByteBuf in) {
        byte type = in.readByte();
        switch (type) {
            case '_' -> {
                in.skipBytes(2);
                lua.pushNil();
            }
            case '#' -> {
                lua.push(in.readByte() == 't');
                in.skipBytes(2);
            }
            case ',' -> pushWrapped(lua, "double", () -> lua.push(parseDouble(line(in))));
            case '(' -> pushWrapped(lua, "big_number", () -> pushBytes(lua, lineBytes(in)));
            case '=' -> {
                byte[] text = bulkBytes(in);
                pushWrapped(lua, "verbatim_string", () -> {
                    lua.newTable();
                    pushBytes(lua, Arrays.copyOfRange(text, 0, 3));
                    lua.setField(-2, "format");
                    pushBytes(lua, Arrays.copyOfRange(text, 4, text.length));
                    lua.setField(-2, "string");
                });
            }
            case '%', '~' -> {
                boolean map = type == '%';
                int count = Integer.parseInt(line(in));
                pushWrapped(lua, map ? "map" : "set", () -> {
                    lua.checkStack(4);
                    lua.createTable(0, count);
                    for (int i = 0; i < count; i++) {
                        pushReply(lua, in);
                        if (map) {
                            pushReply(lua, in);
                        } else {
                            lua.push(true);
                        }
                        lua.rawSet(-3);
                    }
                });
            }
            case '|' -> {
                int entries = Integer.parseInt(line(in));
                for (int i = 0; i < 2 * entries; i++) {
                    pushReply(lua, in);
                    lua.pop(1);
                }
                pushReply(lua, in);
            }
            case ':' -> lua.push(integerLine(in));
            case '+' -> {
                lua.newTable();
                pushBytes(lua, lineBytes(in));
                lua.setField(-2, "ok");
            }
            case '-' -> {
                // Redis's luaPushErrorBuff: "CODE message", with ERR as the code of a one-word error.
                String error = line(in);
                pushCountedError(lua, error.indexOf(' ') < 0 ? "ERR " + error : error);
            }
            case '$' -> {
                int length = Integer.parseInt(line(in));
                if (length < 0) {
                    lua.push(false);
                } else {
                    byte[] value = new byte[length];
                    in.readBytes(value);
                    in.skipBytes(2);
                    pushBytes(lua, value);
                }
            }
            case '*' -> {
                int count = Integer.parseInt(line(in));
                if (count < 0) {
                    lua.push(false);
                } else {
                    lua.checkStack(3);
                    lua.createTable(count, 0);
                    for (int i = 1; i <= count; i++) {
                        pushReply(lua, in);
                        lua.rawSetI(-2, i);
                    }
                }
            }
            default -> throw new IllegalStateException("not a RESP2 reply: " + (char) type);
        }
    }

    /** A table whose one field {@code name} is what {@code value} pushes: RESP3's types as Redis 7.0 shows them to Lua. */
    private static void pushWrapped(Lua lua, String name, Runnable value) {
        lua.newTable();
        value.run();
        lua.setField(-2, name);
    }

    /** A RESP3 double's text: digits, inf, -inf or nan. */
    private static double parseDouble(String text) {
        return switch (text) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    /** A length-prefixed body (a verbatim string's): its bytes, the trailing CRLF skipped. */
    private static byte[] bulkBytes(ByteBuf in) {
        byte[] value = new byte[Integer.parseInt(line(in))];
        in.readBytes(value);
        in.skipBytes(2);
        return value;
    }

    /** An integer reply's digits, read in place: most script calls answer one (INCR, SADD, EXPIRE...). */
    private static long integerLine(ByteBuf in) {
        boolean negative = in.getByte(in.readerIndex()) == '-';
        if (negative) {
            in.skipBytes(1);
        }
        long value = 0;
        for (byte b = in.readByte(); b != '\r'; b = in.readByte()) {
            value = value * 10 - (b - '0');
        }
        in.skipBytes(1);
        return negative ? value : -value;
    }

    private static byte[] lineBytes(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\r');
        byte[] line = new byte[end - in.readerIndex()];
        in.readBytes(line);
        in.skipBytes(2);
        return line;
    }

    private static String line(ByteBuf in) {
        return new String(lineBytes(in), StandardCharsets.UTF_8);
    }

    private void pushBytes(Lua lua, byte[] value) {
        pushBytes(lua, value, 0, value.length);
    }

    /**
     * A Lua string of exactly these bytes. LuaJava pushes Java strings through modified UTF-8, which
     * is exact only for bytes 1-127; anything else is loaded as a chunk returning the string, in
     * which only what Lua's lexer reads otherwise is escaped ({@code \\ " \n \r}, and NUL): a
     * slower path that binary values alone take (a job queue's msgpack arguments, for one).
     */
    private void pushBytes(Lua lua, byte[] value, int offset, int length) {
        int escaped = 0;
        boolean plain = true;
        for (int i = offset; i < offset + length; i++) {
            byte b = value[i];
            plain &= b > 0;
            if (needsEscape(b)) {
                escaped++;
            }
        }
        if (plain) {
            lua.push(new String(value, offset, length, StandardCharsets.ISO_8859_1));
            return;
        }
        int size = CHUNK_HEAD.length + length + 3 * escaped + 1;
        ByteBuffer chunk = size <= CHUNK_SCRATCH_MAX ? chunkScratch(size) : ByteBuffer.allocateDirect(size);
        chunk.put(CHUNK_HEAD);
        for (int i = offset; i < offset + length; i++) {
            byte b = value[i];
            if (needsEscape(b)) {
                // Three digits always: a digit that follows is not read into the escape.
                chunk.put((byte) '\\').put((byte) ('0' + b / 100)).put((byte) ('0' + b / 10 % 10)).put((byte) ('0' + b % 10));
            } else {
                chunk.put(b);
            }
        }
        chunk.put((byte) '"').flip();
        natives.luaJ_loadbuffer(lua.getPointer(), chunk, chunk.limit(), INTERNAL);
        natives.lua_pcall(lua.getPointer(), 0, 1, 0);
    }

    private static boolean needsEscape(byte b) {
        return b == '\\' || b == '"' || b == '\n' || b == '\r' || b == 0;
    }

    /** The direct buffer binary values' chunks are written in, cleared, grown to {@code size} if smaller. */
    private ByteBuffer chunkScratch(int size) {
        if (chunkScratch == null || chunkScratch.capacity() < size) {
            chunkScratch = ByteBuffer.allocateDirect(Math.max(size, 4096));
        }
        return chunkScratch.clear();
    }

    /** The bytes of the Lua string at {@code index}. */
    private static byte[] bytes(Lua lua, int index) {
        ByteBuffer view = lua.toDirectBuffer(index);
        if (view == null) {
            return null;
        }
        byte[] out = new byte[view.remaining()];
        view.get(out);
        return out;
    }

    private static String string(Lua lua, int index) {
        byte[] bytes = bytes(lua, index);
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    // ---- Lua -> Redis reply (luaReplyToRedisReply) ----

    /**
     * Writes the Lua value at {@code index} (absolute) as a reply: string as bulk, number as integer
     * (truncated), true as 1, false and nil as null, {err=} as error, {ok=} as status, other tables
     * as arrays up to their first nil. Nested tables are walked with a stack of our own, not by
     * recursion: a table holding itself goes as deep as Lua's stack allows, as in Redis.
     */
    private void reply(Lua lua, Reply reply, int index) {
        int[] tables = new int[8];
        int[] counts = new int[8];
        int[] next = new int[8];
        int depth = 0;
        int value = index;
        while (true) {
            int count = replyValue(lua, reply, value);
            if (count > 0) {
                if (depth == tables.length) {
                    tables = Arrays.copyOf(tables, depth * 2);
                    counts = Arrays.copyOf(counts, depth * 2);
                    next = Arrays.copyOf(next, depth * 2);
                }
                tables[depth] = value;
                counts[depth] = count;
                next[depth] = 1;
                depth++;
            } else if (depth > 0) {
                lua.pop(1);
            }
            while (depth > 0 && next[depth - 1] > counts[depth - 1]) {
                depth--;
                if (depth > 0) {
                    lua.pop(1);
                }
            }
            if (depth == 0) {
                return;
            }
            lua.rawGetI(tables[depth - 1], next[depth - 1]++);
            value = lua.getTop();
        }
    }

    /** Writes one value, or an array's header: returns the number of elements to follow. */
    private int replyValue(Lua lua, Reply reply, int index) {
        try {
            lua.checkStack(4);
        } catch (RuntimeException e) {
            reply.error("ERR reached lua stack limit");
            return 0;
        }
        switch (lua.type(index)) {
            case STRING -> reply.bulk(bytes(lua, index));
            case NUMBER -> reply.integer(truncate(lua.toNumber(index)));
            case BOOLEAN -> {
                // As Redis 7.0: by the script's protocol (redis.setresp), then in the caller's.
                if (scriptClient.reply().protocol() == 3) {
                    reply.bool(lua.toBoolean(index));
                } else if (lua.toBoolean(index)) {
                    reply.integer(1);
                } else {
                    reply.nullBulk();
                }
            }
            case TABLE -> {
                return replyTable(lua, reply, index);
            }
            default -> reply.nullBulk();
        }
        return 0;
    }

    private int replyTable(Lua lua, Reply reply, int index) {
        lua.push("err");
        lua.rawGet(index);
        if (lua.type(-1) == Lua.LuaType.STRING) {
            String message = string(lua, -1);
            lua.pop(1);
            error(lua, reply, index, message);
            return 0;
        }
        lua.pop(1);
        lua.push("ok");
        lua.rawGet(index);
        if (lua.type(-1) == Lua.LuaType.STRING) {
            String status = string(lua, -1).replace('\r', ' ').replace('\n', ' ');
            lua.pop(1);
            reply.simpleString(status);
            return 0;
        }
        lua.pop(1);
        // Redis's luaReplyToRedisReply: {double=}, {big_number=}, {verbatim_string=}, {map=} and
        // {set=}, each in the caller's protocol (RESP2 turns them into a bulk or an array).
        lua.push("double");
        lua.rawGet(index);
        if (lua.type(-1) == Lua.LuaType.NUMBER) {
            double number = lua.toNumber(-1);
            lua.pop(1);
            reply.doubleValue(number);
            return 0;
        }
        lua.pop(1);
        lua.push("big_number");
        lua.rawGet(index);
        if (lua.type(-1) == Lua.LuaType.STRING) {
            String digits = string(lua, -1).replace('\r', ' ').replace('\n', ' ');
            lua.pop(1);
            reply.bigNumber(digits);
            return 0;
        }
        lua.pop(1);
        if (verbatim(lua, reply, index)) {
            return 0;
        }
        int entries = flattenMapOrSet(lua, index, "map", true);
        if (entries >= 0) {
            reply.mapHeader(entries);
            return 2 * entries;
        }
        int members = flattenMapOrSet(lua, index, "set", false);
        if (members >= 0) {
            reply.setHeader(members);
            return members;
        }
        int count = 0;
        while (true) {
            lua.rawGetI(index, count + 1);
            boolean nil = lua.type(-1) == Lua.LuaType.NIL;
            lua.pop(1);
            if (nil) {
                break;
            }
            count++;
        }
        reply.arrayHeader(count);
        return count;
    }

    /** {verbatim_string={format=..., string=...}}: Redis's verbatim reply, a bulk of the string in RESP2. */
    private boolean verbatim(Lua lua, Reply reply, int index) {
        lua.push("verbatim_string");
        lua.rawGet(index);
        boolean written = false;
        if (lua.type(-1) == Lua.LuaType.TABLE) {
            int table = lua.getTop();
            lua.push("format");
            lua.rawGet(table);
            lua.push("string");
            lua.rawGet(table);
            if (lua.type(-2) == Lua.LuaType.STRING && lua.type(-1) == Lua.LuaType.STRING) {
                reply.verbatim(string(lua, -2), bytes(lua, -1));
                written = true;
            }
            lua.pop(2);
        }
        lua.pop(1);
        return written;
    }

    /**
     * A {map=t} or {set=t} reply: replaces the table at {@code index} with an array of t's keys and
     * values (a map) or keys (a set), in lua_next's order as Redis walks them, for the reply
     * walker to write as it writes an array; returns the entries, or -1 if {@code field} is not a table.
     */
    private static int flattenMapOrSet(Lua lua, int index, String field, boolean withValues) {
        lua.push(field);
        lua.rawGet(index);
        if (lua.type(-1) != Lua.LuaType.TABLE) {
            lua.pop(1);
            return -1;
        }
        lua.checkStack(4);
        int source = lua.getTop();
        lua.newTable();
        int flat = lua.getTop();
        int entries = 0;
        int next = 1;
        lua.pushNil();
        while (lua.next(source) != 0) {
            if (withValues) {
                lua.pushValue(-2);
                lua.rawSetI(flat, next++);
                lua.rawSetI(flat, next++);
            } else {
                lua.pop(1);
                lua.pushValue(-1);
                lua.rawSetI(flat, next++);
            }
            entries++;
        }
        lua.replace(index);
        lua.pop(1);
        return entries;
    }

    /** C's (long long) of a double as x86-64 does it: out of range and NaN give the smallest long. */
    private static long truncate(double value) {
        return value >= -0x1p63 && value < 0x1p63 ? (long) value : Long.MIN_VALUE;
    }

    /**
     * A script that failed: Redis's error table {err, source, line} becomes "-err script: sha, on
     * source:line."; anything else "Error running script".
     */
    private void replyError(Lua lua, Reply reply, String sha) {
        int index = lua.getTop();
        if (lua.type(index) != Lua.LuaType.TABLE) {
            String message = lua.type(index) == Lua.LuaType.STRING ? string(lua, index) : "execution failure";
            reply.error("ERR Error running script " + sha + ", " + message.substring(0, Math.min(100, message.length())));
            return;
        }
        lua.push("err");
        lua.rawGet(index);
        String message = lua.type(-1) == Lua.LuaType.STRING || lua.type(-1) == Lua.LuaType.NUMBER
                ? string(lua, -1) : "";
        lua.pop(1);
        lua.push("source");
        lua.rawGet(index);
        String source = lua.type(-1) == Lua.LuaType.STRING ? string(lua, -1) : null;
        lua.pop(1);
        lua.push("line");
        lua.rawGet(index);
        String line = lua.type(-1) == Lua.LuaType.NUMBER ? formatNumber(lua.toNumber(-1)) : null;
        lua.pop(1);
        error(lua, reply, index, source != null && line != null
                ? message + " script: " + sha + ", on " + source + ":" + line + "." : message);
    }

    /** Replies the error of the error table at {@code index}, counted unless it was when it happened. */
    private static void error(Lua lua, Reply reply, int index, String message) {
        lua.getField(index, COUNTED);
        boolean counted = lua.toBoolean(-1);
        lua.pop(1);
        if (counted) {
            reply.errorCountedBefore(message);
        } else {
            reply.error(message);
        }
    }
}
