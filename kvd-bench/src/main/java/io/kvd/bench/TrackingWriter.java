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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A writer of {@code kvbench tracking}: SETs of random keys, {@code pipeline} in flight, topped up
 * after each read, until stopped; when paced, no sooner than one each {@code pacingNanos}. A probing writer makes one request in each {@code probeInterval}
 * a SET of the next probe key instead ({@link InvalidationProbes}); no writer writes a probe key
 * otherwise.
 */
final class TrackingWriter extends ByteToMessageDecoder {
    private static final long CATCH_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final RequestTemplate set;
    private final long keyRange;
    private final InvalidationProbes probes;
    /** Nanoseconds between two probes, or 0 for a writer that does not probe. */
    private final long probeIntervalNanos;
    private final LongAdder replies;
    /** Nanoseconds between two SETs, or 0 for as fast as replies come. */
    private final long pacingNanos;
    private final SplittableRandom random = new SplittableRandom();
    /** The in-flight requests' keys, oldest first (replies come in request order); -1 for a non-probe. */
    private final long[] probeKeys;
    private int oldest;
    private int inFlight;
    private long nextProbeAt;
    private long nextSendAt;
    private boolean wakeScheduled;
    private boolean stopping;
    private RunCompletion phase;
    private ChannelHandlerContext ctx;

    TrackingWriter(int pipeline, int dataSize, long keyRange, InvalidationProbes probes, long probeIntervalNanos,
                   long pacingNanos, LongAdder replies) {
        this.set = RequestTemplate.keyed("SET", "key:", "x".repeat(dataSize).getBytes(StandardCharsets.US_ASCII));
        this.keyRange = keyRange;
        this.probes = probes;
        this.probeIntervalNanos = probeIntervalNanos;
        this.replies = replies;
        this.pacingNanos = pacingNanos;
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
            nextSendAt = nextProbeAt;
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
        long now = System.nanoTime();
        if (pacingNanos > 0) {
            count = due(count, now);
            if (count == 0) {
                return;
            }
        }
        ByteBuf out = ctx.alloc().buffer(count * set.length());
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

    /** How many of {@code room} SETs are due at {@code now}; wakes this writer when the next one is. */
    private int due(int room, long now) {
        // A writer woken late (a busy machine) catches up on the last CATCH_UP_NANOS only, so
        // that both servers get the same rate, without a burst after a long stall.
        nextSendAt = Math.max(nextSendAt, now - CATCH_UP_NANOS);
        int due = now < nextSendAt ? 0 : (int) Math.min(room, (now - nextSendAt) / pacingNanos + 1);
        nextSendAt += due * pacingNanos;
        if (!wakeScheduled && due < room) {
            wakeScheduled = true;
            ctx.executor().schedule(() -> {
                wakeScheduled = false;
                topUp();
            }, nextSendAt - now, TimeUnit.NANOSECONDS);
        }
        return due;
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
