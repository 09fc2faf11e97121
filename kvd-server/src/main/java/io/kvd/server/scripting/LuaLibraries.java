package io.kvd.server.scripting;

import party.iroiro.luajava.JFunction;
import party.iroiro.luajava.Lua;
import party.iroiro.luajava.LuaException;
import party.iroiro.luajava.lua51.Lua51Natives;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The libraries Redis 7.0 loads into a script's Lua besides Lua's own: cjson, cmsgpack, bit and
 * struct (Redis's deps/lua/src/lua_cjson.c, lua_cmsgpack.c, lua_bit.c, lua_struct.c). Redis
 * compiles these C files into its Lua; LuaJava's lua51 natives carry only Lua's standard
 * libraries, so each is written in Lua to the C code's behaviour, one file per library under
 * {@code io/kvd/server/command/lua/}, with {@code support.lua} holding lauxlib's argument checks
 * and IEEE 754 bytes they share.
 * <p>
 * A script reaches each function through a Java function, which Lua sees as a C function, as the
 * originals are: a tail call such as {@code return cjson.decode(x)} then keeps the script's frame,
 * so an error still carries the script's line, and an argument error names the function as the
 * call site did. The library tables are read-only to scripts, as in Redis 7.0.
 */
final class LuaLibraries {
    private static final String[] LIBRARIES = {"cjson", "cmsgpack", "bit", "struct"};
    /** The source name of the libraries' chunks: the script error handler skips their frames. */
    private static final String SOURCE = "=kvd";
    private static final int LUA_MULTRET = -1;

    private LuaLibraries() {
    }

    /**
     * Sets the globals cjson, cmsgpack, bit and struct in {@code lua}, which must have the base,
     * string, math, table and debug libraries open; call before sandbox.lua protects the globals.
     */
    static void install(Lua lua) {
        Lua51Natives natives = (Lua51Natives) lua.getLuaNatives();
        run(lua, "support", 1, () -> {
            lua.getGlobal("debug");
            lua.getField(-1, "getinfo");
            lua.remove(-2);
            return 1;
        });
        int support = lua.getTop();
        for (String name : LIBRARIES) {
            run(lua, name, 2, () -> {
                lua.pushValue(support);
                natives.lua_pushlightuserdata(lua.getPointer(), 0);
                return 2;
            });
            int library = lua.getTop() - 1;
            lua.newTable();
            copyThroughJava(lua, natives, library, library + 1, lua.getTop());
            lua.setGlobal(name);
            lua.pop(2);
        }
        lua.pop(1);
    }

    /**
     * Runs the chunk {@code name}.lua, its frames marked as kvd's, with the arguments
     * {@code arguments} pushes, leaving {@code results}.
     */
    static void run(Lua lua, String name, int results, Arguments arguments) {
        Lua51Natives natives = (Lua51Natives) lua.getLuaNatives();
        byte[] source = resource(name + ".lua");
        ByteBuffer buffer = ByteBuffer.allocateDirect(source.length).put(source).flip();
        if (natives.luaJ_loadbuffer(lua.getPointer(), buffer, source.length, SOURCE) != 0) {
            throw new IllegalStateException(name + ".lua: " + lua.toString(-1));
        }
        int count = arguments.push();
        try {
            lua.pCall(count, results);
        } catch (LuaException e) {
            throw new IllegalStateException(name + ".lua: " + e.getMessage(), e);
        }
    }

    interface Arguments {
        int push();
    }

    /**
     * Copies the library table at {@code from} into the table at {@code to}, each function behind a
     * Java entry; the functions named in the table at {@code spreads} (nil for none) return their
     * results after their count (see {@link #spreadingEntry}).
     */
    private static void copyThroughJava(Lua lua, Lua51Natives natives, int from, int spreads, int to) {
        lua.pushNil();
        while (lua.next(from) != 0) {
            if (lua.type(-1) == Lua.LuaType.FUNCTION) {
                int ref = lua.ref();
                boolean spread = false;
                if (lua.type(spreads) == Lua.LuaType.TABLE) {
                    lua.pushValue(-1);
                    lua.rawGet(spreads);
                    spread = lua.toBoolean(-1);
                    lua.pop(1);
                }
                lua.pushValue(-1);
                lua.push(spread ? spreadingEntry(natives, ref) : entry(natives, ref));
                lua.rawSet(to);
            } else {
                lua.pushValue(-2);
                lua.insert(-2);
                lua.rawSet(to);
            }
        }
    }

    /** Calls the Lua function {@code ref} with this call's arguments, returning its results or raising its error. */
    private static JFunction entry(Lua51Natives natives, int ref) {
        return l -> {
            int arguments = l.getTop();
            l.refGet(ref);
            l.insert(1);
            if (natives.lua_pcall(l.getPointer(), arguments, LUA_MULTRET, 0) != 0) {
                return -1;
            }
            return l.getTop();
        };
    }

    /**
     * As {@link #entry}, for a function returning its values after their count, or as (-count,
     * table) when there are more than a Lua function can return: the values become the results.
     */
    private static JFunction spreadingEntry(Lua51Natives natives, int ref) {
        return l -> {
            int arguments = l.getTop();
            l.refGet(ref);
            l.insert(1);
            if (natives.lua_pcall(l.getPointer(), arguments, LUA_MULTRET, 0) != 0) {
                return -1;
            }
            int count = (int) l.toNumber(1);
            l.remove(1);
            if (count >= 0) {
                return count;
            }
            count = -count;
            l.checkStack(count);
            for (int i = 1; i <= count; i++) {
                l.rawGetI(1, i);
            }
            l.remove(1);
            return count;
        };
    }

    private static byte[] resource(String name) {
        try (InputStream in = LuaLibraries.class.getResourceAsStream("lua/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource lua/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
