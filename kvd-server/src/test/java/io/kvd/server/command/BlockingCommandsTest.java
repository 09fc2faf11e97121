package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocking pops on one loop without sockets: who is served, in what order, with what reply (the
 * bytes redis-server 7.0.15 sends), what the AOF gets, timeouts, CLIENT UNBLOCK, disconnects;
 * several-client replies against redis-server itself are in kvd-it's compat/blocking.txt.
 */
class BlockingCommandsTest {
    private static final String NULL_ARRAY = "*-1\r\n";
    private final CommandFixture kvd = new CommandFixture();
    private final Client first = kvd.newClient();
    private final Client second = kvd.newClient();

    private boolean blocked(Client client) {
        return client.isBlocked() && ((LoopbackConnection) client.connection()).isBlocked();
    }

    @Test
    void aClientWithNothingToPopBlocksWithoutAReplyAndAPushServesIt() {
        assertThat(kvd.callAs(first, "BLPOP", "q", "0")).isEmpty();
        assertThat(blocked(first)).isTrue();

        assertThat(kvd.call("RPUSH", "q", "a", "b")).isEqualTo(":2\r\n");

        assertThat(kvd.pending(first)).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\na\r\n");
        assertThat(blocked(first)).isFalse();
        assertThat(kvd.call("LRANGE", "q", "0", "-1")).isEqualTo("*1\r\n$1\r\nb\r\n");
    }

    @Test
    void clientsAreServedInTheOrderTheyBlocked() {
        kvd.callAs(second, "BRPOP", "q", "0");
        kvd.callAs(first, "BRPOP", "q", "0");

        kvd.call("RPUSH", "q", "a");
        assertThat(kvd.pending(second)).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\na\r\n");
        assertThat(blocked(first)).isTrue();

        kvd.call("RPUSH", "q", "b");
        assertThat(kvd.pending(first)).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\nb\r\n");
    }

