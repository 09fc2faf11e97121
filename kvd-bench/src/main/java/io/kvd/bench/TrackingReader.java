package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A caching client of {@code kvbench tracking}: a RESP3 connection in default tracking mode
 * (HELLO 3, CLIENT TRACKING ON) that GETs its keys so that the server remembers it may cache
 * them, then, as a cache does, GETs again each key it is told is invalid, so that it stays
 * tracked. Each phase is started from the run's thread and runs on the connection's event loop.
 */
final class TrackingReader extends ByteToMessageDecoder {
    /** GETs in flight while populating: few, so that no server holds a large reply buffer afterwards. */
    private static final int POPULATE_WINDOW = 16;
    private static final byte[] INVALIDATE = "invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final int KEY_PREFIX_LENGTH = "key:".length();

    private final long[] keys;
    private final InvalidationProbes probes;
    /** Keys the readers were told are invalid, summed across readers. */
    private final LongAdder invalidated;
    private final RequestTemplate get = RequestTemplate.keyed("GET", "key:");
    private ChannelHandlerContext ctx;
    private RunCompletion phase;
    private int repliesDue;
    private int nextKey;
    private boolean populating;
    private boolean rereading;

    TrackingReader(long[] keys, InvalidationProbes probes, LongAdder invalidated) {
        this.keys = keys;
        this.probes = probes;
        this.invalidated = invalidated;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** HELLO 3 and CLIENT TRACKING ON. */
    void enableTracking(RunCompletion phase) {
        ctx.executor().execute(() -> {
            this.phase = phase;
            ByteBuf out = ctx.alloc().buffer();
            RespWriter.writeCommand(out, ascii("HELLO"), ascii("3"));
            RespWriter.writeCommand(out, ascii("CLIENT"), ascii("TRACKING"), ascii("ON"));
            repliesDue += 2;
            ctx.writeAndFlush(out, ctx.voidPromise());
        });
    }

    /** GETs every key once, {@value #POPULATE_WINDOW} at a time. */
    void populate(RunCompletion phase) {
        ctx.executor().execute(() -> {
            this.phase = phase;
            populating = true;
            sendGets();
        });
    }

    /**
     * From now on, an invalidated key is read again; {@code writes} is the write load's phase, which
     * a failure of this connection fails.
     */
    void startRereading(RunCompletion writes) {
        ctx.executor().execute(() -> {
            phase = writes;
            rereading = true;
        });
    }

    void close() {
        ctx.executor().execute(() -> {
            phase = null;
            ctx.close();
        });
    }

    private void sendGets() {
        int count = Math.min(POPULATE_WINDOW - repliesDue, keys.length - nextKey);
        if (count <= 0) {
            return;
        }
        ByteBuf out = ctx.alloc().buffer(count * get.length());
        for (int i = 0; i < count; i++) {
            get.writeTo(out, keys[nextKey++]);
        }
        repliesDue += count;
        ctx.writeAndFlush(out, ctx.voidPromise());
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ByteBuf rereads = null;
        RespReply reply;
        while ((reply = RespReplyParser.parse(in)) != null) {
            if (reply instanceof RespReply.Push push) {
                rereads = invalidation(push, rereads);
            } else if (reply instanceof RespReply.Error error) {
                fail(new IOException("a tracking client's request was answered -" + error.message()));
                return;
            } else {
                repliesDue--;
            }
        }
        if (rereads != null) {
            ctx.writeAndFlush(rereads, ctx.voidPromise());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        if (phase == null || rereading) {
            return;
        }
        if (populating) {
            sendGets();
        }
        if (repliesDue == 0 && (!populating || nextKey == keys.length)) {
            populating = false;
            RunCompletion finished = phase;
            phase = null;
            finished.clientFinished();
        }
    }

    /** {@code >2 invalidate [key ...]} (a null instead of the keys after a flush, which this run never sends). */
    private ByteBuf invalidation(RespReply.Push push, ByteBuf rereads) {
        List<RespReply> elements = push.elements();
        if (elements.size() != 2 || !(elements.get(0) instanceof RespReply.BulkString kind)
                || !Arrays.equals(kind.value(), INVALIDATE)
                || !(elements.get(1) instanceof RespReply.Array invalid)) {
            return rereads;
        }
        long now = System.nanoTime();
        for (RespReply element : invalid.elements()) {
            long key = keyNumber(((RespReply.BulkString) element).value());
            if (InvalidationProbes.isProbeKey(key)) {
                probes.invalidated(key, now);
            }
            invalidated.increment();
            if (rereading) {
                if (rereads == null) {
                    rereads = ctx.alloc().buffer(get.length() * invalid.elements().size());
                }
                get.writeTo(rereads, key);
                repliesDue++;
            }
        }
        return rereads;
    }

    private static long keyNumber(byte[] key) {
        long number = 0;
        for (int i = KEY_PREFIX_LENGTH; i < key.length; i++) {
            number = number * 10 + (key[i] - '0');
        }
        return number;
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
            phase.fail(new IOException("the server closed a tracking client's connection"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
