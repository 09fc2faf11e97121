package io.kvd.server.store;

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

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Keyspace operations at 1 K, 1 M and 5 M keys of 16 bytes ("key:%012d") with 16-byte values,
 * half of them with a (far) deadline. Each operation picks a key from a pool of random existing
 * keys, so the table's size, not the pool, decides cache behaviour. Run with JMH's main (docs/performance.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class KeyspaceBenchmark {
    private static final long NOW = 1_700_000_000_000L;
    private static final int POOL = 1 << 16;

    @Param({"1000", "1000000", "5000000"})
    int keys;

    private Keyspace keyspace;
    private final byte[][] pool = new byte[POOL][];
    private final byte[] value = "vvvvvvvvvvvvvvvv".getBytes(StandardCharsets.US_ASCII);
    private final long[] ttlSum = new long[2];
    private int next;

    @Setup(Level.Trial)
    public void fill() {
        keyspace = new Databases(1, 1).get(0);
        keyspace.setTime(NOW);
        for (int i = 0; i < keys; i++) {
            keyspace.put(key(i), value, i % 2 == 0 ? Keyspace.PERSISTENT : NOW + 3_600_000);
        }
        keyspace.rehashStep(Long.MAX_VALUE);
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < POOL; i++) {
            pool[i] = key(random.nextInt(keys));
        }
    }

    private static byte[] key(int i) {
        return String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] nextKey() {
        return pool[next++ & (POOL - 1)];
    }

    @Benchmark
    public byte[] get() {
        return keyspace.get(nextKey());
    }

    /** Overwrites an existing key's value (same length: in place). */
    @Benchmark
    public void put() {
        keyspace.put(nextKey(), value, Keyspace.PERSISTENT);
    }

    /** Removes a key and inserts it again, so the size stays put: a delete plus an insert. */
    @Benchmark
    public void deleteAndInsert() {
        byte[] key = nextKey();
        keyspace.remove(key);
        keyspace.put(key, value, Keyspace.PERSISTENT);
    }

    /** Draws one random key with a deadline (none due), as active expiry does. */
    @Benchmark
    public long sample() {
        keyspace.expireSample(1, ttlSum);
        return ttlSum[0];
    }
}
