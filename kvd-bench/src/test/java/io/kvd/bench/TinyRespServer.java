package io.kvd.bench;

import io.kvd.codec.RespDecoder;
import io.kvd.codec.RespWriter;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A RESP server just big enough to be benchmarked: the {@link Responder} answers every request, and the
 * server counts the requests it received by command name. Replies go out once per read, as a server's do.
 * INFO is answered apart, with the test JVM's process id, and not counted.
 */
final class TinyRespServer implements AutoCloseable {
    /** Writes the reply to {@code argv}; runs on the server's one event loop thread. */
    interface Responder {
        void reply(byte[][] argv, ByteBuf out);
    }

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Map<String, AtomicLong> received = new ConcurrentHashMap<>();
    private final Channel listener;

    private TinyRespServer(Responder responder) throws InterruptedException {
        listener = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RespDecoder(() -> Integer.MAX_VALUE), new Connection(responder));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    /**
     * SET stores and answers +OK, GET answers what SET stored, INCR the count so far, PING +PONG,
     * FLUSHALL forgets what SET stored and answers +OK, anything else an error.
     */
    static TinyRespServer answeringLikeRedis() throws InterruptedException {
        return new TinyRespServer(likeRedis());
    }

    /** As {@link #answeringLikeRedis}, but the SET of {@code key} is answered with the error. */
    static TinyRespServer answeringLikeRedisButTheSetOf(String key, String errorMessage) throws InterruptedException {
        Responder likeRedis = likeRedis();
        return new TinyRespServer((argv, out) -> {
            if (new String(argv[0], StandardCharsets.US_ASCII).equals("SET")
                    && new String(argv[1], StandardCharsets.US_ASCII).equals(key)) {
                RespWriter.writeError(out, errorMessage);
            } else {
                likeRedis.reply(argv, out);
            }
        });
    }

    private static Responder likeRedis() {
        AtomicLong counter = new AtomicLong();
        Map<String, byte[]> strings = new HashMap<>();
        return (argv, out) -> {
            switch (new String(argv[0], StandardCharsets.US_ASCII)) {
                case "SET" -> {
                    strings.put(new String(argv[1], StandardCharsets.US_ASCII), argv[2]);
                    RespWriter.writeOk(out);
                }
                case "GET" -> {
                    byte[] value = strings.get(new String(argv[1], StandardCharsets.US_ASCII));
                    if (value == null) {
                        RespWriter.writeNullBulk(out);
                    } else {
                        RespWriter.writeBulk(out, value);
                    }
                }
                case "INCR" -> RespWriter.writeInteger(out, counter.incrementAndGet());
                case "PING" -> RespWriter.writePong(out);
                case "FLUSHALL" -> {
                    strings.clear();
                    RespWriter.writeOk(out);
                }
                default -> RespWriter.writeError(out, "ERR unknown command");
            }
        };
    }

    /** +OK to SET, {@code value} to every GET. */
    static TinyRespServer answeringEveryGetWith(String value) throws InterruptedException {
        return new TinyRespServer((argv, out) -> {
            if (new String(argv[0], StandardCharsets.US_ASCII).equals("GET")) {
                RespWriter.writeBulk(out, value);
            } else {
                RespWriter.writeOk(out);
            }
        });
    }

    static TinyRespServer answering(Responder responder) throws InterruptedException {
        return new TinyRespServer(responder);
    }

    static TinyRespServer answeringEveryRequestWith(String errorMessage) throws InterruptedException {
        return new TinyRespServer((argv, out) -> RespWriter.writeError(out, errorMessage));
    }

    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** How many requests named {@code command} arrived. */
    long received(String command) {
        AtomicLong count = received.get(command);
        return count == null ? 0 : count.get();
    }

    long receivedInAll() {
        return received.values().stream().mapToLong(AtomicLong::get).sum();
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Connection extends ChannelInboundHandlerAdapter {
        private final Responder responder;
        private ByteBuf pending;

        Connection(Responder responder) {
            this.responder = responder;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            byte[][] argv = (byte[][]) msg;
            if (pending == null) {
                pending = ctx.alloc().buffer();
            }
            // kvbench asks for the server's process id before a run; that is not load, so not counted.
            if (new String(argv[0], StandardCharsets.US_ASCII).equals("INFO")) {
                RespWriter.writeBulk(pending, "# Server\r\nprocess_id:" + ProcessHandle.current().pid() + "\r\n");
                return;
            }
            received.computeIfAbsent(new String(argv[0], StandardCharsets.US_ASCII), name -> new AtomicLong())
                    .incrementAndGet();
            responder.reply(argv, pending);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (pending != null) {
                ctx.writeAndFlush(pending);
                pending = null;
            }
        }

        /** A client reset its connection (the soak's do): close it, as a server would, without a warning. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
