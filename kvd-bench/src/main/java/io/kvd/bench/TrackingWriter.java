package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A writer of {@code kvbench tracking}: SETs of random keys, {@code pipeline} in flight, topped up
 * after each read, until stopped. A probing writer makes one request in each {@code probeInterval}
 * a SET of the next probe key instead ({@link InvalidationProbes}); no writer writes a probe key
 * otherwise.
 */
final class TrackingWriter extends ByteToMessageDecoder {
    private final RequestTemplate set;
    private final long keyRange;
    private final InvalidationProbes probes;
    /** Nanoseconds between two probes, or 0 for a writer that does not probe. */
    private final long probeIntervalNanos;
    private final LongAdder replies;
    private final SplittableRandom random = new SplittableRandom();
    /** The in-flight requests' keys, oldest first (replies come in request order); -1 for a non-probe. */
    private final long[] probeKeys;
    private int oldest;
    private int inFlight;
    private long nextProbeAt;
    private boolean stopping;
    private RunCompletion phase;
    private ChannelHandlerContext ctx;

    TrackingWriter(int pipeline, int dataSize, long keyRange, InvalidationProbes probes, long probeIntervalNanos,
                   LongAdder replies) {
        this.set = RequestTemplate.keyed("SET", "key:", "x".repeat(dataSize).getBytes(StandardCharsets.US_ASCII));
        this.keyRange = keyRange;
        this.probes = probes;
        this.probeIntervalNanos = probeIntervalNanos;
        this.replies = replies;
        this.probeKeys = new long[pipeline];
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Starts writing; the phase fails if the connection does. */
    void start(RunCompletion phase) {
        ctx.executor().execute(() -> {
            this.phase = phase;
            nextProbeAt = System.nanoTime();
            topUp();
        });
    }

    /** Stops sending; the phase hears of this writer's end once its last reply is read. */
    void stop() {
        ctx.executor().execute(() -> {
            stopping = true;
            finishIfIdle();
        });
    }

    void close() {
        ctx.executor().execute(() -> {
            phase = null;
            ctx.close();
        });
    }

    private void topUp() {
        int count = probeKeys.length - inFlight;
        if (stopping || count == 0) {
            return;
        }
        ByteBuf out = ctx.alloc().buffer(count * set.length());
        long now = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long key;
            long probeKey = -1;
            if (probeIntervalNanos > 0 && now >= nextProbeAt) {
                key = probeKey = probes.nextKey();
                // From now, not from when it was due: a stalled writer does not catch up in a burst.
                nextProbeAt = now + probeIntervalNanos;
            } else {
                do {
                    key = random.nextLong(keyRange);
                } while (InvalidationProbes.isProbeKey(key));
            }
            set.writeTo(out, key);
            probeKeys[(oldest + inFlight++) % probeKeys.length] = probeKey;
        }
        ctx.writeAndFlush(out, ctx.voidPromise());
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespReply reply;
        while ((reply = RespReplyParser.parse(in)) != null) {
            long now = System.nanoTime();
            if (reply instanceof RespReply.Error error) {
                fail(new IOException("a SET was answered -" + error.message()));
                return;
            }
            long probeKey = probeKeys[oldest];
            oldest = (oldest + 1) % probeKeys.length;
            inFlight--;
            if (probeKey >= 0) {
                probes.replied(probeKey, now);
            }
            replies.increment();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        topUp();
        finishIfIdle();
    }

    private void finishIfIdle() {
        if (stopping && inFlight == 0 && phase != null) {
            RunCompletion finished = phase;
            phase = null;
            finished.clientFinished();
        }
    }

    private void fail(Throwable cause) {
        if (phase != null) {
            phase.fail(cause);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        if (phase != null) {
            phase.fail(new IOException("the server closed a writer's connection"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
    }
}
