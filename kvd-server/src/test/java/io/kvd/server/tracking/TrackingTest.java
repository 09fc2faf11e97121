package io.kvd.server.tracking;

import io.kvd.server.client.Client;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Client-side caching through the command table, each reply's bytes as redis-server 7.0.15 sends them. */
class TrackingTest {
    private static final String INVALIDATE_K = ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n";

    private final CommandFixture kvd = new CommandFixture();
    private final Client writer = kvd.newClient();

    private void resp3Tracking(String... options) {
        kvd.call("HELLO", "3");
        String[] argv = new String[3 + options.length];
        argv[0] = "CLIENT";
        argv[1] = "TRACKING";
        argv[2] = "ON";
        System.arraycopy(options, 0, argv, 3, options.length);
        assertThat(kvd.call(argv)).isEqualTo("+OK\r\n");
    }

    @Test
    void aKeyReadIsInvalidatedOnceWhenAnotherClientWritesIt() {
        resp3Tracking();
        kvd.call("GET", "k");
        kvd.callAs(writer, "SET", "k", "1");
        assertThat(kvd.pendingOutput(kvd.client)).isEqualTo(INVALIDATE_K);
        kvd.callAs(writer, "SET", "k", "2");
        assertThat(kvd.pendingOutput(kvd.client)).isEmpty();
    }

    @Test
    void aKeyNotReadIsNotInvalidated() {
        resp3Tracking();
        kvd.call("SET", "k", "1");
        kvd.callAs(writer, "SET", "k", "2");
        assertThat(kvd.pendingOutput(kvd.client)).isEmpty();
    }

    @Test
    void theClientsOwnWriteIsInvalidatedAfterItsReply() {
        resp3Tracking();
        kvd.call("GET", "k");
        assertThat(kvd.call("SET", "k", "1")).isEqualTo("+OK\r\n" + INVALIDATE_K);
    }

    @Test
    void insideExecTheInvalidationFollowsTheWholeReply() {
        resp3Tracking();
        kvd.call("GET", "k");
        kvd.call("MULTI");
        kvd.call("INCR", "k");
        kvd.call("GET", "k");
        assertThat(kvd.call("EXEC")).isEqualTo("*2\r\n:1\r\n$1\r\n1\r\n" + INVALIDATE_K);
    }

