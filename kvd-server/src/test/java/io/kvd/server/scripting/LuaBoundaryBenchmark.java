package io.kvd.server.scripting;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import party.iroiro.luajava.lua51.Lua51;
import party.iroiro.luajava.lua51.Lua51Natives;

import java.util.concurrent.TimeUnit;

/**
 * What each step across LuaJava's JNI boundary costs, the steps a script run is made of: a call
 * that moves only numbers, reading a Lua string into Java (as a direct buffer, the only exact
 * way for any bytes), pushing a Java string, creating a table (KEYS and ARGV), running a Lua
 * function and, from it, a Java function (redis.call). The floor under
 * {@link LuaLibrariesBenchmark#call}: see docs/performance.md, Lua scripts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class LuaBoundaryBenchmark {
    private Lua51 lua;
    private Lua51Natives natives;
    private long state;
    private int emptyFunction;
    private int callingFunction;

    @Setup
    public void open() {
        lua = new Lua51();
        natives = (Lua51Natives) lua.getLuaNatives();
        state = lua.getPointer();
        lua.push(l -> 0);
        lua.setGlobal("java");
        lua.load("return function() end");
        lua.pCall(0, 1);
        emptyFunction = lua.ref();
        lua.load("return function() java() end");
        lua.pCall(0, 1);
        callingFunction = lua.ref();
        lua.push("counter");
    }

    @TearDown
    public void close() {
        lua.close();
    }

    /** lua_objlen of the string on the stack: a call that moves only numbers. */
    @Benchmark
    public long length() {
        return natives.lua_objlen(state, 1);
    }

    /** The string's bytes, as LuaScripts reads a redis.call argument. */
    @Benchmark
    public int readString() {
        return lua.toDirectBuffer(1).remaining();
    }

    /** A Java string pushed and popped, as LuaScripts pushes a key or an argument. */
    @Benchmark
    public void pushString() {
        natives.luaJ_pushstring(state, "counter");
        natives.lua_settop(state, 1);
    }

    /** An empty Lua function run from Java, as a script is. */
    @Benchmark
    public int runLua() {
        lua.refGet(emptyFunction);
        return natives.lua_pcall(state, 0, 0, 0);
    }

    /** A Lua function that calls a Java function doing nothing: the difference to {@link #runLua} is what every redis.call pays to enter Java. */
    @Benchmark
    public int runLuaCallingJava() {
        lua.refGet(callingFunction);
        return natives.lua_pcall(state, 0, 0, 0);
    }

    /** A table created and popped, as KEYS and ARGV are at every run. */
    @Benchmark
    public void createTable() {
        natives.lua_createtable(state, 1, 0);
        natives.lua_settop(state, 1);
    }
}
