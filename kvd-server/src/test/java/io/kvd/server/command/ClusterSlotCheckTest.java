package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's slot check on node a of {@link ClusterFixture}, with Redis 7.0's replies. */
class ClusterSlotCheckTest {
    private static final String CROSSSLOT = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";

    @TempDir
    Path dir;
    private CommandFixture kvd;

    @BeforeEach
    void startNodeA() {
        kvd = ClusterFixture.nodeA(dir);
    }

    @Test
    void keyOfASlotThisNodeOwnsIsServed() {
        assertThat(kvd.call("SET", "bar", "v")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "bar")).isEqualTo("$1\r\nv\r\n");
    }

    @Test
    void keyOfAnotherNodesSlotIsMovedToItsOwner() {
        assertThat(kvd.call("GET", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
    }

    @Test
    void movedWriteChangesNothing() {
        assertThat(kvd.call("SET", "foo", "v")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void anEmptyHashTagHashesTheWholeKey() {
        assertThat(kvd.call("GET", "{}foo")).isEqualTo("-MOVED 9500 127.0.0.1:7002\r\n");
    }

    @Test
    void keysOfTwoSlotsOfThisNodeAreCrossslot() {
        assertThat(kvd.call("MGET", "bar", "hello")).isEqualTo(CROSSSLOT);
    }

    @Test
    void crossslotComesBeforeMoved() {
        assertThat(kvd.call("MGET", "foo", "bar")).isEqualTo(CROSSSLOT);
    }

    @Test
    void keysSharingAHashTagShareTheSlot() {
        assertThat(kvd.call("MSET", "{bar}1", "a", "{bar}2", "b")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("MGET", "{bar}1", "{bar}2", "bar")).isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$-1\r\n");
    }

    @Test
    void theSameKeyTwiceIsOneSlot() {
        assertThat(kvd.call("MGET", "foo", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
    }

    @Test
    void msetChecksItsKeysNotItsValues() {
        assertThat(kvd.call("MSET", "bar", "foo", "{bar}x", "hello")).isEqualTo("+OK\r\n");
    }

    @Test
    void msetWithAMissingValueChecksItsKeysFirst() {
        assertThat(kvd.call("MSET", "bar", "1", "hello")).isEqualTo(CROSSSLOT);
        assertThat(kvd.call("MSET", "bar", "1", "{bar}x")).isEqualTo("-ERR wrong number of arguments for 'mset' command\r\n");
    }

    @Test
    void renameChecksBothKeys() {
        assertThat(kvd.call("RENAME", "bar", "hello")).isEqualTo(CROSSSLOT);
    }

    @Test
    void delAndExistsCheckEveryKey() {
        assertThat(kvd.call("DEL", "bar", "{bar}1", "hello")).isEqualTo(CROSSSLOT);
        assertThat(kvd.call("EXISTS", "{bar}1", "bar")).isEqualTo(":0\r\n");
    }

    @Test
    void commandsWithoutKeysRunOnAnyNode() {
        assertThat(kvd.call("PING")).isEqualTo("+PONG\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
        assertThat(kvd.call("KEYS", "*")).isEqualTo("*0\r\n");
        assertThat(kvd.call("SCAN", "0")).isEqualTo("*2\r\n$1\r\n0\r\n*0\r\n");
    }

    @Test
    void arityIsCheckedBeforeTheSlot() {
        assertThat(kvd.call("GET", "foo", "x")).isEqualTo("-ERR wrong number of arguments for 'get' command\r\n");
    }

    @Test
    void authenticationIsCheckedBeforeTheSlot() {
        kvd.config.set("requirepass", "secret");
        Client stranger = kvd.newClient();
        assertThat(kvd.callAs(stranger, "GET", "foo")).isEqualTo("-NOAUTH Authentication required.\r\n");
    }

    @Test
    void theAofReplayClientWritesKeysOfEverySlot() {
        Client replay = kvd.newClient();
        replay.obeyEverySlot();
        assertThat(kvd.callAs(replay, "MSET", "foo", "1", "bar", "2")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":2\r\n");
    }

    @Test
    void redirectionWhileQueuingMakesExecAbort() {
        assertThat(kvd.call("MULTI")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("SET", "bar", "v")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("-EXECABORT Transaction discarded because of previous errors.\r\n");
    }

    @Test
    void execOfQueuedKeysInTwoSlotsIsCrossslotAndDiscardsTheTransaction() {
        kvd.call("MULTI");
        assertThat(kvd.call("SET", "bar", "1")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("SET", "hello", "1")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(CROSSSLOT);
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void execOfQueuedKeysInOneSlotRuns() {
        kvd.call("MULTI");
        kvd.call("SET", "{bar}1", "a");
        kvd.call("PING");
        kvd.call("GET", "{bar}1");
        assertThat(kvd.call("EXEC")).isEqualTo("*3\r\n+OK\r\n+PONG\r\n$1\r\na\r\n");
    }

    @Test
    void subcommandsNamingAKeyOfAnotherNodesSlotAreMoved() {
        assertThat(kvd.call("XGROUP", "CREATE", "foo", "g", "$", "MKSTREAM")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XGROUP", "CREATECONSUMER", "foo", "g", "c")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XGROUP", "DELCONSUMER", "foo", "g", "c")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XGROUP", "SETID", "foo", "g", "0")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XGROUP", "DESTROY", "foo", "g")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XINFO", "STREAM", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XINFO", "GROUPS", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("XINFO", "CONSUMERS", "foo", "g")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("OBJECT", "ENCODING", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void subcommandsNamingAKeyOfThisNodeAreServed() {
        assertThat(kvd.call("XGROUP", "CREATE", "bar", "g", "$", "MKSTREAM")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("XINFO", "GROUPS", "bar")).startsWith("*1\r\n");
        assertThat(kvd.call("OBJECT", "ENCODING", "bar")).isEqualTo("$6\r\nstream\r\n");
    }

    @Test
    void subcommandsWithoutKeysRunOnAnyNode() {
        assertThat(kvd.call("XGROUP", "HELP")).startsWith("*");
        assertThat(kvd.call("XINFO", "HELP")).startsWith("*");
    }

    @Test
    void aSubcommandsArityAndNameAreCheckedBeforeTheSlot() {
        assertThat(kvd.call("XGROUP", "CREATE", "foo", "g")).isEqualTo("-ERR wrong number of arguments for 'xgroup|create' command\r\n");
        assertThat(kvd.call("XINFO", "NOPE", "foo")).isEqualTo("-ERR unknown subcommand 'NOPE'. Try XINFO HELP.\r\n");
    }

    @Test
    void execOfQueuedSubcommandsChecksTheirKeys() {
        kvd.call("MULTI");
        assertThat(kvd.call("XGROUP", "CREATE", "bar", "g", "$", "MKSTREAM")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("XINFO", "STREAM", "hello")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(CROSSSLOT);
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void watchOfAnotherNodesKeyIsMoved() {
        assertThat(kvd.call("WATCH", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
    }
}
