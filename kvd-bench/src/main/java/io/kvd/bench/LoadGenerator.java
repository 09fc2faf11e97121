package io.kvd.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs one benchmark: opens every client's connections, spreading the clients evenly over
 * {@code threads} event loops (each loop owns its clients and their statistics), runs the untimed
 * warm-up phase if asked, then the measured phase, starting the clients together and waiting for the
 * last reply.
 */
final class LoadGenerator {
    private static final long CLOSE_TIMEOUT_SECONDS = 5;

    private LoadGenerator() {
    }

    static BenchResult run(BenchSettings settings) throws IOException, InterruptedException {
        return run(settings, ProgressLine.NONE);
    }

    /** @throws IOException when a connection cannot be opened or fails before its last reply */
    static BenchResult run(BenchSettings settings, ProgressLine progress) throws IOException, InterruptedException {
        Shards shards = Shards.of(settings);
        List<Long> serverPids = settings.serverPids().isEmpty() ? localServerPids(shards.servers()) : settings.serverPids();
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends Channel> channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(settings.threads(), ioHandler);
        List<BenchClient> clients = new ArrayList<>();
        List<Channel> channels = new ArrayList<>();
        try {
            List<EventLoop> loops = new ArrayList<>();
            for (EventExecutor loop : group) {
                loops.add((EventLoop) loop);
            }
            for (int i = 0; i < settings.connections(); i++) {
                BenchClient client = new BenchClient(settings, shards);
                clients.add(client);
                for (int s = 0; s < shards.servers().size(); s++) {
                    channels.add(connect(loops.get(i % loops.size()), channelType, shards.servers().get(s),
                            client.connections().get(s)));
                }
            }
            if (settings.warmup() != null) {
                phase(settings, clients, loops.size(), new RequestBudget(BenchSettings.UNLIMITED, settings.warmup()));
            }
            ResourceUse.Start before = ResourceUse.start(serverPids);
            long start = System.nanoTime();
            List<LoopStats> stats = newStats(loops.size());
            progress.start(() -> stats.stream().mapToLong(LoopStats::replies).sum());
            try {
                runPhase(settings, clients, stats, new RequestBudget(settings.requests(), settings.duration()));
            } finally {
                progress.stop();
            }
            long elapsed = System.nanoTime() - start;
            return merge(settings, epoll ? "epoll" : "nio", elapsed, stats, before.finish());
        } finally {
            clients.forEach(BenchClient::close);
            for (Channel channel : channels) {
                channel.closeFuture().await(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
        }
    }

    private static Channel connect(EventLoop loop, Class<? extends Channel> channelType, ServerAddress server,
                                   ShardConnection handler) throws IOException, InterruptedException {
        ChannelFuture connect = new Bootstrap()
                .group(loop)
                .channel(channelType)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(handler)
                .connect(server.host(), server.port());
        if (!connect.await().isSuccess()) {
            throw new IOException("cannot connect to " + server + ": " + connect.cause().getMessage(), connect.cause());
        }
        return connect.channel();
    }

    /** An unmeasured phase: its statistics are thrown away. */
    private static void phase(BenchSettings settings, List<BenchClient> clients, int loops, RequestBudget budget)
            throws IOException, InterruptedException {
        runPhase(settings, clients, newStats(loops), budget);
    }

    private static void runPhase(BenchSettings settings, List<BenchClient> clients, List<LoopStats> stats,
                                 RequestBudget budget) throws IOException, InterruptedException {
        RunCompletion completion = new RunCompletion(clients.size());
        for (int i = 0; i < clients.size(); i++) {
            clients.get(i).start(budget, stats.get(i % stats.size()), completion);
        }
        try {
            completion.await();
        } catch (ExecutionException e) {
            throw new IOException("a connection to " + servers(settings) + " failed: " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    private static List<LoopStats> newStats(int loops) {
        List<LoopStats> stats = new ArrayList<>();
        for (int i = 0; i < loops; i++) {
            stats.add(new LoopStats());
        }
        return stats;
    }

    /** The process ids the servers report in INFO, when they all run on this machine; else none. */
    private static List<Long> localServerPids(List<ServerAddress> servers) {
        List<Long> pids = new ArrayList<>();
        for (ServerAddress server : servers) {
            try (RespClient client = RespClient.connect(server)) {
                if (!InetAddress.getByName(server.host()).isLoopbackAddress()) {
                    return List.of();
                }
                String pid = InfoFields.ask(client, "server").get("process_id");
                if (pid == null) {
                    return List.of();
                }
                pids.add(Long.parseLong(pid));
            } catch (IOException | NumberFormatException e) {
                // A server without INFO (or not up yet: the run itself will say so) has no CPU reading.
                return List.of();
            }
        }
        return pids;
    }

    /** The servers as the command line named them: {@code host:port,...}, or {@code cluster host:port}. */
    static String servers(BenchSettings settings) {
        if (settings.cluster() != null) {
            return "cluster " + settings.cluster();
        }
        return String.join(",", settings.servers().stream().map(ServerAddress::toString).toList());
    }

    private static BenchResult merge(BenchSettings settings, String transport, long elapsedNanos, List<LoopStats> stats,
                                     ResourceUse resources) {
        Histogram latency = new Histogram(LoopStats.SIGNIFICANT_DIGITS);
        long errors = 0;
        long verified = 0;
        long misses = 0;
        String firstError = null;
        for (LoopStats s : stats) {
            latency.add(s.latencyNanos());
            errors += s.errors();
            verified += s.verified();
            misses += s.misses();
            if (firstError == null) {
                firstError = s.firstError();
            }
        }
        return new BenchResult(settings, transport, errors, firstError, verified, misses, elapsedNanos, latency,
                resources);
    }
}
