package io.kvd.server;

import io.kvd.codec.RespDecoder;
import io.kvd.codec.RespProtocolError;
import io.kvd.server.client.Client;
import io.kvd.server.client.ClientEviction;
import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.replication.ReplicaOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * One connection's request path, after {@link RespDecoder} has cut the bytes into commands:
 * run each command in order, write its reply without flushing, and leave the flush to the end
 * of the event-loop iteration ({@link IterationFlush}).
 *
 * <p>Reading pauses for two reasons. The client's unsent output is above
 * {@code client-output-soft-limit}: it resumes when the output drains. Or its commands took their
 * slice of this iteration ({@code client-query-slice} bytes of requests): the rest of what it sent
 * waits for the next iteration, so every other ready connection is served first, as Redis reads
 * at most 16 KB from a client per iteration. Either way the decoder keeps the complete commands
 * already read and runs them on resuming, since no read event will come for them.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter implements Client.Connection {
    private static final Logger log = LoggerFactory.getLogger(ConnectionHandler.class);

    private final ServerState server;
    private final CommandTable commands;
    private final IterationFlush flush;
    private final ServerEventLoop loop;
    private final RespDecoder decoder;
    private ChannelHandlerContext ctx;
    private Client client;
    private final OutputLimits outputLimits;
    private boolean queuedForFlush;
    /** Reading paused until the output drains. */
    private boolean paused;
    /** Reading paused until the next iteration: this one's slice is spent. */
    private boolean yielded;
    /** In a blocking command: input accumulates (a close is still seen) but no command runs. */
    private boolean blocked;
    /** The command a CLIENT PAUSE holds, run when it ends. */
    private byte[][] postponed;
    /** The decoder's {@link RespDecoder#decodedBytes()} at which this iteration's slice is spent. */
    private long sliceEnd;
    /** The decoder's count at the end of the last frame run, so the next frame's size is known. */
    private long decodedBeforeFrame;
    /** The size of the frame whose command runs now, else 0: it is still in Redis's query buffer then. */
    private int runningFrameBytes;
    /** The decoder's {@link RespDecoder#copiedArgumentBytes()} at the end of the last frame run. */
    private long copiedBeforeFrame;
    /** The memory of the running command's arguments, else 0 (CLIENT LIST's argv-mem). */
    private long runningArgvBytes;
    private ReceiveLowWater receiveLowWater;
    /** Whether a command completed since the last channelReadComplete. */
    private boolean ranCommandThisRead;

    ConnectionHandler(ServerState server, CommandTable commands, IterationFlush flush, ServerEventLoop loop,
                      RespDecoder decoder) {
        this.server = server;
        this.commands = commands;
        this.flush = flush;
        this.loop = loop;
        this.decoder = decoder;
        this.outputLimits = new OutputLimits(server.config());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        String refusal = Admission.refusal(server.config(), ctx.channel().remoteAddress(), server.clients().size());
        if (refusal != null) {
            // Reading goes on (commands are dropped, client stays null): over TLS the refusal can
            // only be sent once the handshake, which needs reads, has completed.
            server.stats().rejectedConnections++;
            ctx.writeAndFlush(Unpooled.copiedBuffer("-" + refusal + "\r\n", StandardCharsets.US_ASCII))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        this.client = new Client(server, ctx.alloc(), this);
        this.receiveLowWater = new ReceiveLowWater(ctx.channel(), ctx.pipeline().get(SslHandler.class) != null);
        decoder.setAuthenticated(client.isAuthenticated());
        startSlice();
        server.clients().put(client.id(), client);
        server.stats().connectionsReceived++;
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (client == null) {
            return;
        }
        server.clients().remove(client.id());
        client.disconnected();
        client.reply().discard();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (client == null || client.isClosingAfterReply()) {
            return;
        }
        if (!flush.isScheduled()) {
            // First command of this iteration: read the clock once for the whole batch.
            server.databases().setTime(System.currentTimeMillis());
        }
        ranCommandThisRead = true;
        if (msg instanceof byte[][] argv) {
            long decoded = decoder.decodedBytes();
            runningFrameBytes = (int) (decoded - decodedBeforeFrame);
            decodedBeforeFrame = decoded;
            long copied = decoder.copiedArgumentBytes();
            runningArgvBytes = copied - copiedBeforeFrame + argv.length * Client.ARGUMENT_OVERHEAD;
            copiedBeforeFrame = copied;
            commands.call(client, argv);
            runningFrameBytes = 0;
            runningArgvBytes = 0;
            decoder.setAuthenticated(client.isAuthenticated());
        } else {
            RespProtocolError error = (RespProtocolError) msg;
            server.stats().protocolErrors++;
            client.reply().error(error.message());
            client.closeAfterReply();
        }
        queueForFlush();
        if (outputLimits.exceeded(client.isSubscribed(), client.outputMemory(), server.databases().now())) {
            closeForOutputLimit();
            return;
        }
        // After the output limit, as Redis: a client that limit closes is not counted, so it
        // cannot make another client be evicted.
        if (measureAndEvict()) {
            return;
        }
        if (!paused && outputAboveSoftLimit()) {
            paused = true;
            server.stats().readPauses++;
            pauseReading();
        }
        if (!yielded && decoder.decodedBytes() >= sliceEnd) {
            yielded = true;
            server.stats().querySliceYields++;
            pauseReading();
            // A scheduled task due now runs in the next iteration's task phase, after its I/O: the
            // loop fetches due scheduled tasks once per iteration (unlike execute(), whose tasks
            // would still run in this one).
            ctx.executor().schedule(this::endYield, 0, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * A message published to this client: it leaves with this iteration's flush. A subscriber that
     * does not read is closed here once past its limit, so it never holds up the publisher.
     */
    @Override
    public void outputAdded() {
        queueForFlush();
        if (outputLimits.exceeded(client.isSubscribed(), client.outputMemory(), server.databases().now())) {
            closeForOutputLimit();
        } else {
            measureAndEvict();
        }
    }

    /**
     * With maxmemory-clients set: this client's memory measured anew and clients evicted while all
     * are over the limit (Redis's updateClientMemUsage and evictClients); true if this client is
     * closing (evicted now, or after QUIT or a protocol error), when nothing more is done for it.
     */
    private boolean measureAndEvict() {
        ClientEviction eviction = server.clientEviction();
        if (!eviction.enabled()) {
            return false;
        }
        eviction.measure(client);
        eviction.evict();
        return client.isClosingAfterReply();
    }

    private void queueForFlush() {
        if (!queuedForFlush) {
            queuedForFlush = true;
            flush.add(this);
        }
    }

    private void endYield() {
        yielded = false;
        startSlice();
        resumeReading();
    }

    private void startSlice() {
        sliceEnd = decoder.decodedBytes() + server.config().clientQuerySlice();
    }

    /** A command still arriving in pieces must not grow past {@code client-query-buffer-limit}. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (client != null && decoder.bufferedBytes() > server.config().clientQueryBufferLimit()) {
            log.warn("closing client {} that reached the max query buffer length ({} bytes)", remoteAddress(),
                    decoder.bufferedBytes());
            server.stats().queryBufferLimitDisconnections++;
            ctx.close();
            return;
        }
        if (client != null && measureAndEvict()) {
            return;
        }
        if (client != null) {
            server.clientBufferPeaks().input(server.databases().now(), decoder.bufferedBytes());
            // With maxmemory-clients set, what a client sent is read as it arrives (no mark), so
            // its query buffer shows it, as Redis's does, and eviction counts it.
            boolean stalled = !ranCommandThisRead && decoder.bufferedBytes() > 0 && !server.clientEviction().enabled();
            receiveLowWater.afterRead(stalled, decoder.bytesToProgress());
            ranCommandThisRead = false;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        resumeIfDrained();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing client {}: {}", remoteAddress(), cause.toString());
        ctx.close();
    }

    /** Hands this iteration's replies to the socket; called once per iteration by {@link IterationFlush}. */
    void flush() {
        queuedForFlush = false;
        startSlice();
        ByteBuf out = client.reply().take();
        if (out != null) {
            ServerState.Stats stats = server.stats();
            stats.netOutputBytes += out.readableBytes();
            stats.writesProcessed++;
            if (client.isClosingAfterReply()) {
                ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.writeAndFlush(out, ctx.voidPromise());
            // What the socket did not take at once, as Redis measures a client's output between iterations.
            server.clientBufferPeaks().output(server.databases().now(), client.outputMemory());
            measureAndEvict();
        }
        resumeIfDrained();
    }

    private void resumeIfDrained() {
        if (paused && !outputAboveSoftLimit()) {
            paused = false;
            resumeReading();
        }
    }

    private void pauseReading() {
        decoder.pause();
        ctx.channel().config().setAutoRead(false);
    }

    /**
     * Runs the complete commands the decoder already holds (no read event will come for bytes that
     * were already read), then reads again unless those commands paused it anew. Auto-read goes on
     * only after them: it starts a read at once, and one started for a connection that then
     * pauses again piles unread input up behind it.
     */
    private void resumeReading() {
        if (paused || yielded || blocked || !ctx.channel().isActive()) {
            return;
        }
        decoder.resume();
        if (!paused && !yielded && !blocked) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * The cron's checks (Redis's clientsCron): closes a client idle for longer than {@code timeout}
     * seconds, or whose output stayed above the soft output-buffer limit for too long.
     */
    void cron(long nowMs) {
        if (client.replica() != null) {
            // A replica's stream has its own limits (Replication), and it is never idle.
            return;
        }
        int timeout = server.config().timeout();
        // As Redis's clientsCronHandleTimeout, neither a blocked client (its command's timeout
        // rules) nor a subscriber or a monitor (they wait for what the server sends) is idle.
        if (timeout > 0 && !client.isBlocked() && !client.isSubscribed() && !client.isMonitoring() && nowMs - client.lastInteractionMs() > timeout * 1000L) {
            log.debug("closing idle client {}", remoteAddress());
            ctx.close();
        } else if (outputLimits.exceeded(client.isSubscribed(), client.outputMemory(), nowMs)) {
            closeForOutputLimit();
        }
    }

    private void closeForOutputLimit() {
        log.warn("closing client {} for overcoming the output buffer limits ({} bytes pending)", remoteAddress(),
                client.outputMemory());
        server.stats().outputBufferLimitDisconnections++;
        client.reply().discard();
        client.closeAfterReply();
        server.clientEviction().forget(client);
        ctx.close();
    }

    @Override
    public long socketPendingBytes() {
        ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
        return queued == null ? 0 : queued.totalPendingWriteBytes();
    }

    /**
     * Whether reading pauses for the client's output. Not while maxmemory-clients is set: then, as
     * in Redis, eviction bounds what clients hold, and a client whose output grows is evicted
     * rather than left paused.
     */
    private boolean outputAboveSoftLimit() {
        if (server.clientEviction().enabled()) {
            return false;
        }
        // The channel's write-buffer high water mark is the soft limit (see KvdServer), so an
        // unwritable channel has more than the limit queued in the socket's outbound buffer.
        return client.reply().pendingBytes() >= server.config().clientOutputSoftLimit()
                || !ctx.channel().isWritable();
    }

    @Override
    public String remoteAddress() {
        // A UNIX socket's client is unnamed: Redis shows the socket's path for both ends.
        return isUnixSocket() ? localAddress() : format(ctx.channel().remoteAddress());
    }

    @Override
    public String localAddress() {
        return format(ctx.channel().localAddress());
    }

    @Override
    public int queryBufferBytes() {
        // Redis processes a command in place in its query buffer: CLIENT LIST run by this client
        // counts the command's own bytes (qbuf=26 for CLIENT LIST). What is parsed of a command
        // still arriving Redis holds in argv instead.
        return decoder.bufferedBytes() - decoder.parsedBytes() + runningFrameBytes;
    }

    @Override
    public long argvBytes() {
        return decoder.parsedBytes() + runningArgvBytes;
    }

    @Override
    public long queryBufferReserved() {
        return decoder.reservedBytes();
    }

    @Override
    public void close() {
        ctx.close();
    }

    /**
     * Called while the blocking command runs: the decoder emits no further command (it emits one
     * per decode call, so the pause takes effect before the next). Reading goes on, so a client
     * that closes while blocked is seen, and the query-buffer limit still holds.
     */
    @Override
    public void blocked() {
        blocked = true;
        decoder.pause();
    }

    /**
     * The reply is in the client's buffer: it leaves with this iteration's flush. The commands
     * that arrived meanwhile run from a task, after whatever command served this client.
     */
    @Override
    public void unblocked() {
        blocked = false;
        queueForFlush();
        ctx.executor().execute(this::resumeReading);
    }

    /**
     * A script must not start in the loop's I/O phase (see {@link ServerEventLoop}): its command
     * runs from a task of this iteration instead, as if just read, and the commands behind it
     * wait for it as behind a blocking command.
     */
    @Override
    public boolean putOffScript(byte[][] argv) {
        if (!loop.inIoPhase()) {
            return false;
        }
        blocked();
        ctx.executor().execute(() -> {
            blocked = false;
            if (ctx.channel().isActive()) {
                channelRead(ctx, argv);
                resumeReading();
            }
        });
        return true;
    }

    @Override
    public void postpone(byte[][] argv) {
        postponed = argv;
        blocked();
    }

    /** From a task, as a read would run it: the pause may have ended inside another client's command. */
    @Override
    public void runPostponed() {
        ctx.executor().execute(() -> {
            byte[][] argv = postponed;
            postponed = null;
            blocked = false;
            if (argv != null && ctx.channel().isActive()) {
                channelRead(ctx, argv);
                resumeReading();
            }
        });
    }

    /** {@code ip:port}, or Redis's {@code path:0} for a UNIX domain socket. */
    private static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        if (address instanceof DomainSocketAddress unix) {
            return unix.path() + ":0";
        }
        if (address instanceof UnixDomainSocketAddress unix) {
            return unix.getPath() + ":0";
        }
        return String.valueOf(address);
    }

    @Override
    public ReplicaOutput replicaOutput() {
        return new ReplicaOutput() {
            @Override
            public void write(ByteBuf bytes) {
                ctx.writeAndFlush(bytes, ctx.voidPromise());
            }

            @Override
            public void sendFile(ByteBuf header, Path file, Runnable sent) throws IOException {
                FileChannel rdb = FileChannel.open(file, StandardOpenOption.READ);
                if (ctx.pipeline().get(ChunkedWriteHandler.class) == null) {
                    ctx.pipeline().addBefore(ctx.name(), null, new ChunkedWriteHandler());
                }
                ctx.write(header, ctx.voidPromise());
                ctx.writeAndFlush(new ChunkedNioFile(rdb)).addListener(f -> {
                    if (f.isSuccess()) {
                        sent.run();
                    } else {
                        ctx.close();
                    }
                });
            }

            @Override
            public long pendingBytes() {
                ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
                return queued == null ? 0 : queued.totalPendingWriteBytes();
            }

            @Override
            public String ip() {
                SocketAddress remote = ctx.channel().remoteAddress();
                return remote instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "?";
            }

            @Override
            public void close() {
                ctx.close();
            }
        };
    }

    @Override
    public boolean isUnixSocket() {
        SocketAddress local = ctx.channel().localAddress();
        return local instanceof DomainSocketAddress || local instanceof UnixDomainSocketAddress;
    }
}
