package io.kvd.it;

import io.kvd.it.support.InteractiveRedisCli;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * redis-cli started without a command, on a terminal, as a user starts it: its handshake (COMMAND
 * DOCS, for help and hints) succeeds, the hints and help it builds from kvd's docs are Redis's, and
 * replies print as they do against redis-server 7.0.15.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisCliInteractiveTest {
    private static final String SET_ARGUMENTS =
            "[NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL]";

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void startsWithoutPrintingAnythingBeforeItsFirstPrompt() {
        try (InteractiveRedisCli cli = InteractiveRedisCli.start(kvd.port())) {
            assertThat(cli.beforeFirstPrompt()).isEmpty();
        }
    }

    @Test
    void asksForCommandDocsWhenItStarts() throws IOException {
        try (InteractiveRedisCli cli = InteractiveRedisCli.start(kvd.port());
             RespConnection connection = RespConnection.open(kvd.port())) {
            assertThat(connection.call("CLIENT", "LIST")).contains(" cmd=command|docs ");
        }
    }

    @Test
    void hintsTheArgumentsStillToType() {
        try (InteractiveRedisCli cli = InteractiveRedisCli.start(kvd.port())) {
            assertThat(cli.type("set interactive:k v").hint()).isEqualTo(" " + SET_ARGUMENTS);
            assertThat(cli.type("get interactive:k").hint()).isEqualTo(" ");
        }
    }

    @Test
    void helpShowsTheCommandsSyntaxAndSummary() {
        try (InteractiveRedisCli cli = InteractiveRedisCli.start(kvd.port())) {
            assertThat(cli.type("help set").output()).isEqualTo("""

                      SET key value %s
                      summary: Set the string value of a key
                      since: 1.0.0
                      group: string

                    """.formatted(SET_ARGUMENTS));
        }
    }

    @Test
    void repliesPrintAsOnATerminal() {
        try (InteractiveRedisCli cli = InteractiveRedisCli.start(kvd.port())) {
            assertThat(cli.type("set interactive:s hello").output()).isEqualTo("OK\n");
            assertThat(cli.type("get interactive:s").output()).isEqualTo("\"hello\"\n");
            assertThat(cli.type("get interactive:missing").output()).isEqualTo("(nil)\n");
            assertThat(cli.type("del interactive:s").output()).isEqualTo("(integer) 1\n");
            assertThat(cli.type("config get hz").output()).isEqualTo("1) \"hz\"\n2) \"10\"\n");
            assertThat(cli.type("foo bar").output())
                    .isEqualTo("(error) ERR unknown command 'foo', with args beginning with: 'bar' \n");
        }
    }
}
