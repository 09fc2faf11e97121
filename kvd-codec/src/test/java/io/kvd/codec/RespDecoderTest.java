package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kvd.codec.Inbound.args;
import static io.kvd.codec.Inbound.bytes;
import static io.kvd.codec.Inbound.decode;
import static io.kvd.codec.Inbound.decodeCutAt;
import static org.assertj.core.api.Assertions.assertThat;

class RespDecoderTest {
    private static final String SET_MULTIBULK = "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nva\r\nl\r\n";
    private static final String SET_INLINE = "SET key value\r\n";
    private static final String SET_QUOTED_INLINE = "SET 'k\\'ey' \"v\\x41\\n\\\"l\"\r\n";

    @Test
    void multibulkFrameDecodesToItsArguments() {
        assertThat(decode(SET_MULTIBULK)).containsExactly(args("SET", "key", "va\r\nl"));
    }

    @Test
    void multibulkFrameDecodesTheSameWhateverTheSplit() {
        assertSameResultForEverySplit(SET_MULTIBULK, args("SET", "key", "va\r\nl"));
    }

    @Test
    void inlineFrameDecodesTheSameWhateverTheSplit() {
        assertSameResultForEverySplit(SET_INLINE, args("SET", "key", "value"));
    }

    @Test
    void quotedInlineFrameDecodesTheSameWhateverTheSplit() {
        assertSameResultForEverySplit(SET_QUOTED_INLINE, args("SET", "k'ey", "vA\n\"l"));
    }

