package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.netty.channel.ChannelHandlerContext;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One client's closed loop: it keeps up to {@code pipeline} requests in flight over its connections
 * (one per server; the run's {@link KeyRouter} picks the server of each request), and after each read
 * tops its window up again with one batch per server and one flush each. A request's latency runs from
 * the flush of its batch to the parse of its reply. Everything runs on the one event loop that owns
 * all the client's connections.
 */
final class BenchClient {
    private final Workload workload;
    private final RequestTemplate[] templates;
    private final long keyRange;
    private final int pipeline;
    private final int dataSize;
    private final boolean verify;
    private final SplittableRandom random = new SplittableRandom();
    private final ShardConnection[] shards;
    private final KeyRouter router;
    private int inFlight;
    private RequestBudget budget;
    private LoopStats stats;
    private RunCompletion completion;
    private boolean closing;

    BenchClient(BenchSettings settings, Shards servers) {
        this.workload = settings.workload();
        this.templates = workload.templates(settings.dataSize(), settings.verify());
        this.keyRange = settings.keyRange();
        this.pipeline = settings.pipeline();
        this.dataSize = settings.dataSize();
        this.verify = settings.verify();
        this.router = servers.router();
        this.shards = new ShardConnection[servers.servers().size()];
        Arrays.setAll(shards, i -> new ShardConnection(this, settings.pipeline()));
    }

    /** The connection handlers, one per server in the order of {@link Shards#servers}. */
    List<ShardConnection> connections() {
        return List.of(shards);
    }

    /** Starts a phase: sends the first window; callable from any thread once every connection is active. */
    void start(RequestBudget budget, LoopStats stats, RunCompletion completion) {
        shards[0].executor().execute(() -> {
            this.budget = budget;
            this.stats = stats;
            this.completion = completion;
            topUp();
        });
    }

    /** Closes every connection, expecting it: callable from any thread after the last phase. */
    void close() {
        shards[0].executor().execute(() -> {
            closing = true;
            for (ShardConnection shard : shards) {
                shard.close();
            }
        });
    }

    void topUp() {
        if (budget == null) {
            return;
        }
        int count = budget.claim(pipeline - inFlight);
        if (count == 0) {
            if (inFlight == 0) {
                RunCompletion phase = completion;
                budget = null;
                phase.clientFinished();
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            int template = templates.length == 1 ? 0 : random.nextInt(templates.length);
            long key = random.nextLong(keyRange);
            int shard = router.serverOf(templates[template], key);
            shards[shard].append(templates[template], template, key, count);
        }
        inFlight += count;
        long now = System.nanoTime();
        for (ShardConnection shard : shards) {
            shard.flush(now);
        }
    }

    /** A reply to request {@code template} for {@code key}, flushed at {@code flushedAt}. */
    void replied(RespReply reply, int template, long key, long flushedAt, long now) {
        inFlight--;
        stats.recordReply(now - flushedAt);
        if (reply instanceof RespReply.Error error) {
            stats.recordError(error.message());
        } else if (verify && workload.isGet(template)) {
            check(reply, key);
        }
    }

    /** A connection closed or failed; unless the run is closing them, that fails the phase. */
    void connectionLost(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        if (completion != null) {
            completion.fail(cause);
        } else {
            // Before the first phase there is no phase to fail: the first write to the closed channel will.
            ctx.close();
        }
    }

    private void check(RespReply reply, long key) {
        if (reply instanceof RespReply.BulkString bulk && bulk.value() == null) {
            stats.recordMiss();
            return;
        }
        byte[] expected = RequestTemplate.stampedValue(dataSize, key);
        if (reply instanceof RespReply.BulkString bulk && Arrays.equals(bulk.value(), expected)) {
            stats.recordVerified();
        } else {
            stats.recordError("verify: GET key " + key + " returned " + reply + ", not what SET wrote");
        }
    }
}
