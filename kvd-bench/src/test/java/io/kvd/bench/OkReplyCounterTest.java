package io.kvd.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OkReplyCounterTest {

    @Test
    void countsOkRepliesWhereverTheReadsSplitThem() throws IOException {
        byte[] replies = "+OK\r\n+OK\r\n+OK\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int split = 0; split <= replies.length; split++) {
            OkReplyCounter counter = new OkReplyCounter();
            counter.consume(replies, split);
            byte[] rest = new byte[replies.length - split];
            System.arraycopy(replies, split, rest, 0, rest.length);
            counter.consume(rest, rest.length);

            assertThat(counter.count()).as("split at %d", split).isEqualTo(3);
        }
    }

    @Test
    void aPartOfAReplyIsNotCounted() throws IOException {
        OkReplyCounter counter = new OkReplyCounter();
        counter.consume("+OK\r\n+OK\r".getBytes(StandardCharsets.US_ASCII), 9);

        assertThat(counter.count()).isOne();
    }

    @Test
    void anErrorReplyIsQuotedWithItsPositionOnceItsLineEnds() throws IOException {
        OkReplyCounter counter = new OkReplyCounter();
        byte[] first = "+OK\r\n+OK\r\n-OOM command not".getBytes(StandardCharsets.US_ASCII);
        counter.consume(first, first.length);
        byte[] rest = " allowed\r\n+OK\r\n".getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> counter.consume(rest, rest.length))
                .isInstanceOf(IOException.class).hasMessage("reply 3 is -OOM command not allowed, not +OK");
    }

    @Test
    void aReplyThatStartsLikeOkButIsNotIsQuotedWhole() {
        byte[] replies = "+OKAY\r\n".getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> new OkReplyCounter().consume(replies, replies.length))
                .isInstanceOf(IOException.class).hasMessage("reply 1 is +OKAY, not +OK");
    }
}
