package io.kvd.server.command;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionCommandsTest {
    private final CommandFixture kvd = new CommandFixture();

    @Test
    void pingWithoutArgumentIsPong() {
        assertThat(kvd.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void pingWithMessageEchoesItAsBulk() {
        assertThat(kvd.call("ping", "hello")).isEqualTo("$5\r\nhello\r\n");
    }

    @Test
    void pingWithTwoArgumentsIsAnArityError() {
        assertThat(kvd.call("PING", "a", "b")).isEqualTo("-ERR wrong number of arguments for 'ping' command\r\n");
    }

    @Test
    void echoReturnsItsArgument() {
        assertThat(kvd.call("ECHO", "")).isEqualTo("$0\r\n\r\n");
    }

    @Test
    void quitRepliesOkAndMarksTheClientForClosing() {
        assertThat(kvd.call("QUIT")).isEqualTo("+OK\r\n");
        assertThat(kvd.client.isClosingAfterReply()).isTrue();
    }

    @Test
    void selectZeroIsOkAndAnyOtherIndexIsOutOfRange() {
        assertThat(kvd.call("SELECT", "0")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("SELECT", "1")).isEqualTo("-ERR DB index is out of range\r\n");
        assertThat(kvd.call("SELECT", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void unknownCommandNamesItselfAndItsFirstArguments() {
        assertThat(kvd.call("foo", "a", "b"))
                .isEqualTo("-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n");
    }

    @Test
    void commandNamesAreCaseInsensitive() {
        assertThat(kvd.call("pInG")).isEqualTo("+PONG\r\n");
    }
}
