package io.kvd.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One round of {@code kvbench tracking} against one server: the keys are SET, the tracking clients
 * enable tracking (memory read), GET their keys (memory read again, INFO's tracking figures), then
 * writers SET random keys while the clients re-read what they are told is invalid. The tracking
 * clients share one event loop, the writers another, so that reading invalidations never delays
 * a writer's reply and the reverse.
 */
final class TrackingRun {
    private static final int LOAD_WINDOW = 1000;
    private static final long CLOSE_TIMEOUT_SECONDS = 5;

    private final ServerAddress server;
    private final TrackingSettings settings;
    /** The server's process on this machine, whose CPU time is read. */
    private final long serverPid;
    /** Whether the server is a JVM (kvd), whose live heap is read. */
    private final boolean jvm;

    TrackingRun(ServerAddress server, TrackingSettings settings, long serverPid, boolean jvm) {
        this.server = server;
        this.settings = settings;
        this.serverPid = serverPid;
        this.jvm = jvm;
    }

    /** @throws IOException when the server refuses a request or a connection fails */
    TrackingResult run(String label) throws IOException, InterruptedException {
        try (RespClient admin = RespClient.connect(server)) {
            loadKeys(admin);
            boolean epoll = Epoll.isAvailable();
            IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
            Class<? extends Channel> channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
            MultiThreadIoEventLoopGroup readerLoop = new MultiThreadIoEventLoopGroup(1, io);
            MultiThreadIoEventLoopGroup writerLoop = new MultiThreadIoEventLoopGroup(1, io);
            List<Channel> channels = new ArrayList<>();
            List<TrackingReader> readers = new ArrayList<>();
            List<TrackingWriter> writers = new ArrayList<>();
            try {
                InvalidationProbes probes = new InvalidationProbes(settings.keyRange());
                LongAdder invalidated = new LongAdder();
                SplittableRandom random = new SplittableRandom(settings.seed());
                for (int i = 0; i < settings.clients(); i++) {
                    TrackingReader reader = new TrackingReader(readKeys(random), probes, invalidated);
                    readers.add(reader);
                    channels.add(connect(readerLoop, channelType, server, reader));
                }
                await(readers, TrackingReader::enableTracking);
                long usedBefore = usedMemory(admin);
                Long heapBefore = heap();
                await(readers, TrackingReader::populate);
                long usedAfter = usedMemory(admin);
                Long heapAfter = heap();
                Map<String, String> stats = InfoFields.ask(admin, "stats");

                LongAdder replies = new LongAdder();
                long probeNanos = settings.probeInterval().toNanos();
                long pacingNanos = settings.rate() == 0 ? 0 : TimeUnit.SECONDS.toNanos(settings.writers()) / settings.rate();
                for (int i = 0; i < settings.writers(); i++) {
                    TrackingWriter writer = new TrackingWriter(settings.pipeline(), settings.dataSize(),
                            settings.keyRange(), probes, i == 0 ? probeNanos : 0, pacingNanos, replies);
                    writers.add(writer);
                    channels.add(connect(writerLoop, channelType, server, writer));
                }
                RunCompletion writes = new RunCompletion(writers.size());
                readers.forEach(reader -> reader.startRereading(writes));
                writers.forEach(writer -> writer.start(writes));
                Thread.sleep(settings.warmup().toMillis());
                probes.recording(true);
                long start = System.nanoTime();
                CpuTime cpuAtStart = cpuTime();
                long repliesAtStart = replies.sum();
                long invalidatedAtStart = invalidated.sum();
                Thread.sleep(settings.duration().toMillis());
                probes.recording(false);
                double seconds = (System.nanoTime() - start) / 1e9;
                CpuTime cpu = cpuTime().minus(cpuAtStart);
                double setsPerSecond = (replies.sum() - repliesAtStart) / seconds;
                double invalidationsPerSecond = (invalidated.sum() - invalidatedAtStart) / seconds;
                Double load = ProcFs.loadAverage();
                writers.forEach(TrackingWriter::stop);
                awaitPhase(writes);
                return new TrackingResult(label, settings, Long.parseLong(stats.get("tracking_total_keys")),
                        Long.parseLong(stats.get("tracking_total_items")), setsPerSecond, invalidationsPerSecond,
                        probes.latencyNanos(), probes.beforeReply(), usedBefore, usedAfter, heapBefore, heapAfter,
                        cpu.server() / seconds, cpu.client() / seconds, load);
            } finally {
                readers.forEach(TrackingReader::close);
                writers.forEach(TrackingWriter::close);
                for (Channel channel : channels) {
                    channel.closeFuture().await(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
                readerLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
                writerLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
            }
        }
    }

    /** Every key, {@code key:<12 digits>} as the writers name them, with a value of the writers' size. */
    private void loadKeys(RespClient admin) throws IOException {
        admin.callForText("FLUSHALL");
        byte[] value = "x".repeat(settings.dataSize()).getBytes(StandardCharsets.US_ASCII);
        admin.pipeline(settings.keyRange(), key -> new byte[][] {ascii("SET"),
                ascii(String.format("key:%0" + RequestTemplate.KEY_DIGITS + "d", key)), value}, LOAD_WINDOW);
    }

    /** Between minReads and maxReads distinct keys, drawn uniformly. */
    private long[] readKeys(SplittableRandom random) {
        int count = (int) Math.min(settings.keyRange(), random.nextInt(settings.minReads(), settings.maxReads() + 1));
        return random.longs(0, settings.keyRange()).distinct().limit(count).toArray();
    }

    private static Channel connect(MultiThreadIoEventLoopGroup loop, Class<? extends Channel> channelType,
                                   ServerAddress server, ChannelHandler handler) throws IOException, InterruptedException {
        ChannelFuture connect = new Bootstrap().group(loop).channel(channelType)
                .option(ChannelOption.TCP_NODELAY, true).handler(handler).connect(server.host(), server.port());
        if (!connect.await().isSuccess()) {
            throw new IOException("cannot connect to " + server + ": " + connect.cause().getMessage(), connect.cause());
        }
        return connect.channel();
    }

    /** Runs one phase on every reader and waits for the last to finish it. */
    private static void await(List<TrackingReader> readers, PhaseStart start) throws IOException, InterruptedException {
        RunCompletion phase = new RunCompletion(readers.size());
        readers.forEach(reader -> start.on(reader, phase));
        awaitPhase(phase);
    }

    private interface PhaseStart {
        void on(TrackingReader reader, RunCompletion phase);
    }

    private static void awaitPhase(RunCompletion phase) throws IOException, InterruptedException {
        try {
            phase.await();
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
    }

    /** used_memory once the server has been left quiet for --settle (Redis frees idle clients' query buffers). */
    private long usedMemory(RespClient admin) throws IOException, InterruptedException {
        Thread.sleep(settings.settle().toMillis());
        return Long.parseLong(InfoFields.ask(admin, "memory").get("used_memory"));
    }

    private Long heap() throws IOException, InterruptedException {
        return jvm ? JvmHeap.liveBytes(serverPid) : null;
    }

    /** CPU seconds the server and this process (all its threads) have used. */
    private record CpuTime(double server, double client) {
        CpuTime minus(CpuTime earlier) {
            return new CpuTime(server - earlier.server, client - earlier.client);
        }
    }

    private CpuTime cpuTime() throws IOException {
        Double server = ProcFs.cpuSeconds(serverPid);
        Double client = ProcFs.cpuSeconds(ProcessHandle.current().pid());
        if (server == null || client == null) {
            throw new IOException("no CPU time in /proc for the server (" + serverPid + ") or this process");
        }
        return new CpuTime(server, client);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
