package io.kvd.server.command;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A client's pending replies: taken whole and in order, however large; cleared by the replay's client. */
class ReplyTest {
    private final Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT);

    @Test
    void clearDropsWhatWasWrittenAndLaterRepliesAreTakenAlone() {
        reply.ok();
        reply.integer(42);
        reply.clear();
        assertThat(reply.pendingBytes()).isZero();
        reply.pong();
        ByteBuf taken = reply.take();
        try {
            assertThat(taken.toString(StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
        } finally {
            taken.release();
        }
    }

    @Test
    void clearWithNothingWrittenLeavesNothingPending() {
        reply.clear();
        assertThat(reply.pendingBytes()).isZero();
        assertThat(reply.take()).isNull();
    }

    @Test
    void aReplyLargerThanAPieceIsTakenWholeAndInOrder() {
        int count = 3 * Reply.PIECE_BYTES / 8;
        StringBuilder expected = new StringBuilder("*").append(count).append("\r\n");
        reply.arrayHeader(count);
        for (int i = 0; i < count; i++) {
            reply.integer(i % 10);
            expected.append(':').append(i % 10).append("\r\n");
        }
        assertThat(reply.pendingBytes()).isEqualTo(expected.length());
        ByteBuf taken = reply.take();
        try {
            assertThat(taken.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
        } finally {
            taken.release();
        }
        assertThat(reply.pendingBytes()).isZero();
    }

    @Test
    void clearDropsFullPiecesToo() {
        for (int i = 0; i < Reply.PIECE_BYTES; i++) {
            reply.integer(1);
        }
        reply.clear();
        assertThat(reply.pendingBytes()).isZero();
        reply.ok();
        ByteBuf taken = reply.take();
        try {
            assertThat(taken.toString(StandardCharsets.US_ASCII)).isEqualTo("+OK\r\n");
        } finally {
            taken.release();
        }
    }
}
