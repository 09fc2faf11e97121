package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kvd.codec.Inbound.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RespReplyParserTest {
    private static final String NESTED = "*3\r\n:1\r\n*2\r\n+OK\r\n$-1\r\n*0\r\n";

    @Test
    void simpleString() {
        assertThat(parseWhole("+OK\r\n")).isEqualTo(new RespReply.SimpleString("OK"));
    }

    @Test
    void error() {
        assertThat(parseWhole("-ERR unknown command\r\n")).isEqualTo(new RespReply.Error("ERR unknown command"));
    }

    @Test
    void integersIncludingTheExtremes() {
        assertThat(parseWhole(":0\r\n")).isEqualTo(new RespReply.Integer(0));
        assertThat(parseWhole(":-42\r\n")).isEqualTo(new RespReply.Integer(-42));
        assertThat(parseWhole(":-9223372036854775808\r\n")).isEqualTo(new RespReply.Integer(Long.MIN_VALUE));
        assertThat(parseWhole(":9223372036854775807\r\n")).isEqualTo(new RespReply.Integer(Long.MAX_VALUE));
    }

    @Test
    void bulkStringHoldsAnyBytes() {
        RespReply reply = parseWhole("$5\r\na\r\n\0b\r\n");
        assertThat(reply).isEqualTo(new RespReply.BulkString(bytes("a\r\n\0b")));
        assertThat(reply).hasToString("$\"a\\x0d\\x0a\\x00b\"");
        assertThat(parseWhole("$0\r\n\r\n")).isEqualTo(RespReply.BulkString.of(""));
    }

    @Test
    void nullBulkAndNullArray() {
        RespReply nullBulk = parseWhole("$-1\r\n");
        assertThat(nullBulk).isEqualTo(new RespReply.BulkString(null));
        assertThat(((RespReply.BulkString) nullBulk).utf8()).isNull();
        assertThat(parseWhole("*-1\r\n")).isEqualTo(new RespReply.Array(null));
    }

    @Test
    void nestedArrays() {
        assertThat(parseWhole(NESTED)).isEqualTo(RespReply.Array.of(
                new RespReply.Integer(1),
                RespReply.Array.of(new RespReply.SimpleString("OK"), new RespReply.BulkString(null)),
                RespReply.Array.of()));
    }

    @Test
    void everyIncompletePrefixReturnsNullAndConsumesNothing() {
        assertEveryPrefixIncomplete(NESTED);
    }

    @Test
    void parsesOneReplyAtATime() {
        ByteBuf in = Unpooled.wrappedBuffer(bytes("+OK\r\n:7\r\n$1\r\n"));
        try {
            assertThat(RespReplyParser.parse(in)).isEqualTo(new RespReply.SimpleString("OK"));
            assertThat(RespReplyParser.parse(in)).isEqualTo(new RespReply.Integer(7));
            assertThat(RespReplyParser.parse(in)).isNull();
            assertThat(in.readableBytes()).isEqualTo(4);
        } finally {
            in.release();
        }
    }

    @Test
    void hugeArrayCountWithFewBytesWaitsWithoutAllocating() {
        ByteBuf in = Unpooled.wrappedBuffer(bytes("*2000000000\r\n:1\r\n"));
        try {
            assertThat(RespReplyParser.parse(in)).isNull();
        } finally {
            in.release();
        }
    }

    @Test
    void nestingDeeperThanTheLimitIsRejected() {
        String deepest = "*1\r\n".repeat(RespReplyParser.MAX_DEPTH - 1) + "*0\r\n";
        assertThat(parseWhole(deepest)).isInstanceOf(RespReply.Array.class);
        ByteBuf in = Unpooled.wrappedBuffer(bytes("*1\r\n".repeat(RespReplyParser.MAX_DEPTH) + ":1\r\n"));
        try {
            assertThatThrownBy(() -> RespReplyParser.parse(in)).isInstanceOf(CorruptedFrameException.class);
        } finally {
            in.release();
        }
    }

    @Test
    void unknownTypeByteIsRejected() {
        ByteBuf in = Unpooled.wrappedBuffer(bytes("?1\r\n"));
        try {
            assertThatThrownBy(() -> RespReplyParser.parse(in)).isInstanceOf(CorruptedFrameException.class);
        } finally {
            in.release();
        }
    }

    @Test
    void replyDecoderEmitsEachReplyWhateverTheSplit() {
        byte[] whole = bytes("+OK\r\n" + NESTED + "$3\r\nfoo\r\n");
        for (int cut = 0; cut <= whole.length; cut++) {
            EmbeddedChannel channel = new EmbeddedChannel(new RespReplyDecoder());
            channel.writeInbound(Unpooled.wrappedBuffer(whole, 0, cut));
            channel.writeInbound(Unpooled.wrappedBuffer(whole, cut, whole.length - cut));
            List<Object> replies = new ArrayList<>();
            for (Object reply; (reply = channel.readInbound()) != null; ) {
                replies.add(reply);
            }
            assertThat(replies).as("cut at %d", cut).containsExactly(
                    new RespReply.SimpleString("OK"), parseWhole(NESTED), RespReply.BulkString.of("foo"));
            assertThat(channel.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void replyDecoderFailsOnCorruptInput() {
        EmbeddedChannel channel = new EmbeddedChannel(new RespReplyDecoder());
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(bytes(":12x\r\n"))))
                .isInstanceOf(DecoderException.class);
        channel.finishAndReleaseAll();
    }

    /** Every RESP3 type Redis 7.0 sends, as its DEBUG PROTOCOL sends them after HELLO 3. */
    private static final String RESP3 = "*9\r\n%1\r\n:1\r\n#t\r\n~2\r\n:0\r\n:1\r\n,3.141\r\n,-inf\r\n"
            + "(1234567999999999999999999999999999999\r\n_\r\n#f\r\n=29\r\ntxt:This is a verbatim\nstring\r\n"
            + ">2\r\n$4\r\nping\r\n:42\r\n";

    @Test
    void resp3Types() {
        assertThat(parseWhole(RESP3)).isEqualTo(RespReply.Array.of(
                new RespReply.Map(List.of(new RespReply.Integer(1), new RespReply.Boolean(true))),
                new RespReply.Set(List.of(new RespReply.Integer(0), new RespReply.Integer(1))),
                new RespReply.Double("3.141"), new RespReply.Double("-inf"),
                new RespReply.BigNumber("1234567999999999999999999999999999999"), new RespReply.Null(),
                new RespReply.Boolean(false), new RespReply.Verbatim("txt", "This is a verbatim\nstring"),
                new RespReply.Push(List.of(RespReply.BulkString.of("ping"), new RespReply.Integer(42)))));
    }

    @Test
    void anAttributeComesWithTheReplyAfterIt() {
        assertThat(parseWhole("|1\r\n+key-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n$4\r\nreal\r\n"))
                .isEqualTo(new RespReply.Attribute(List.of(new RespReply.SimpleString("key-popularity"),
                        RespReply.Array.of(RespReply.BulkString.of("key:123"), new RespReply.Integer(90))),
                        RespReply.BulkString.of("real")));
    }

    @Test
    void everyIncompletePrefixOfResp3ReturnsNull() {
        assertEveryPrefixIncomplete(RESP3);
    }

    @Test
    void malformedResp3IsRefused() {
        for (String bad : List.of("#x\r\n", "#tt\r\n", "_x\r\n", "%-1\r\n", "~-2\r\n", "=3\r\nabc\r\n",
                "%4611686018427387904\r\n")) {
            ByteBuf in = Unpooled.wrappedBuffer(bytes(bad));
            try {
                assertThatThrownBy(() -> RespReplyParser.parse(in)).as(bad).isInstanceOf(CorruptedFrameException.class);
            } finally {
                in.release();
            }
        }
    }

    /** Every proper prefix of {@code text} parses to nothing and consumes nothing. */
    private static void assertEveryPrefixIncomplete(String text) {
        byte[] whole = bytes(text);
        for (int length = 0; length < whole.length; length++) {
            ByteBuf in = Unpooled.wrappedBuffer(whole, 0, length);
            try {
                assertThat(RespReplyParser.parse(in)).as("prefix of %d bytes", length).isNull();
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
            }
        }
    }

    /** Parses {@code text}, which must be exactly one reply. */
    private static RespReply parseWhole(String text) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes(text));
        try {
            RespReply reply = RespReplyParser.parse(in);
            assertThat(in.isReadable()).as("bytes left after the reply").isFalse();
            return reply;
        } finally {
            in.release();
        }
    }
}
