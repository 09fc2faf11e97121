package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;

import java.util.List;

/** Emits each complete {@link RespReply} from the inbound bytes, for Netty clients. */
public final class RespReplyDecoder extends ByteToMessageDecoder {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        RespReply reply;
        try {
            reply = RespReplyParser.parse(in);
        } catch (CorruptedFrameException e) {
            // Nothing after corrupt bytes can be framed; dropping them keeps the error from recurring on close.
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (reply != null) {
            out.add(reply);
        }
    }
}
