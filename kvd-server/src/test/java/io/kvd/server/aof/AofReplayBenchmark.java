package io.kvd.server.aof;

import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.config.Config;
import io.kvd.server.scripting.LuaEngines;
import io.kvd.server.store.Databases;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Startup replay of the suite's file (N records of {@code SET key:%012d <16 bytes>}), each run in
 * a fresh JVM as a start is, and split into its parts: {@code parse} reads and parses on the
 * calling thread, {@code readAhead} also hands the records over from the reading thread, and
 * {@code load} applies them through the command table into an empty keyspace. What {@code load}
 * adds to {@code readAhead} is dispatch, the command and the store. Run with JMH's main (docs/performance.md);
 * {@code -wi 3 -i 3} shows the compiled code's time without the warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(3)
public class AofReplayBenchmark {
    @Param({"100000", "1600000"})
    int records;

    private Path file;
    private ServerState server;
    private CommandTable commands;

    @Setup(Level.Trial)
    public void writeFile() throws IOException {
        file = Files.createTempFile("replay", ".aof");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            for (int i = 0; i < records; i++) {
                out.write(AofFixture.records(AofFixture.cmd("SET", String.format("key:%012d", i),
                        String.format("%016d", i * 7919L))).getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    @Setup(Level.Invocation)
    public void emptyServer() {
        commands = new CommandTable();
        server = new ServerState(new Databases(16, 42), Config.defaults(),
                state -> new LuaEngines(state, commands::lookup), () -> { }, CommandTable.names());
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        Files.delete(file);
    }

    @Benchmark
    public long parse() throws IOException, AofFormatException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            AofReader reader = new AofReader(channel);
            while (reader.next() != null) {
                // Only the parse is measured.
            }
            return reader.records();
        }
    }

    @Benchmark
    public long readAhead() throws IOException, AofFormatException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
             ReadAheadAofReader reader = new ReadAheadAofReader(new AofReader(channel))) {
            while (reader.next() != null) {
                // Only the parse and the hand-over are measured.
            }
            return reader.records();
        }
    }

    @Benchmark
    public long load() throws IOException, AofFormatException {
        return AofLoader.load(file, false, server, commands).records();
    }
}
