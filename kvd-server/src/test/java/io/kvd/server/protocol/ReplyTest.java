package io.kvd.server.protocol;

import io.kvd.server.stats.ErrorStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client's pending replies: taken whole and in order, however large, whichever clients wrote in
 * between; cleared by the replay's client.
 */
class ReplyTest {
    private final Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT, new ErrorStats());

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

    @Test
    void repliesOfClientsWritingInTurnStayEachInItsOwnOrder() {
        Reply other = new Reply(UnpooledByteBufAllocator.DEFAULT, new ErrorStats());
        byte[] large = new byte[Reply.STAGED_VALUE_BYTES + 1];
        Arrays.fill(large, (byte) 'x');
        StringBuilder mine = new StringBuilder();
        StringBuilder theirs = new StringBuilder();
        for (int i = 0; i < 3_000; i++) {
            reply.integer(i);
            mine.append(':').append(i).append("\r\n");
            other.bulk(new byte[] {'a', 'b'});
            theirs.append("$2\r\nab\r\n");
            if (i % 100 == 0) {
                reply.bulk(large);
                mine.append('$').append(large.length).append("\r\n").append(new String(large, StandardCharsets.US_ASCII)).append("\r\n");
                other.ok();
                theirs.append("+OK\r\n");
            }
        }
        assertTaken(other, theirs.toString());
        Reply closed = new Reply(UnpooledByteBufAllocator.DEFAULT, new ErrorStats());
        closed.integer(7);
        closed.discard();
        reply.nullBulk();
        mine.append("$-1\r\n");
        assertThat(reply.pendingBytes()).isEqualTo(mine.length());
        assertTaken(reply, mine.toString());
    }

    private static void assertTaken(Reply reply, String expected) {
        ByteBuf taken = reply.take();
        try {
            assertThat(taken.toString(StandardCharsets.US_ASCII)).isEqualTo(expected);
        } finally {
            taken.release();
        }
    }

    @Test
    void resp3TypesDegradeToRespTwoAsRedisWritesThem() {
        assertThat(written(false)).isEqualTo("*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n:0\r\n*1\r\n$3\r\n1.5\r\n$-1\r\n*-1\r\n"
                + "$3\r\ninf\r\n$4\r\ntext\r\n*2\r\n$1\r\nm\r\n$1\r\n2\r\n*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nx\r\n");
        assertThat(written(true)).isEqualTo("%2\r\n$1\r\na\r\n#t\r\n$1\r\nb\r\n#f\r\n~1\r\n,1.5\r\n_\r\n_\r\n"
                + ",inf\r\n=8\r\ntxt:text\r\n*1\r\n*2\r\n$1\r\nm\r\n,2\r\n>3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nx\r\n");
    }

    /** The same replies written in RESP3 or RESP2. */
    private String written(boolean resp3) {
        reply.protocol(resp3 ? 3 : 2);
        reply.mapHeader(2);
        reply.bulk("a");
        reply.bool(true);
        reply.bulk("b");
        reply.bool(false);
        reply.setHeader(1);
        reply.doubleValue(1.5);
        reply.nullBulk();
        reply.nullArray();
        reply.doubleValue(Double.POSITIVE_INFINITY);
        reply.verbatim("text");
        reply.pairsHeader(1);
        reply.pairStart();
        reply.bulk("m");
        reply.doubleValue(2);
        ByteBuf frame = Unpooled.copiedBuffer("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nx\r\n",
                StandardCharsets.US_ASCII);
        reply.pushFrame(frame);
        ByteBuf taken = reply.take();
        try {
            return taken.toString(StandardCharsets.US_ASCII);
        } finally {
            taken.release();
        }
    }
}