    @Test
    void aServedPopIsLoggedAsThePopItDidAfterThePush() {
        kvd.server.commandLog().setEnabled(true);
        kvd.callAs(first, "BLPOP", "q", "0");
        kvd.callAs(second, "BZPOPMAX", "z", "0");
        kvd.call("RPUSH", "q", "a");
        kvd.call("ZADD", "z", "1", "m");

        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("RPUSH", "q", "a") + record("LPOP", "q")
                + record("ZADD", "z", "1", "m") + record("ZPOPMAX", "z"));
    }

    @Test
    void aPopThatNeedNotWaitIsLoggedAsTheNonBlockingForm() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("RPUSH", "q", "a", "b", "c");
        kvd.call("ZADD", "z", "1", "m", "2", "n");
        kvd.logged();

        kvd.call("BRPOP", "q", "0");
        kvd.call("BLMPOP", "0", "1", "q", "LEFT", "COUNT", "5");
        kvd.call("BZMPOP", "0", "1", "z", "MIN");
        kvd.call("RPUSH", "q", "x");
        kvd.call("BLMOVE", "q", "d", "left", "RIGHT", "0");
        kvd.call("BRPOPLPUSH", "d", "e", "0");

        assertThat(kvd.logged()).isEqualTo(record("RPOP", "q") + record("LPOP", "q", "2") + record("ZPOPMIN", "z", "1")
                + record("RPUSH", "q", "x") + record("LMOVE", "q", "d", "left", "RIGHT") + record("RPOPLPUSH", "d", "e"));
    }

    @Test
    void insideATransactionABlockingPopAnswersAsATimeoutAtOnce() {
        kvd.call("MULTI");
        kvd.call("BLPOP", "q", "0");
        kvd.call("BLMOVE", "q", "d", "LEFT", "LEFT", "0");
        kvd.call("BZPOPMIN", "z", "0");

        assertThat(kvd.call("EXEC")).isEqualTo("*3\r\n*-1\r\n$-1\r\n*-1\r\n");
        assertThat(kvd.client.isBlocked()).isFalse();
    }

    @Test
    void aTransactionServesBlockedClientsAfterItsLastCommand() {
        kvd.callAs(first, "BLPOP", "q", "0");
        kvd.call("MULTI");
        kvd.call("RPUSH", "q", "a");
        kvd.call("RPUSH", "q", "b");
        kvd.call("LPOP", "q");
        assertThat(blocked(first)).isTrue();

        kvd.call("EXEC");

        assertThat(kvd.pending(first)).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\nb\r\n");
    }

    @Test
    void aTimeoutAnswersANullArrayInDeadlineOrder() {
        kvd.callAs(first, "BLPOP", "q", "2");
        kvd.callAs(second, "BLMOVE", "q", "d", "LEFT", "LEFT", "0.5");
        Client forever = kvd.newClient();
        kvd.callAs(forever, "BZPOPMIN", "z", "0");

        kvd.server.blockedClients().timeOut(START_MS + 499);
        assertThat(blocked(second)).isTrue();
        kvd.server.blockedClients().timeOut(START_MS + 500);
        assertThat(kvd.pending(second)).isEqualTo(NULL_ARRAY);
        assertThat(blocked(first)).isTrue();

        kvd.server.blockedClients().timeOut(Long.MAX_VALUE);
        assertThat(kvd.pending(first)).isEqualTo(NULL_ARRAY);
        assertThat(blocked(forever)).isTrue();
        assertThat(kvd.server.blockedClientCount()).isEqualTo(1);
    }

    @Test
    void aTimeoutTooSmallForAMillisecondWaitsForeverAsInRedis() {
        kvd.callAs(first, "BLPOP", "q", "0.0009");

        kvd.server.blockedClients().timeOut(Long.MAX_VALUE);

        assertThat(blocked(first)).isTrue();
    }

    @Test
    void clientUnblockAnswersAsATimeoutOrWithTheUnblockedError() {
        kvd.callAs(first, "BLPOP", "q", "0");
        kvd.callAs(second, "BZMPOP", "0", "1", "z", "MIN");

        assertThat(kvd.call("CLIENT", "UNBLOCK", Long.toString(first.id()))).isEqualTo(":1\r\n");
        assertThat(kvd.pending(first)).isEqualTo(NULL_ARRAY);
        assertThat(kvd.call("CLIENT", "UNBLOCK", Long.toString(second.id()), "error")).isEqualTo(":1\r\n");
        assertThat(kvd.pending(second)).isEqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
        assertThat(kvd.call("CLIENT", "UNBLOCK", Long.toString(second.id()))).isEqualTo(":0\r\n");
    }

    @Test
    void aBlockedClientIsListedWithFlagBAndCountedByInfo() {
        kvd.callAs(first, "BLPOP", "q", "0");

        assertThat(kvd.call("CLIENT", "LIST")).contains("id=" + first.id() + " ").contains(" flags=b ");
        assertThat(kvd.call("INFO", "clients")).contains("blocked_clients:1\r\n");
        kvd.call("RPUSH", "q", "a");
        assertThat(kvd.call("INFO", "clients")).contains("blocked_clients:0\r\n");
    }

    @Test
    void aClientThatDisconnectsWhileBlockedLeavesNothingBehind() {
        kvd.callAs(first, "BLPOP", "q", "other", "0");
        kvd.callAs(second, "BLPOP", "q", "1");
        first.disconnected();
        second.disconnected();

        assertThat(kvd.server.blockedClientCount()).isZero();
        kvd.call("RPUSH", "q", "a");
        assertThat(kvd.call("LLEN", "q")).isEqualTo(":1\r\n");
        assertThat(kvd.databases).extracting("keyWatcher").isNull();
    }

    @Test
    void aBlmoveServedOntoAListAnotherClientWaitsOnServesThatClientToo() {
        kvd.callAs(first, "BLMOVE", "src", "dst", "RIGHT", "LEFT", "0");
        kvd.callAs(second, "BRPOP", "dst", "0");

        kvd.call("RPUSH", "src", "v");

        assertThat(kvd.pending(first)).isEqualTo("$1\r\nv\r\n");
        assertThat(kvd.pending(second)).isEqualTo("*2\r\n$3\r\ndst\r\n$1\r\nv\r\n");
        assertThat(kvd.call("EXISTS", "src", "dst")).isEqualTo(":0\r\n");
    }

    @Test
    void aBlmoveOntoAKeyOfAnotherTypeAnswersWrongTypeAndMovesNothing() {
        kvd.call("SET", "dst", "x");
        kvd.callAs(first, "BLMOVE", "src", "dst", "LEFT", "LEFT", "0");

        kvd.call("RPUSH", "src", "v");

        assertThat(kvd.pending(first)).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LRANGE", "src", "0", "-1")).isEqualTo("*1\r\n$1\r\nv\r\n");
    }

    @Test
    void aClientBlockedOnAListIsNotServedByAnotherTypeUnderItsKey() {
        kvd.callAs(first, "BLPOP", "k", "0");
        kvd.call("SADD", "k", "m");
        assertThat(blocked(first)).isTrue();
        kvd.call("DEL", "k");
        kvd.call("LPUSH", "k", "e");
        assertThat(kvd.pending(first)).isEqualTo("*2\r\n$1\r\nk\r\n$1\r\ne\r\n");
    }

    @Test
    void swapdbServesClientsWaitingOnKeysTheOtherDatabaseHolds() {
        kvd.call("SELECT", "1");
        kvd.call("RPUSH", "q", "from-1");
        kvd.callAs(first, "BLPOP", "q", "0");

        kvd.call("SWAPDB", "0", "1");

        assertThat(kvd.pending(first)).isEqualTo("*2\r\n$1\r\nq\r\n$6\r\nfrom-1\r\n");
    }

    @Test
    void tenThousandBlockedClientsAreServedAndTimedOutAndLeaveNothing() {
        for (int i = 0; i < 10_000; i++) {
            kvd.callAs(kvd.newClient(), "BLPOP", "q" + (i % 100), Integer.toString(1 + i % 7));
        }
        assertThat(kvd.server.blockedClientCount()).isEqualTo(10_000);
        kvd.call("RPUSH", "q5", "a", "b", "c");
        assertThat(kvd.server.blockedClientCount()).isEqualTo(9_997);

        kvd.server.blockedClients().timeOut(START_MS + 3_000);
        assertThat(kvd.server.blockedClientCount()).isBetween(1L, 9_000L);
        kvd.server.blockedClients().timeOut(START_MS + 7_000);
        assertThat(kvd.server.blockedClientCount()).isZero();
        assertThat(kvd.databases).extracting("keyWatcher").isNull();
    }
}
