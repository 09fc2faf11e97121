package io.kvd.server.scripting;

import io.kvd.codec.InlineRequest;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.scripting.LuaScripts.RegisteredFunction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The function libraries (Redis 7.0's functions.c): each library's code and the functions it
 * registered, and the Lua interpreter they run in, separate from EVAL's and made at the first
 * FUNCTION LOAD, so a server that never loads a library never loads Lua for it.
 */
final class FunctionLibraries {
    static final String INVALID_NAME = "Library names can only contain letters, numbers, or underscores(_) and must"
            + " be at least one character long";
    /** Redis's scripts_flags_def, in its order: FUNCTION LIST prints a function's flags so. */
    private static final List<String> FLAGS = List.of("no-writes", "allow-oom", "allow-stale", "no-cluster",
            "allow-cross-slot-keys");
    static final int NO_WRITES = 1;
    static final int ALLOW_OOM = 1 << 1;
    static final int NO_CLUSTER = 1 << 3;
    static final int ALLOW_CROSS_SLOT_KEYS = 1 << 4;

    /** A library: its name, its code as loaded (shebang included), its functions in registration order. */
    record Library(String name, byte[] code, List<RegisteredFunction> functions) {
    }

    private final LuaEngines engines;
    private LuaScripts engine;
    /** By name, case-sensitive as Redis's library dict; in load order. */
    private final Map<String, Library> libraries = new LinkedHashMap<>();
    /** By name in lower case: Redis's function dict ignores case. */
    private final Map<String, RegisteredFunction> functions = new HashMap<>();

    FunctionLibraries(LuaEngines engines) {
        this.engines = engines;
    }

    /** The flag named {@code name} as a bit, or 0 for no flag. */
    static int flag(String name) {
        int index = FLAGS.indexOf(name);
        return index < 0 ? 0 : 1 << index;
    }

    /** The names of the flags set in {@code flags}, in Redis's order. */
    static List<String> flagNames(int flags) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < FLAGS.size(); i++) {
            if ((flags & (1 << i)) != 0) {
                names.add(FLAGS.get(i));
            }
        }
        return names;
    }

    /** Redis's functionsVerifyName: letters, digits and underscores, at least one. */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /**
     * FUNCTION LOAD (Redis's functionsCreateWithLibraryCtx): reads the shebang, runs the library and
     * links its functions, replacing the library of that name when {@code replace}. Returns the
     * library's name; nothing changes on an error. A {@code timed} load is stopped after 500 ms
     * (Redis's LOAD_TIMEOUT_MS, fixed there too); the AOF's replay loads untimed.
     */
    String load(byte[] code, boolean replace, boolean timed) {
        int newline = shebangEnd(code);
        String name = libraryName(code, newline);
        Library old = libraries.get(name);
        if (old != null && !replace) {
            throw new CommandError("ERR Library '" + name + "' already exists");
        }
        Library library = compile(name, code, newline, timed);
        for (RegisteredFunction function : library.functions()) {
            RegisteredFunction existing = functions.get(key(function.name()));
            if (existing != null && (old == null || !old.functions().contains(existing))) {
                release(library);
                throw new CommandError("ERR Function " + function.name() + " already exists");
            }
        }
        if (old != null) {
            unlink(old);
        }
        link(library);
        return name;
    }

    /** How FUNCTION RESTORE treats the libraries there are (Redis's restorePolicy). */
    enum RestorePolicy { FLUSH, APPEND, REPLACE }

    /**
     * FUNCTION RESTORE (Redis's functionRestoreCommand and libraryJoin): loads every library of the
     * payload, then joins them to the current ones as {@code policy} says; nothing changes on an error.
     */
    void restore(List<byte[]> codes, RestorePolicy policy) {
        Map<String, Library> restored = new LinkedHashMap<>();
        Map<String, RegisteredFunction> restoredFunctions = new HashMap<>();
        try {
            for (byte[] code : codes) {
                int newline = shebangEnd(code);
                String name = libraryName(code, newline);
                if (restored.containsKey(name)) {
                    throw new CommandError("ERR Library '" + name + "' already exists");
                }
                Library library = compile(name, code, newline, false);
                restored.put(name, library);
                for (RegisteredFunction function : library.functions()) {
                    if (restoredFunctions.putIfAbsent(key(function.name()), function) != null) {
                        throw new CommandError("ERR Function " + function.name() + " already exists");
                    }
                }
            }
            if (policy != RestorePolicy.FLUSH) {
                for (Library library : restored.values()) {
                    if (policy == RestorePolicy.APPEND && libraries.containsKey(library.name())) {
                        throw new CommandError("ERR Library " + library.name() + " already exists");
                    }
                }
                for (RegisteredFunction function : restoredFunctions.values()) {
                    RegisteredFunction existing = functions.get(key(function.name()));
                    if (existing != null && !restored.containsKey(libraryOf(existing).name())) {
                        throw new CommandError("ERR Function " + function.name() + " already exists");
                    }
                }
            }
        } catch (CommandError e) {
            restored.values().forEach(this::release);
            throw e;
        }
        List<Library> replaced = policy == RestorePolicy.FLUSH ? List.copyOf(libraries.values())
                : restored.keySet().stream().map(libraries::get).filter(Objects::nonNull).toList();
        replaced.forEach(this::unlink);
        restored.values().forEach(this::link);
    }

    private Library libraryOf(RegisteredFunction function) {
        for (Library library : libraries.values()) {
            if (library.functions().contains(function)) {
                return library;
            }
        }
        throw new IllegalStateException("function " + function.name() + " of no library");
    }

    /** Runs a library's code after its shebang line; it must register a function. */
    private Library compile(String name, byte[] code, int newline, boolean timed) {
        List<RegisteredFunction> registered = engine().loadLibrary(Arrays.copyOfRange(code, newline, code.length),
                timed);
        if (registered.isEmpty()) {
            throw new CommandError("ERR No functions registered");
        }
        return new Library(name, code, List.copyOf(registered));
    }

    private void link(Library library) {
        libraries.put(library.name(), library);
        for (RegisteredFunction function : library.functions()) {
            functions.put(key(function.name()), function);
        }
    }

    private void release(Library library) {
        library.functions().forEach(engine::release);
    }

    /**
     * Redis's functionExtractLibMetaData and the checks after it: {@code #!<engine> name=<library>}
     * on the first line, split as sdssplitargs splits; returns the library's name.
     */
    private static String libraryName(byte[] code, int newline) {
        if (code.length < 2 || code[0] != '#' || code[1] != '!') {
            throw new CommandError("ERR Missing library metadata");
        }
        byte[][] parts = newline < 0 ? null : InlineRequest.split(Arrays.copyOf(code, newline));
        if (parts == null || parts.length == 0) {
            throw new CommandError("ERR Invalid library metadata");
        }
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            String part = Args.utf8(parts[i]);
            if (!part.regionMatches(true, 0, "name=", 0, 5)) {
                throw new CommandError("ERR Invalid metadata value given: " + part);
            }
            if (name != null) {
                throw new CommandError("ERR Invalid metadata value, name argument was given multiple times");
            }
            name = part.substring(5);
        }
        if (name == null) {
            throw new CommandError("ERR Library name was not given");
        }
        if (!validName(name)) {
            throw new CommandError("ERR " + INVALID_NAME);
        }
        String engine = Args.utf8(parts[0]).substring(2);
        if (!engine.equalsIgnoreCase("lua")) {
            throw new CommandError("ERR Engine '" + engine + "' not found");
        }
        return name;
    }

    /** FUNCTION DELETE: false if there is no library of that name. */
    boolean delete(String name) {
        Library library = libraries.get(name);
        if (library == null) {
            return false;
        }
        unlink(library);
        return true;
    }

    private void unlink(Library library) {
        libraries.remove(library.name());
        for (RegisteredFunction function : library.functions()) {
            functions.remove(key(function.name()));
        }
        release(library);
    }

    /** FUNCTION FLUSH: every library, and the interpreter with them (Redis makes a new engine). */
    void flush() {
        libraries.clear();
        functions.clear();
        if (engine != null) {
            engine.flush();
        }
    }

    /** The function FCALL names, in any case, or null. */
    RegisteredFunction function(String name) {
        return functions.get(key(name));
    }

    /** Redis's fcallGetCommandFlags for CLIENT PAUSE WRITE: an unknown function, or one not flagged no-writes, may write. */
    boolean mayWrite(String name) {
        RegisteredFunction function = function(name);
        return function == null || (function.flags() & NO_WRITES) == 0;
    }

    /**
     * Redis's fcallGetCommandFlags for the OOM check: a known function that may write and is not
     * flagged allow-oom is refused when memory is full (an unknown one fails later on its own).
     */
    boolean deniedOnOom(String name) {
        RegisteredFunction function = function(name);
        return function != null && LuaScripts.deniedOnOom(function.flags());
    }

    Collection<Library> libraries() {
        return libraries.values();
    }

    int functionCount() {
        return functions.size();
    }

    /** The interpreter's memory, 0 until a library loaded (INFO's used_memory_vm_functions). */
    long memoryBytes() {
        return engine == null ? 0 : engine.memoryBytes();
    }

    LuaScripts engine() {
        if (engine == null) {
            engine = new LuaScripts(engines, true);
        }
        return engine;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Where the shebang line ends, or -1: Redis finds the newline with strchr, which stops at a NUL byte. */
    private static int shebangEnd(byte[] code) {
        for (int i = 0; i < code.length && code[i] != 0; i++) {
            if (code[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
