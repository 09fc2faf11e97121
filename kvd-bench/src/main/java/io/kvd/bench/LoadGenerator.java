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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs one benchmark: opens every connection, spread evenly over {@code threads} event loops (each loop
 * owns its connections and their statistics), starts them together and waits for the last reply.
 */
final class LoadGenerator {
    private LoadGenerator() {
    }

    /** @throws IOException when a connection cannot be opened or fails before its last reply */
    static BenchResult run(BenchSettings settings) throws IOException, InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends Channel> channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(settings.threads(), ioHandler);
        try {
            List<EventLoop> loops = new ArrayList<>();
            List<LoopStats> stats = new ArrayList<>();
            for (EventExecutor loop : group) {
                loops.add((EventLoop) loop);
                stats.add(new LoopStats());
            }
            RunCompletion completion = new RunCompletion(settings.connections());
            List<BenchConnection> connections = new ArrayList<>();
            List<ChannelFuture> connects = new ArrayList<>();
            for (int i = 0; i < settings.connections(); i++) {
                BenchConnection connection = new BenchConnection(settings, stats.get(i % loops.size()), completion);
                connections.add(connection);
                connects.add(new Bootstrap()
                        .group(loops.get(i % loops.size()))
                        .channel(channelType)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .handler(connection)
                        .connect(settings.host(), settings.port()));
            }
            for (ChannelFuture connect : connects) {
                if (!connect.await().isSuccess()) {
                    throw new IOException("cannot connect to " + settings.host() + ":" + settings.port() + ": "
                            + connect.cause().getMessage(), connect.cause());
                }
            }

            long start = System.nanoTime();
            RequestBudget budget = new RequestBudget(settings.requests(), settings.duration());
            connections.forEach(c -> c.start(budget));
            try {
                completion.await();
            } catch (ExecutionException e) {
                throw new IOException("connection to " + settings.host() + ":" + settings.port() + " failed: "
                        + e.getCause().getMessage(), e.getCause());
            }
            long elapsed = System.nanoTime() - start;
            return merge(settings, epoll ? "epoll" : "nio", elapsed, stats);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
        }
    }

    private static BenchResult merge(BenchSettings settings, String transport, long elapsedNanos, List<LoopStats> stats) {
        Histogram latency = new Histogram(LoopStats.SIGNIFICANT_DIGITS);
        long errors = 0;
        String firstError = null;
        for (LoopStats s : stats) {
            latency.add(s.latencyNanos());
            errors += s.errors();
            if (firstError == null) {
                firstError = s.firstError();
            }
        }
        return new BenchResult(settings, transport, errors, firstError, elapsedNanos, latency);
    }
}
