package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/** Emits each complete {@link RespReply} from the inbound bytes, for Netty clients. */
public final class RespReplyDecoder extends ByteToMessageDecoder {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespReply reply = RespReplyParser.parse(in);
        if (reply != null) {
            out.add(reply);
        }
    }
}