    @Test
    void bytesToProgressInsideABulkAreTheRestOfItsDataAndCrlf() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);

        channel.writeInbound(Unpooled.wrappedBuffer(bytes("*3\r\n$3\r\nSE")));
        assertThat(decoder.bytesToProgress()).isEqualTo(3);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("T\r\n$11\r\n")));
        assertThat(decoder.bytesToProgress()).isEqualTo(13);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void bytesToProgressInAHeaderLineOrBetweenFramesAreOne() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        assertThat(decoder.bytesToProgress()).isEqualTo(1);

        channel.writeInbound(Unpooled.wrappedBuffer(bytes("*3\r\n$3")));
        assertThat(decoder.bytesToProgress()).isEqualTo(1);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n")));
        assertThat(Inbound.readAll(channel)).containsExactly(args("SET", "k", "v"));
        assertThat(decoder.bytesToProgress()).isEqualTo(1);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void pipelinedFramesInOneBufferDecodeInOrder() {
        assertThat(decode("*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nPING\r\n"))
                .containsExactly(args("PING"), args("GET", "k"), args("PING"));
    }

    @Test
    void inlineAndMultibulkFramesMixInOrder() {
        assertThat(decode("PING\r\n*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\nECHO there\n*1\r\n$4\r\nQUIT\r\n"))
                .containsExactly(args("PING"), args("ECHO", "hi"), args("ECHO", "there"), args("QUIT"));
    }

    @Test
    void decodedBytesCountWholeFramesOnlyAndLeaveAPartialFrameOut() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);

        channel.writeInbound(Unpooled.wrappedBuffer(bytes(SET_MULTIBULK + "*0\r\n" + SET_INLINE + "*1\r\n$4\r\nPI")));

        assertThat(decoder.decodedBytes()).isEqualTo(SET_MULTIBULK.length() + "*0\r\n".length() + SET_INLINE.length());
        assertThat(channel.finishAndReleaseAll()).isTrue();
    }

    @Test
    void withAutoReadOffAnUnpausedDecoderAsksForMoreOfAPartialFrameButAPausedOneNeverAsks() {
        AtomicInteger readRequests = new AtomicInteger();
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                readRequests.incrementAndGet();
                ctx.read();
            }
        }, decoder);
        channel.config().setAutoRead(false);
        readRequests.set(0);

        channel.writeInbound(Unpooled.wrappedBuffer(bytes("PI")));
        assertThat(readRequests).hasValue(1);

        decoder.pause();
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("NG\r\n")));
        assertThat(readRequests).hasValue(1);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void emptyMultibulksAreConsumedWithoutACommand() {
        assertThat(decode("*0\r\n*-5\r\n*1\r\n$4\r\nPING\r\n")).containsExactly(args("PING"));
    }

    @Test
    void emptyAndBlankInlineLinesAreConsumedWithoutACommand() {
        assertThat(decode("\r\n\n \t \r\nPING\r\n")).containsExactly(args("PING"));
    }

    @Test
    void emptyBulkIsAnEmptyArgument() {
        assertThat(decode("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n")).containsExactly(args("ECHO", ""));
    }

    @Test
    void bytesAfterBulkDataAreSkippedUncheckedLikeRedis() {
        assertThat(decode("*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n")).containsExactly(args("PING"), args("PING"));
    }

    @Test
    void byteAfterHeaderCarriageReturnIsSkippedUncheckedLikeRedis() {
        assertThat(decode("*1\rX$4\rXPING\r\n")).containsExactly(args("PING"));
    }

    @Test
    void partialFrameIsNotConsumedAndWaitsForTheRest() {
        EmbeddedChannel channel = new EmbeddedChannel(new RespDecoder(() -> Inbound.MAX_BULK));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("*2\r\n$3\r\nGET\r\n$1\r")));
        assertThat(channel.<Object>readInbound()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("\nk\r\n")));
        assertThat(Inbound.readAll(channel)).containsExactly(args("GET", "k"));
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void eightMegabyteValueInFourKilobytePiecesIsCopiedOnce() {
        int valueLength = 8 * 1024 * 1024;
        byte[] value = new byte[valueLength];
        Arrays.fill(value, (byte) 'v');
        ByteBuf frame = Unpooled.buffer();
        RespWriter.writeCommand(frame, bytes("SET"), bytes("key"), value);
        byte[] input = new byte[frame.readableBytes()];
        frame.readBytes(input);
        frame.release();

        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        for (int start = 0; start < input.length; start += 4096) {
            channel.writeInbound(Unpooled.wrappedBuffer(input, start, Math.min(4096, input.length - start)));
        }
        byte[][] command = channel.readInbound();

        assertThat(command).hasNumberOfRows(3);
        assertThat(command[2]).isEqualTo(value);
        assertThat(decoder.copiedArgumentBytes()).isEqualTo("SET".length() + "key".length() + valueLength);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void hugeMultibulkCountAloneAllocatesNothingLarge() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        EmbeddedChannel channel = new EmbeddedChannel(new RespDecoder(() -> Inbound.MAX_BULK));
        ByteBuf header = Unpooled.wrappedBuffer(bytes("*1000000000\r\n$3\r\nGET\r\n"));
        long threadId = Thread.currentThread().getId();

        long before = threads.getThreadAllocatedBytes(threadId);
        channel.writeInbound(header);
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertThat(channel.<Object>readInbound()).isNull();
        assertThat(allocated).isLessThan(1024 * 1024);
        channel.finishAndReleaseAll();
    }

    @Test
    void commandWithManyArgumentsGrowsItsArgumentTable() {
        StringBuilder frame = new StringBuilder("*3000\r\n");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            frame.append("$").append(String.valueOf(i).length()).append("\r\n").append(i).append("\r\n");
            expected.add(String.valueOf(i));
        }
        assertThat(decode(frame + "PING\r\n")).containsExactly(expected, args("PING"));
    }

    @Test
    void pausedDecoderEmitsNothingUntilResumedThenEmitsWhatIsBufferedWithoutARead() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        List<String> events = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                events.add(Inbound.strings((byte[][]) msg).get(1));
                decoder.pause();
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                events.add("readComplete");
            }
        });
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("ECHO 1\r\nECHO 2\r\nECHO 3\r\n")));
        assertThat(events).containsExactly("1", "readComplete");

        decoder.resume();
        assertThat(events).containsExactly("1", "readComplete", "2", "readComplete");

        decoder.resume();
        decoder.resume();
        assertThat(events).containsExactly("1", "readComplete", "2", "readComplete", "3", "readComplete");
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void pausedDecoderResumesAllBufferedCommandsAtOnce() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        decoder.pause();
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("ECHO 1\r\nECHO 2\r\nECHO 3\r\n*1\r\n$4\r\nPI")));
        assertThat(channel.<Object>readInbound()).isNull();

        decoder.resume();

        assertThat(Inbound.readAll(channel)).containsExactly(args("ECHO", "1"), args("ECHO", "2"), args("ECHO", "3"));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("NG\r\n")));
        assertThat(Inbound.readAll(channel)).containsExactly(args("PING"));
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void resumeWithNothingBufferedFiresNothing() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        List<Object> events = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                events.add("readComplete");
            }
        });
        decoder.pause();
        decoder.resume();
        assertThat(events).isEmpty();
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void pauseAndResumeWithinOneCommandLetsTheReadGoOn() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                decoder.pause();
                decoder.resume();
                ctx.fireChannelRead(msg);
            }
        });
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("ECHO 1\r\nECHO 2\r\nECHO 3\r\n")));
        assertThat(Inbound.readAll(channel)).containsExactly(args("ECHO", "1"), args("ECHO", "2"), args("ECHO", "3"));
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    private static void assertSameResultForEverySplit(String frame, List<String> expected) {
        byte[] input = bytes(frame);
        for (int cut = 0; cut <= input.length; cut++) {
            assertThat(decodeCutAt(input, cut)).as("cut at %d", cut).containsExactly(expected);
        }
        int[] everyByte = new int[input.length - 1];
        Arrays.setAll(everyByte, i -> i + 1);
        assertThat(decodeCutAt(input, everyByte)).as("byte by byte").containsExactly(expected);
    }
}
