package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** requirepass, AUTH and HELLO AUTH, with Redis 7.0's replies. */
class AuthenticationTest {
    private static final String NOAUTH = "-NOAUTH Authentication required.\r\n";
    private static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private Client clientOfPasswordProtectedServer() {
        kvd.config.set("requirepass", "secret");
        return kvd.newClient();
    }

    @Test
    void withoutPasswordEveryClientIsAuthenticated() {
        assertThat(kvd.client.isAuthenticated()).isTrue();
        assertThat(kvd.call("GET", "k")).isEqualTo("$-1\r\n");
    }

    @Test
    void authWithOnlyAPasswordWhenNoneIsConfiguredIsAnError() {
        assertThat(kvd.call("AUTH", "x")).isEqualTo("-ERR AUTH <password> called without any password configured "
                + "for the default user. Are you sure your configuration is correct?\r\n");
    }

    @Test
    void authAsDefaultUserWithAnyPasswordSucceedsWhenNoneIsConfigured() {
        assertThat(kvd.call("AUTH", "default", "x")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("AUTH", "bob", "x")).isEqualTo(WRONGPASS);
    }

    @Test
    void commandsBeforeAuthAreRefusedButUnknownCommandsAndArityErrorsComeFirst() {
        Client c = clientOfPasswordProtectedServer();
        assertThat(kvd.callAs(c, "GET", "k")).isEqualTo(NOAUTH);
        assertThat(kvd.callAs(c, "PING")).isEqualTo(NOAUTH);
        assertThat(kvd.callAs(c, "GET")).isEqualTo("-ERR wrong number of arguments for 'get' command\r\n");
        assertThat(kvd.callAs(c, "nosuch")).startsWith("-ERR unknown command 'nosuch'");
    }

    @Test
    void wrongPasswordIsWrongpassAndTheRightOneAuthenticates() {
        Client c = clientOfPasswordProtectedServer();
        assertThat(kvd.callAs(c, "AUTH", "wrong")).isEqualTo(WRONGPASS);
        assertThat(kvd.callAs(c, "AUTH", "default", "wrong")).isEqualTo(WRONGPASS);
        assertThat(kvd.callAs(c, "AUTH", "bob", "secret")).isEqualTo(WRONGPASS);
        assertThat(kvd.callAs(c, "AUTH", "secret")).isEqualTo("+OK\r\n");
        assertThat(kvd.callAs(c, "GET", "k")).isEqualTo("$-1\r\n");
    }

    @Test
    void authAsDefaultUserWithThePasswordAuthenticates() {
        Client c = clientOfPasswordProtectedServer();
        assertThat(kvd.callAs(c, "AUTH", "default", "secret")).isEqualTo("+OK\r\n");
        assertThat(c.isAuthenticated()).isTrue();
    }

    @Test
    void authWithTooManyArgumentsIsASyntaxError() {
        assertThat(kvd.call("AUTH", "a", "b", "c")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void quitIsAllowedBeforeAuth() {
        Client c = clientOfPasswordProtectedServer();
        assertThat(kvd.callAs(c, "QUIT")).isEqualTo("+OK\r\n");
    }

    @Test
    void helloBeforeAuthMustCarryCredentials() {
        Client c = clientOfPasswordProtectedServer();
        assertThat(kvd.callAs(c, "HELLO", "2")).isEqualTo("-NOAUTH HELLO must be called with the client already "
                + "authenticated, otherwise the HELLO AUTH <user> <pass> option can be used to authenticate the "
                + "client and select the RESP protocol version at the same time\r\n");
        assertThat(kvd.callAs(c, "HELLO", "2", "AUTH", "default", "wrong")).isEqualTo(WRONGPASS);
        assertThat(kvd.callAs(c, "HELLO", "2", "AUTH", "default", "secret")).startsWith("*14\r\n$6\r\nserver\r\n");
        assertThat(c.isAuthenticated()).isTrue();
    }

    @Test
    void settingAPasswordLaterDoesNotLockOutConnectedClients() {
        kvd.config.set("requirepass", "secret");
        assertThat(kvd.call("GET", "k")).isEqualTo("$-1\r\n");
    }
}
