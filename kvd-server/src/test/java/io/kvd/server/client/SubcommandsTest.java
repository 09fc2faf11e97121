package io.kvd.server.client;

import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SubcommandsTest {
    private final CommandFixture kvd = new CommandFixture();

    @Test
    void subcommandNamesAreCaseInsensitive() {
        assertThat(kvd.call("client", "iD")).isEqualTo(":1\r\n");
    }

    @Test
    void unknownSubcommandIsQuotedAsGivenAndCutAt128Characters() {
        String name = "x".repeat(200);
        assertThat(kvd.call("CONFIG", name))
                .isEqualTo("-ERR unknown subcommand '" + "x".repeat(128) + "'. Try CONFIG HELP.\r\n");
    }

    @Test
    void helpTakesNoArguments() {
        assertThat(kvd.call("CONFIG", "HELP", "x")).isEqualTo("-ERR wrong number of arguments for 'config|help' command\r\n");
    }

    @Test
    void theRunningSubcommandIsTheClientsLastCommand() {
        kvd.call("CONFIG", "GET", "hz");
        assertThat(kvd.client.lastCommand()).isEqualTo("config|get");
    }

    @Test
    void containerWithoutSubcommandIsAnArityError() {
        assertThat(kvd.call("CONFIG")).isEqualTo("-ERR wrong number of arguments for 'config' command\r\n");
    }
}
