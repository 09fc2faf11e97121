package io.kvd.server.command;

import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * GET, SET and INCR through the command table (lookup, arity, handler, reply) with no sockets,
 * over keys of 16 bytes holding 16-byte values or counters. INCR's cost over SET's is what
 * storing integers as numbers could save; latencyTracking no against yes, what INFO
 * latencystats's histograms cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class CommandBenchmark {
    private static final int POOL = 1 << 16;

    @Param({"1000", "1000000"})
    int keys;

    /** Each command's latency into its histogram (Redis's default, yes), or not. */
    @Param({"yes", "no"})
    String latencyTracking;

    private final CommandFixture kvd = new CommandFixture();
    private final byte[][][] gets = new byte[POOL][][];
    private final byte[][][] sets = new byte[POOL][][];
    private final byte[][][] incrs = new byte[POOL][][];
    private int next;

    @Setup(Level.Trial)
    public void fill() {
        kvd.call("CONFIG", "SET", "latency-tracking", latencyTracking);
        for (int i = 0; i < keys; i++) {
            kvd.call("SET", "key:" + String.format("%012d", i), "vvvvvvvvvvvvvvvv");
            kvd.call("SET", "ctr:" + String.format("%012d", i), "1000000000");
        }
        kvd.keyspace.rehashStep(Long.MAX_VALUE);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < POOL; i++) {
            String n = String.format("%012d", random.nextInt(keys));
            gets[i] = CommandFixture.argv("GET", "key:" + n);
            sets[i] = CommandFixture.argv("SET", "key:" + n, "wwwwwwwwwwwwwwww");
            incrs[i] = CommandFixture.argv("INCR", "ctr:" + n);
        }
    }

    private int run(byte[][][] requests) {
        kvd.commands.call(kvd.client, requests[next++ & (POOL - 1)]);
        ByteBuf reply = kvd.client.reply().take();
        int length = reply.readableBytes();
        reply.release();
        return length;
    }

    @Benchmark
    public int get() {
        return run(gets);
    }

    @Benchmark
    public int set() {
        return run(sets);
    }

    @Benchmark
    public int incr() {
        return run(incrs);
    }
}