    @Test
    void noloopLeavesOutTheClientsOwnWrites() {
        resp3Tracking("NOLOOP");
        kvd.call("GET", "k");
        assertThat(kvd.call("SET", "k", "1")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("tracking_total_keys:0\r\n");
    }

    @Test
    void expiryInvalidatesTheKey() {
        resp3Tracking();
        kvd.callAs(writer, "SET", "k", "v", "PX", "10");
        kvd.call("GET", "k");
        kvd.setTime(CommandFixture.START_MS + 20);
        assertThat(kvd.callAs(writer, "GET", "k")).isEqualTo("$-1\r\n");
        assertThat(kvd.pendingOutput(kvd.client)).isEqualTo(INVALIDATE_K);
    }

    @Test
    void flushSendsANullInvalidationToEveryTrackingClient() {
        resp3Tracking();
        kvd.callAs(writer, "CLIENT", "TRACKING", "ON");
        assertThat(kvd.callAs(writer, "FLUSHALL")).isEqualTo("+OK\r\n");
        assertThat(kvd.pendingOutput(kvd.client)).isEqualTo(">2\r\n$10\r\ninvalidate\r\n_\r\n");
    }

    @Test
    void flushdbOfTheTrackingClientItselfFollowsItsReply() {
        resp3Tracking();
        kvd.call("GET", "k");
        assertThat(kvd.call("FLUSHDB")).isEqualTo("+OK\r\n>2\r\n$10\r\ninvalidate\r\n_\r\n");
        assertThat(kvd.server.tracking().totalKeys()).isZero();
    }

    @Test
    void resp2RedirectionGoesToTheSubscriberAsAMessage() {
        kvd.callAs(writer, "SUBSCRIBE", "__redis__:invalidate");
        kvd.call("CLIENT", "TRACKING", "ON", "REDIRECT", String.valueOf(writer.id()));
        kvd.call("GET", "k");
        kvd.call("SET", "k", "1");
        assertThat(kvd.pendingOutput(writer))
                .isEqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$1\r\nk\r\n");
        kvd.call("FLUSHDB");
        assertThat(kvd.pendingOutput(writer)).isEqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n");
    }

    @Test
    void aRedirectionToAGoneClientIsReportedToAResp3Client() {
        Client gone = kvd.newClient();
        resp3Tracking("REDIRECT", String.valueOf(gone.id()));
        kvd.call("GET", "k");
        kvd.server.clients().remove(gone.id());
        gone.disconnected();
        kvd.callAs(writer, "SET", "k", "1");
        assertThat(kvd.pendingOutput(kvd.client))
                .isEqualTo(">2\r\n$21\r\ntracking-redir-broken\r\n:" + gone.id() + "\r\n");
        assertThat(kvd.call("CLIENT", "TRACKINGINFO")).contains("~2\r\n$2\r\non\r\n$15\r\nbroken_redirect\r\n");
    }

    @Test
    void bcastSendsEveryKeyUnderItsPrefixes() {
        resp3Tracking("BCAST", "PREFIX", "user:");
        kvd.callAs(writer, "MSET", "user:1", "a", "order:1", "b");
        assertThat(kvd.pendingOutput(kvd.client)).isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$6\r\nuser:1\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("tracking_total_prefixes:1\r\n");
    }

    @Test
    void optinTracksOnlyTheCommandAfterCachingYes() {
        resp3Tracking("OPTIN");
        kvd.call("GET", "a");
        kvd.call("CLIENT", "CACHING", "YES");
        kvd.call("GET", "b");
        kvd.call("GET", "c");
        kvd.callAs(writer, "MSET", "a", "1", "b", "1", "c", "1");
        assertThat(kvd.pendingOutput(kvd.client)).isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nb\r\n");
    }

    @Test
    void theTableLimitInvalidatesKeysUntilTheTableIsUnderIt() {
        resp3Tracking();
        kvd.call("MGET", "a", "b", "k");
        kvd.call("CONFIG", "SET", "tracking-table-max-keys", "1");
        kvd.server.tracking().limitUsedSlots();
        assertThat(kvd.pendingOutput(kvd.client))
                .isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\na\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nb\r\n");
        assertThat(kvd.server.tracking().totalKeys()).isEqualTo(1);
    }

    @Test
    void trackingInfoIsAFlatArrayInResp2() {
        assertThat(kvd.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "b", "PREFIX", "a", "NOLOOP"))
                .isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "TRACKINGINFO")).isEqualTo("*6\r\n$5\r\nflags\r\n*3\r\n$2\r\non\r\n$5\r\nbcast\r\n"
                + "$6\r\nnoloop\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n");
        assertThat(kvd.call("CLIENT", "GETREDIR")).isEqualTo(":0\r\n");
        assertThat(kvd.call("CLIENT", "INFO")).contains(" flags=tB ").contains(" redir=0 ");
    }

    @Test
    void overlappingPrefixesAreRefused() {
        assertThat(kvd.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "FOOBAR", "PREFIX", "FOO"))
                .isEqualTo("-ERR Prefix 'FOOBAR' overlaps with another provided prefix 'FOO'. "
                        + "Prefixes for a single client must not overlap.\r\n");
        assertThat(kvd.call("CLIENT", "GETREDIR")).isEqualTo(":-1\r\n");
    }

    @Test
    void resetTurnsTrackingOff() {
        kvd.call("CLIENT", "TRACKING", "ON");
        kvd.call("RESET");
        assertThat(kvd.call("CLIENT", "GETREDIR")).isEqualTo(":-1\r\n");
        assertThat(kvd.call("INFO", "clients")).contains("tracking_clients:0\r\n");
    }
}
