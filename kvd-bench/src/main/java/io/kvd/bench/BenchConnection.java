package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;

import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One connection's closed loop: it keeps up to {@code pipeline} requests in flight, and after each read
 * tops its window up again with one batch and one flush. A request's latency runs from the flush of its
 * batch to the parse of its reply. Runs entirely on its channel's event loop after {@link #start}.
 *
 * <p>Replies are parsed here, in {@link #decode}, rather than by a decoder in front: a hop through the
 * pipeline per reply would cost the client more than it saves in code.
 */
final class BenchConnection extends ByteToMessageDecoder {
    private final RequestTemplate[] templates;
    private final long keyRange;
    private final LoopStats stats;
    private final RunCompletion completion;
    private final SplittableRandom random = new SplittableRandom();
    /** When each in-flight request was flushed, a ring in request order: RESP replies come back in that order. */
    private final long[] flushedAt;
    private int oldest;
    private int inFlight;
    private RequestBudget budget;
    private ChannelHandlerContext ctx;
    private boolean finished;

    BenchConnection(BenchSettings settings, LoopStats stats, RunCompletion completion) {
        this.templates = settings.workload().templates(settings.dataSize());
        this.keyRange = settings.keyRange();
        this.flushedAt = new long[settings.pipeline()];
        this.stats = stats;
        this.completion = completion;
    }

    /** Sends the first window; callable from any thread once the channel is active. */
    void start(RequestBudget budget) {
        ctx.executor().execute(() -> {
            this.budget = budget;
            topUp();
        });
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespReply reply;
        while ((reply = RespReplyParser.parse(in)) != null) {
            long now = System.nanoTime();
            if (inFlight == 0) {
                throw new CorruptedFrameException("a reply without a request: " + reply);
            }
            if (reply instanceof RespReply.Error error) {
                stats.recordError(error.message());
            }
            stats.recordReply(now - flushedAt[oldest]);
            oldest = (oldest + 1) % flushedAt.length;
            inFlight--;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        // Before start, only a server speaking out of turn (and so failing the run) gets here.
        if (budget != null) {
            topUp();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        if (!finished) {
            completion.fail(new IOException("the server closed a connection with " + inFlight + " replies due"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        completion.fail(cause);
        ctx.close();
    }

    private void topUp() {
        int count = budget.claim(flushedAt.length - inFlight);
        if (count == 0) {
            if (inFlight == 0 && !finished) {
                finished = true;
                ctx.close();
                completion.connectionFinished();
            }
            return;
        }
        ByteBuf batch = ctx.alloc().ioBuffer(count * templates[0].length());
        for (int i = 0; i < count; i++) {
            RequestTemplate template = templates.length == 1 ? templates[0] : templates[random.nextInt(templates.length)];
            template.writeTo(batch, random.nextLong(keyRange));
        }
        long now = System.nanoTime();
        for (int i = 0; i < count; i++) {
            flushedAt[(oldest + inFlight) % flushedAt.length] = now;
            inFlight++;
        }
        ctx.writeAndFlush(batch, ctx.voidPromise());
    }
}
