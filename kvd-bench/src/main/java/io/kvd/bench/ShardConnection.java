package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.concurrent.EventExecutor;

import java.io.IOException;
import java.util.List;

/**
 * A {@link BenchClient}'s connection to one server: it batches the requests routed to it until the
 * client flushes, and remembers each in-flight request (when flushed, which template, which key) in a
 * ring in request order, the order RESP replies come back in.
 *
 * <p>Replies are parsed here, in {@link #decode}, rather than by a decoder in front: a hop through the
 * pipeline per reply would cost the client more than it saves in code.
 */
final class ShardConnection extends ByteToMessageDecoder {
    private final BenchClient client;
    private final long[] flushedAt;
    private final long[] keys;
    private final int[] templates;
    private int oldest;
    /** Requests appended, flushed or not, whose replies are due. */
    private int pending;
    private int unflushed;
    private ByteBuf batch;
    private ChannelHandlerContext ctx;

    ShardConnection(BenchClient client, int pipeline) {
        this.client = client;
        this.flushedAt = new long[pipeline];
        this.keys = new long[pipeline];
        this.templates = new int[pipeline];
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    EventExecutor executor() {
        return ctx.executor();
    }

    /** Adds a request to the next batch; {@code batchRequests} sizes a new batch's buffer. */
    void append(RequestTemplate template, int templateIndex, long key, int batchRequests) {
        if (batch == null) {
            batch = ctx.alloc().ioBuffer(batchRequests * template.length());
        }
        template.writeTo(batch, key);
        int slot = (oldest + pending) % flushedAt.length;
        keys[slot] = key;
        templates[slot] = templateIndex;
        pending++;
        unflushed++;
    }

    /** Sends the batch, if any, stamping its requests with {@code now}. */
    void flush(long now) {
        if (batch == null) {
            return;
        }
        for (int i = pending - unflushed; i < pending; i++) {
            flushedAt[(oldest + i) % flushedAt.length] = now;
        }
        unflushed = 0;
        ByteBuf sent = batch;
        batch = null;
        ctx.writeAndFlush(sent, ctx.voidPromise());
    }

    void close() {
        ctx.close();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespReply reply;
        while ((reply = RespReplyParser.parse(in)) != null) {
            long now = System.nanoTime();
            if (pending == 0) {
                throw new CorruptedFrameException("a reply without a request: " + reply);
            }
            int slot = oldest;
            oldest = (oldest + 1) % flushedAt.length;
            pending--;
            client.replied(reply, templates[slot], keys[slot], flushedAt[slot], now);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        client.topUp();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        client.connectionLost(ctx, new IOException("the server " + ctx.channel().remoteAddress()
                + " closed a connection with " + pending + " replies due"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        client.connectionLost(ctx, cause);
        ctx.close();
    }
}
