package io.kvd.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any bytes, cut anywhere: the decoder emits commands and at most one protocol error, last, and
 * never throws or copies more argument bytes than it was given. Replays the corpus in
 * src/test/resources on every build; {@code JAZZER_FUZZ=1 mvn test -pl kvd-codec
 * -Dtest=RespDecoderFuzzTest} fuzzes for new inputs.
 */
class RespDecoderFuzzTest {
    /** Small enough that fuzzed bulk lengths reach the limit. */
    private static final long MAX_BULK = 4096;

    @FuzzTest(maxDuration = "60s")
    void anyInputYieldsCommandsThenAtMostOneProtocolError(FuzzedDataProvider data) {
        List<byte[]> pieces = new ArrayList<>();
        long fed = 0;
        while (data.remainingBytes() > 0) {
            byte[] piece = data.consumeBytes(data.consumeInt(1, 64));
            pieces.add(piece);
            fed += piece.length;
        }
        RespDecoder decoder = new RespDecoder(() -> MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        List<Object> decoded = new ArrayList<>();
        try {
            for (byte[] piece : pieces) {
                channel.writeInbound(Unpooled.wrappedBuffer(piece));
                for (Object message; (message = channel.readInbound()) != null; ) {
                    decoded.add(message);
                }
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        for (int i = 0; i < decoded.size(); i++) {
            Object message = decoded.get(i);
            if (message instanceof RespProtocolError error) {
                assertThat(error.message()).startsWith("ERR Protocol error: ");
                assertThat(i).as("a protocol error is the last thing decoded").isEqualTo(decoded.size() - 1);
            } else {
                assertThat(((byte[][]) message).length).as("arguments in a command").isPositive();
            }
        }
        assertThat(decoder.copiedArgumentBytes()).isLessThanOrEqualTo(fed);
    }
}
