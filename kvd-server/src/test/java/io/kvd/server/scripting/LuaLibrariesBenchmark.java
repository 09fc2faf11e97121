package io.kvd.server.scripting;

import io.kvd.server.command.CommandFixture;
import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * EVALSHA of scripts each calling one library function on a constant the size job-queue scripts
 * handle (the scripts of {@code scripts/scripting/lua_libraries_throughput.sh}), through the
 * command table with no sockets; {@code empty} is the script around them, returning a constant,
 * and {@code call} the one of {@code scripts/scripting/eval_throughput.sh}'s EVALSHA, a redis.call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class LuaLibrariesBenchmark {
    private static final String OPTIONS = "{name='send-welcome-email', attempts=3, delay=0, priority=0,"
        + " jobId='user:48213:welcome', timestamp=1764820800123, backoff=5000, removeOnComplete=1000,"
        + " removeOnFail=5000, lifo=false}";
    private static final String JOB = "{id='job:48213', name='send-welcome-email', queue='mail',"
        + " attemptsMade=0, priority=2, delay=0, timestamp=1764820800123, data={userId=48213,"
        + " email='ada.lovelace@example.com', template='welcome-v2', locale='en-GB',"
        + " tags={'onboarding', 'mail', 'high'}}, opts={attempts=3, backoff=5000,"
        + " removeOnComplete=true, lifo=false}}";

    /** {@code OPTIONS} packed, as a Lua string's escapes. */
    private static final String PACKED =
        "\\138\\167\\98\\97\\99\\107\\111\\102\\102\\205\\19\\136\\164\\108\\105\\102\\111\\194"
        + "\\172\\114\\101\\109\\111\\118\\101\\79\\110\\70\\97\\105\\108\\205\\19\\136\\176\\114"
        + "\\101\\109\\111\\118\\101\\79\\110\\67\\111\\109\\112\\108\\101\\116\\101\\205\\3\\232"
        + "\\164\\110\\97\\109\\101\\178\\115\\101\\110\\100\\45\\119\\101\\108\\99\\111\\109\\101"
        + "\\45\\101\\109\\97\\105\\108\\169\\116\\105\\109\\101\\115\\116\\97\\109\\112\\207\\0\\0"
        + "\\1\\154\\231\\132\\82\\123\\165\\106\\111\\98\\73\\100\\178\\117\\115\\101\\114\\58\\52"
        + "\\56\\50\\49\\51\\58\\119\\101\\108\\99\\111\\109\\101\\168\\112\\114\\105\\111\\114"
        + "\\105\\116\\121\\0\\165\\100\\101\\108\\97\\121\\0\\168\\97\\116\\116\\101\\109\\112"
        + "\\116\\115\\3";
    /** {@code JOB} encoded. */
    private static final String JSON = "{\"id\":\"job:48213\",\"data\":{\"locale\":\"en-GB\","
        + "\"template\":\"welcome-v2\",\"tags\":[\"onboarding\",\"mail\",\"high\"],"
        + "\"userId\":48213,\"email\":\"ada.lovelace@example.com\"},\"queue\":\"mail\","
        + "\"name\":\"send-welcome-email\",\"attemptsMade\":0,\"timestamp\":1764820800123,"
        + "\"priority\":2,\"delay\":0,\"opts\":{\"lifo\":false,\"removeOnComplete\":true,"
        + "\"backoff\":5000,\"attempts\":3}}";

    private final CommandFixture kvd = new CommandFixture();
    private byte[][] empty;
    private byte[][] call;
    private byte[][] pack;
    private byte[][] unpack;
    private byte[][] encode;
    private byte[][] decode;

    @Setup
    public void load() {
        empty = evalsha("return 1");
        call = evalsha("return redis.call('INCR', KEYS[1])", "counter");
        pack = evalsha("return #cmsgpack.pack(" + OPTIONS + ")");
        unpack = evalsha("return cmsgpack.unpack('" + PACKED + "').attempts");
        encode = evalsha("return #cjson.encode(" + JOB + ")");
        decode = evalsha("return cjson.decode('" + JSON + "').priority");
    }

    private byte[][] evalsha(String script, String... keys) {
        String sha = kvd.call("SCRIPT", "LOAD", script);
        sha = sha.substring(sha.indexOf("\r\n") + 2, sha.length() - 2);
        byte[][] request = new byte[3 + keys.length][];
        request[0] = bytes("EVALSHA");
        request[1] = bytes(sha);
        request[2] = bytes(Integer.toString(keys.length));
        for (int i = 0; i < keys.length; i++) {
            request[3 + i] = bytes(keys[i]);
        }
        return request;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private int run(byte[][] request) {
        kvd.commands.call(kvd.client, request);
        ByteBuf reply = kvd.client.reply().take();
        int length = reply.readableBytes();
        reply.release();
        return length;
    }

    @Benchmark
    public int empty() {
        return run(empty);
    }

    /** The EVALSHA figure without the sockets: one key in, one command, an integer back. */
    @Benchmark
    public int call() {
        return run(call);
    }

    @Benchmark
    public int pack() {
        return run(pack);
    }

    @Benchmark
    public int unpack() {
        return run(unpack);
    }

    @Benchmark
    public int encode() {
        return run(encode);
    }

    @Benchmark
    public int decode() {
        return run(decode);
    }
}
