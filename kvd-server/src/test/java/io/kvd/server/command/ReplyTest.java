package io.kvd.server.command;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** What the replay's client does with replies nobody reads. */
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
}
