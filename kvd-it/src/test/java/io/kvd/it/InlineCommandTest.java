package io.kvd.it;

import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Commands typed as text lines (telnet style), over a raw socket; replies as redis-server 7.0.15 sends them. */
@ExtendWith(ServerLogsOnFailure.class)
class InlineCommandTest {
    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void pingIsPong() throws IOException {
        assertThat(replies("PING\r\n", 1)).isEqualTo("+PONG\r\n");
    }

    @Test
    void doubleQuotedArgumentKeepsItsSpace() throws IOException {
        assertThat(replies("SET inline:a \"hello world\"\r\nGET inline:a\r\n", 2))
                .isEqualTo("+OK\r\n$11\r\nhello world\r\n");
    }

    @Test
    void doubleQuotesUnderstandBackslashEscapes() throws IOException {
        assertThat(replies("ECHO \"tab\\there \\x41\"\r\n", 1)).isEqualTo("$10\r\ntab\there A\r\n");
    }

    @Test
    void singleQuotesUnderstandOnlyEscapedQuote() throws IOException {
        assertThat(replies("ECHO 'it\\'s \\n'\r\n", 1)).isEqualTo("$7\r\nit's \\n\r\n");
    }

    @Test
    void lineFeedAloneEndsALine() throws IOException {
        assertThat(replies("PING\nPING a\n", 2)).isEqualTo("+PONG\r\n$1\r\na\r\n");
    }

    @Test
    void blankLinesGetNoReply() throws IOException {
        assertThat(replies("\r\n   \r\nPING\r\n", 1)).isEqualTo("+PONG\r\n");
    }

    @Test
    void unbalancedQuotesAreAProtocolErrorThatClosesTheConnection() throws IOException {
        try (RespConnection connection = RespConnection.open(kvd.port())) {
            connection.sendRaw("ECHO \"abc\r\n");
            assertThat(new String(connection.readReply(), StandardCharsets.UTF_8))
                    .isEqualTo("-ERR Protocol error: unbalanced quotes in request\r\n");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    /** Sends {@code text} in one write and returns the next {@code count} replies, concatenated. */
    private static String replies(String text, int count) throws IOException {
        try (RespConnection connection = RespConnection.open(kvd.port())) {
            connection.sendRaw(text);
            StringBuilder replies = new StringBuilder();
            for (int i = 0; i < count; i++) {
                replies.append(new String(connection.readReply(), StandardCharsets.UTF_8));
            }
            return replies.toString();
        }
    }
}
