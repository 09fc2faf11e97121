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
    void selectTakesTheSixteenDatabasesAndRefusesOthers() {
        assertThat(kvd.call("SELECT", "15")).isEqualTo("+OK\r\n");
        assertThat(kvd.client.db()).isEqualTo(15);
        assertThat(kvd.call("SELECT", "16")).isEqualTo("-ERR DB index is out of range\r\n");
        assertThat(kvd.call("SELECT", "-1")).isEqualTo("-ERR DB index is out of range\r\n");
        assertThat(kvd.call("SELECT", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("SELECT", "2147483648"))
                .isEqualTo("-ERR value is out of range, value must between -2147483648 and 2147483647\r\n");
        assertThat(kvd.client.db()).isEqualTo(15);
    }

    @Test
    void keysOfOneDatabaseAreInvisibleFromAnother() {
        kvd.call("SET", "k", "zero");
        kvd.call("SELECT", "3");
        assertThat(kvd.call("GET", "k")).isEqualTo("$-1\r\n");
        kvd.call("SET", "k", "three");
        kvd.call("SELECT", "0");
        assertThat(kvd.call("GET", "k")).isEqualTo("$4\r\nzero\r\n");
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

    @Test
    void helloWithoutArgumentsDescribesTheServerAsRedisInRespTwo() {
        assertThat(kvd.call("HELLO")).isEqualTo("*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n"
                + "$5\r\nproto\r\n:2\r\n$2\r\nid\r\n:1\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n"
                + "$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n");
    }

    @Test
    void helloTwoRepliesLikeHelloWithoutArguments() {
        assertThat(kvd.call("HELLO", "2")).isEqualTo(kvd.call("HELLO"));
    }

    @Test
    void helloThreeSwitchesToRespThreeAndAnswersInIt() {
        assertThat(kvd.call("HELLO", "3")).isEqualTo("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n"
                + "$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:1\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n"
                + "$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n");
        assertThat(kvd.call("GET", "missing")).isEqualTo("_\r\n");
        assertThat(kvd.call("HELLO")).startsWith("%7\r\n").contains("proto\r\n:3\r\n");
        assertThat(kvd.call("RESET")).isEqualTo("+RESET\r\n");
        assertThat(kvd.call("GET", "missing")).isEqualTo("$-1\r\n");
    }

    @Test
    void otherProtocolVersionsAreRefused() {
        assertThat(kvd.call("HELLO", "1")).isEqualTo("-NOPROTO unsupported protocol version\r\n");
        assertThat(kvd.call("HELLO", "4")).isEqualTo("-NOPROTO unsupported protocol version\r\n");
    }

    @Test
    void helloWithANonIntegerVersionIsAnError() {
        assertThat(kvd.call("HELLO", "x")).isEqualTo("-ERR Protocol version is not an integer or out of range\r\n");
    }

    @Test
    void helloAuthenticatesTheDefaultUserWithAnyPassword() {
        assertThat(kvd.call("HELLO", "2", "AUTH", "default", "secret")).startsWith("*14\r\n");
    }

    @Test
    void helloAuthWithAnotherUserIsWrongpass() {
        assertThat(kvd.call("HELLO", "2", "AUTH", "alice", "secret"))
                .isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n");
    }

    @Test
    void helloSetnameNamesTheConnection() {
        kvd.call("HELLO", "2", "SETNAME", "worker");
        assertThat(kvd.call("CLIENT", "GETNAME")).isEqualTo("$6\r\nworker\r\n");
    }

    @Test
    void helloSetnameRejectsNamesWithSpaces() {
        assertThat(kvd.call("HELLO", "2", "SETNAME", "a b"))
                .isEqualTo("-ERR Client names cannot contain spaces, newlines or special characters.\r\n");
    }

    @Test
    void helloOptionWithoutItsArgumentsIsASyntaxError() {
        assertThat(kvd.call("HELLO", "2", "AUTH", "default")).isEqualTo("-ERR Syntax error in HELLO option 'AUTH'\r\n");
        assertThat(kvd.call("HELLO", "2", "FOO")).isEqualTo("-ERR Syntax error in HELLO option 'FOO'\r\n");
    }
}
