package io.kvd.server;

import io.kvd.server.client.ServerState;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Counts what every connection reads, for INFO's total_net_input_bytes, total_reads_processed and
 * instantaneous_input_kbps: one instance for all connections, just before the decoder, so TLS
 * bytes count once decrypted, as Redis counts what its connRead returns.
 */
@ChannelHandler.Sharable
final class NetworkInputCounter extends ChannelInboundHandlerAdapter {
    private final ServerState.Stats stats;

    NetworkInputCounter(ServerState.Stats stats) {
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        stats.netInputBytes += ((ByteBuf) msg).readableBytes();
        stats.readsProcessed++;
        ctx.fireChannelRead(msg);
    }
}
