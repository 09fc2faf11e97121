package io.kvd.server.command;

import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * geo/geosearch.sh's GEOSEARCH through the command table with no sockets: 1,000,000 seeded points
 * uniform over Europe, a 5 km radius around Berlin (some 10 points inside, 60 read from the nine
 * cells), COUNT 10 ASC. What the command itself costs, apart from the I/O every request pays.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class GeoSearchBenchmark {
    private final CommandFixture kvd = new CommandFixture();
    private byte[][] search;

    @Setup(Level.Trial)
    public void fill() {
        SplittableRandom random = new SplittableRandom(20261203L);
        for (int command = 0; command < 10_000; command++) {
            String[] argv = new String[2 + 300];
            argv[0] = "GEOADD";
            argv[1] = "geo";
            for (int i = 0; i < 100; i++) {
                argv[2 + 3 * i] = String.format(Locale.ROOT, "%.6f", random.nextDouble(-10, 30));
                argv[3 + 3 * i] = String.format(Locale.ROOT, "%.6f", random.nextDouble(35, 60));
                argv[4 + 3 * i] = "p" + (command * 100 + i);
            }
            kvd.call(argv);
        }
        search = CommandFixture.argv("GEOSEARCH", "geo", "FROMLONLAT", "13.4", "52.5", "BYRADIUS", "5", "km", "COUNT", "10", "ASC");
    }

    @Benchmark
    public int geosearch() {
        kvd.commands.call(kvd.client, search);
        ByteBuf reply = kvd.client.reply().take();
        int length = reply.readableBytes();
        reply.release();
        return length;
    }
}
