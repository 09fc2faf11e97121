package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** MULTI, EXEC, DISCARD, WATCH, UNWATCH. Replies checked against redis-server 7.0.15. */
class TransactionsTest {
    private static final String EXECABORT = "-EXECABORT Transaction discarded because of previous errors.\r\n";
    private static final String NULL_ARRAY = "*-1\r\n";
    private static final String PONG_ARRAY = "*1\r\n+PONG\r\n";

    private final CommandFixture kvd = new CommandFixture();
    private final Client other = kvd.newClient();

    private String byOther(String... argv) {
        return kvd.callAs(other, argv);
    }

    /** MULTI, PING, EXEC: the EXEC reply, PONG_ARRAY unless a watched key changed. */
    private String execPing() {
        assertThat(kvd.call("MULTI")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("PING")).isEqualTo("+QUEUED\r\n");
        return kvd.call("EXEC");
    }

    @Test
    void queuedCommandsRunAtExecAndReplyAsOneArray() {
        assertThat(kvd.call("MULTI")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("SET", "a", "1")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("INCR", "a")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("+QUEUED\r\n");
        assertThat(byOther("GET", "a")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("*3\r\n+OK\r\n:2\r\n$1\r\n2\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
    }

    @Test
    void emptyTransactionRepliesAnEmptyArray() {
        kvd.call("MULTI");
        assertThat(kvd.call("EXEC")).isEqualTo("*0\r\n");
    }

    @Test
    void runtimeErrorsAreElementsOfTheExecReplyAndTheOtherCommandsRun() {
        kvd.call("MULTI");
        kvd.call("SET", "s", "x");
        kvd.call("INCR", "s");
        kvd.call("HSET", "s", "f", "v");
        kvd.call("GET", "s");
        assertThat(kvd.call("EXEC")).isEqualTo("*4\r\n+OK\r\n-ERR value is not an integer or out of range\r\n"
                + "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n$1\r\nx\r\n");
    }

    @Test
    void execAndDiscardWithoutMultiAreErrors() {
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
        assertThat(kvd.call("DISCARD")).isEqualTo("-ERR DISCARD without MULTI\r\n");
    }

    @Test
    void transactionCommandsCheckTheirArity() {
        assertThat(kvd.call("MULTI", "x")).isEqualTo("-ERR wrong number of arguments for 'multi' command\r\n");
        assertThat(kvd.call("WATCH")).isEqualTo("-ERR wrong number of arguments for 'watch' command\r\n");
        assertThat(kvd.call("UNWATCH", "x")).isEqualTo("-ERR wrong number of arguments for 'unwatch' command\r\n");
        assertThat(kvd.call("DISCARD", "x")).isEqualTo("-ERR wrong number of arguments for 'discard' command\r\n");
    }

    @Test
    void execWithArgumentsIsExecabortSayingWhyEvenOutsideMulti() {
        assertThat(kvd.call("EXEC", "x"))
                .isEqualTo("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n");
    }

    @Test
    void execWithArgumentsDiscardsTheTransaction() {
        kvd.call("SET", "a", "3");
        kvd.call("MULTI");
        kvd.call("SET", "a", "4");
        assertThat(kvd.call("EXEC", "x"))
                .isEqualTo("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("$1\r\n3\r\n");
    }

    @Test
    void nestedMultiIsRefusedAndTheTransactionGoesOn() {
        kvd.call("SET", "a", "2");
        kvd.call("MULTI");
        assertThat(kvd.call("MULTI")).isEqualTo("-ERR MULTI calls can not be nested\r\n");
        kvd.call("GET", "a");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n$1\r\n2\r\n");
    }

    @Test
    void unknownCommandWhileQueuingMakesExecAbortAndNothingRuns() {
        kvd.call("MULTI");
        assertThat(kvd.call("NOSUCH", "x", "y"))
                .isEqualTo("-ERR unknown command 'NOSUCH', with args beginning with: 'x' 'y' \r\n");
        assertThat(kvd.call("SET", "a", "2")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
        assertThat(kvd.call("GET", "a")).isEqualTo("$-1\r\n");
    }

    @Test
    void wrongArityWhileQueuingMakesExecAbort() {
        kvd.call("MULTI");
        assertThat(kvd.call("GET")).isEqualTo("-ERR wrong number of arguments for 'get' command\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
    }

    @Test
    void wrongArityOfDiscardWhileQueuingMakesExecAbort() {
        kvd.call("MULTI");
        assertThat(kvd.call("DISCARD", "x")).isEqualTo("-ERR wrong number of arguments for 'discard' command\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
    }

    @Test
    void unknownSubcommandOrItsWrongArityWhileQueuingMakesExecAbort() {
        kvd.call("MULTI");
        assertThat(kvd.call("CLIENT", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try CLIENT HELP.\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
        kvd.call("MULTI");
        assertThat(kvd.call("CONFIG", "GET")).isEqualTo("-ERR wrong number of arguments for 'config|get' command\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
        kvd.call("MULTI");
        assertThat(kvd.call("CONFIG", "GET", "maxclients")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n*2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n");
    }

    @Test
    void noMultiCommandIsRefusedInsideATransactionAndMakesExecAbort() {
        kvd.call("MULTI");
        assertThat(kvd.call("SHUTDOWN")).isEqualTo("-ERR Command not allowed inside a transaction\r\n");
        assertThat(kvd.shutdownRequested).isFalse();
        assertThat(kvd.call("EXEC")).isEqualTo(EXECABORT);
    }

    @Test
    void failingAofRefusesWritesWhileQueuingAndExecOfQueuedWrites() {
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.server.commandLog().setFailure("No space left on device");
        assertThat(kvd.call("SET", "b", "1")).isEqualTo("-MISCONF Errors writing to the AOF file: No space left on device\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo(
                "-EXECABORT Transaction discarded because of: MISCONF Errors writing to the AOF file: No space left on device\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("$-1\r\n");
    }

    @Test
    void discardDropsTheQueuedCommands() {
        kvd.call("SET", "a", "3");
        kvd.call("MULTI");
        kvd.call("SET", "a", "5");
        assertThat(kvd.call("DISCARD")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("$1\r\n3\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
    }

    @Test
    void watchInsideMultiIsRefusedWithoutAbortingTheTransaction() {
        kvd.call("MULTI");
        assertThat(kvd.call("WATCH", "a")).isEqualTo("-ERR WATCH inside MULTI is not allowed\r\n");
        kvd.call("SET", "a", "3");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n+OK\r\n");
    }

    @Test
    void unwatchInsideMultiIsQueued() {
        kvd.call("MULTI");
        assertThat(kvd.call("UNWATCH")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n+OK\r\n");
    }

    @Test
    void selectInsideATransactionStaysSelectedAfterIt() {
        kvd.call("MULTI");
        kvd.call("SELECT", "2");
        kvd.call("SET", "d2", "1");
        assertThat(kvd.call("EXEC")).isEqualTo("*2\r\n+OK\r\n+OK\r\n");
        assertThat(kvd.call("GET", "d2")).isEqualTo("$1\r\n1\r\n");
        assertThat(kvd.client.db()).isEqualTo(2);
    }

    @Test
    void queuedArgumentsAreCopiedSinceTheCallersArraysAreReused() {
        byte[][] argv = {"SET".getBytes(), "k".getBytes(), "v".getBytes()};
        kvd.call("MULTI");
        kvd.commands.call(kvd.client, argv);
        argv[2][0] = 'x';
        kvd.client.reply().clear();
        kvd.call("EXEC");
        assertThat(kvd.call("GET", "k")).isEqualTo("$1\r\nv\r\n");
    }

    @Test
    void watchedKeyChangedByAnotherClientMakesExecReplyNull() {
        kvd.call("SET", "w", "1");
        assertThat(kvd.call("WATCH", "w")).isEqualTo("+OK\r\n");
        byOther("SET", "w", "2");
        kvd.call("MULTI");
        kvd.call("GET", "w");
        assertThat(kvd.call("EXEC")).isEqualTo(NULL_ARRAY);
    }

    @Test
    void watchedKeyChangedByTheWatcherItselfMakesExecReplyNull() {
        kvd.call("WATCH", "w");
        kvd.call("SET", "w", "3");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void unwatchForgetsTheWatches() {
        kvd.call("WATCH", "w");
        assertThat(kvd.call("UNWATCH")).isEqualTo("+OK\r\n");
        byOther("SET", "w", "4");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void unwatchClearsAChangeAlreadySeen() {
        kvd.call("WATCH", "w");
        byOther("SET", "w", "4");
        kvd.call("UNWATCH");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void execEndsTheWatches() {
        kvd.call("WATCH", "w");
        kvd.call("MULTI");
        kvd.call("EXEC");
        byOther("SET", "w", "5");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void discardEndsTheWatches() {
        kvd.call("WATCH", "w");
        kvd.call("MULTI");
        kvd.call("DISCARD");
        byOther("SET", "w", "6");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void abortedExecEndsTheWatchesToo() {
        kvd.call("WATCH", "w");
        byOther("SET", "w", "1");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
        byOther("SET", "w", "2");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void watchingMoreAfterAChangeCannotMakeExecSucceed() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        byOther("SET", "w", "2");
        assertThat(kvd.call("WATCH", "w")).isEqualTo("+OK\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void watchingTheSameKeyTwiceIsOneWatch() {
        kvd.call("WATCH", "a", "b");
        kvd.call("WATCH", "b");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
        assertThat(kvd.server.watchedKeys().isEmpty()).isTrue();
    }

    @Test
    void aWriteThatChangesNothingIsNoChange() {
        kvd.call("WATCH", "nokey");
        assertThat(byOther("DEL", "nokey")).isEqualTo(":0\r\n");
        kvd.call("SADD", "st", "a");
        kvd.call("WATCH", "st");
        assertThat(byOther("SADD", "st", "a")).isEqualTo(":0\r\n");
        assertThat(byOther("SADD", "nokey", "a")).isEqualTo(":1\r\n");
        assertThat(byOther("DEL", "nokey")).isEqualTo(":1\r\n");
        kvd.call("WATCH", "nokey");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void wrongTypeErrorIsNoChange() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("SADD", "w", "x")).startsWith("-WRONGTYPE");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void removingASetsMemberIsAChange() {
        kvd.call("SADD", "st", "a", "b");
        kvd.call("WATCH", "st");
        assertThat(byOther("SREM", "st", "a")).isEqualTo(":1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void changingAHashFieldIsAChange() {
        kvd.call("HSET", "h", "f", "1");
        kvd.call("WATCH", "h");
        byOther("HINCRBY", "h", "f", "1");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void deletionIsAChange() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        byOther("DEL", "w");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void settingATtlIsAChange() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("EXPIRE", "w", "100")).isEqualTo(":1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void renameOntoAWatchedKeyIsAChange() {
        kvd.call("SET", "r", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("RENAME", "r", "w")).isEqualTo("+OK\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void renameAwayFromAWatchedKeyIsAChange() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        byOther("RENAME", "w", "r");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void moveAwayIsAChangeAndMoveOntoToo() {
        kvd.call("SET", "r", "1");
        kvd.call("WATCH", "r");
        assertThat(byOther("MOVE", "r", "3")).isEqualTo(":1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
        kvd.call("SELECT", "3");
        kvd.call("WATCH", "m");
        byOther("SET", "m", "1");
        assertThat(byOther("MOVE", "m", "3")).isEqualTo(":1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void copyOntoAWatchedKeyIsAChange() {
        kvd.call("SET", "c", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("COPY", "c", "w")).isEqualTo(":1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void aWatchIsOnTheKeyOfTheDatabaseSelectedWhenWatched() {
        kvd.call("WATCH", "w");
        byOther("SELECT", "1");
        byOther("SET", "w", "1");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void flushallIsAChangeOfAWatchedKeyThatExisted() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("FLUSHALL")).isEqualTo("+OK\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void flushallIsNoChangeOfAWatchedKeyThatDidNotExist() {
        kvd.call("WATCH", "nokey");
        byOther("FLUSHALL");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void flushdbOfAnotherDatabaseIsNoChange() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        byOther("SELECT", "1");
        byOther("FLUSHDB");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
        kvd.call("WATCH", "w");
        byOther("SELECT", "0");
        byOther("FLUSHDB");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void swapdbIsAChangeOfAWatchedKeyThatExistsInEitherDatabase() {
        kvd.call("SET", "w", "1");
        kvd.call("WATCH", "w");
        assertThat(byOther("SWAPDB", "0", "1")).isEqualTo("+OK\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
        // w is in database 1 now; x arrives in database 0 by the swap.
        byOther("SELECT", "1");
        byOther("SET", "x", "1");
        kvd.call("WATCH", "x");
        byOther("SWAPDB", "0", "1");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void swapdbIsNoChangeOfAWatchedKeyInNeitherDatabase() {
        byOther("SET", "x", "1");
        kvd.call("WATCH", "nokey");
        byOther("SWAPDB", "0", "1");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void aWatchedKeyThatExpiresIsAChangeThoughNothingRemovedIt() {
        kvd.call("SET", "w", "1");
        kvd.call("PEXPIRE", "w", "100");
        kvd.call("WATCH", "w");
        kvd.setTime(CommandFixture.START_MS + 200);
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void aWatchedKeyExpiredAndRemovedMeanwhileIsAChange() {
        kvd.call("SET", "w", "1");
        kvd.call("PEXPIRE", "w", "100");
        kvd.call("WATCH", "w");
        kvd.setTime(CommandFixture.START_MS + 200);
        assertThat(byOther("GET", "w")).isEqualTo("$-1\r\n");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void aKeyAlreadyExpiredWhenWatchedIsNoChangeWhenItIsRemoved() {
        kvd.call("SET", "w", "1");
        kvd.call("PEXPIRE", "w", "50");
        kvd.setTime(CommandFixture.START_MS + 100);
        kvd.call("WATCH", "w");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
        kvd.call("WATCH", "w");
        assertThat(byOther("GET", "w")).isEqualTo("$-1\r\n");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void aKeyAlreadyExpiredWhenWatchedIsChangedWhenWrittenAgain() {
        kvd.call("SET", "w", "1");
        kvd.call("PEXPIRE", "w", "50");
        kvd.setTime(CommandFixture.START_MS + 100);
        kvd.call("WATCH", "w");
        byOther("SET", "w", "2");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    /** Sets w in database {@code db} with a deadline, then moves the clock past it: expired, not removed. */
    private void expiredKeyIn(int db) {
        kvd.setTime(CommandFixture.START_MS);
        byOther("SELECT", Integer.toString(db));
        byOther("SET", "w", "1");
        byOther("PEXPIRE", "w", "50");
        kvd.setTime(CommandFixture.START_MS + 100);
    }

    @Test
    void flushOrSwapOfAKeyAlreadyExpiredWhenWatchedIsNoChange() {
        expiredKeyIn(0);
        kvd.call("WATCH", "w");
        byOther("SWAPDB", "0", "1");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
        byOther("FLUSHALL");
        expiredKeyIn(0);
        kvd.call("WATCH", "w");
        byOther("FLUSHALL");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
    }

    @Test
    void swapBringingAnExpiredKeyIsNoChangeAndBringingALiveOneIs() {
        expiredKeyIn(1);
        kvd.call("WATCH", "w");
        byOther("SWAPDB", "0", "1");
        assertThat(execPing()).isEqualTo(PONG_ARRAY);
        byOther("FLUSHALL");
        expiredKeyIn(0);
        byOther("SELECT", "1");
        byOther("SET", "w", "2");
        kvd.call("WATCH", "w");
        byOther("SWAPDB", "0", "1");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void activeExpiryOfAWatchedKeyIsAChange() {
        kvd.call("SET", "w", "1");
        kvd.call("PEXPIRE", "w", "100");
        kvd.call("WATCH", "w");
        kvd.setTime(CommandFixture.START_MS + 200);
        assertThat(kvd.keyspace.removeExpired()).isEqualTo(1);
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
    }

    @Test
    void eachWatcherOfAChangedKeyFailsAndOnlyThem() {
        Client third = kvd.newClient();
        kvd.call("WATCH", "w");
        kvd.callAs(third, "WATCH", "w");
        byOther("WATCH", "v");
        kvd.callAs(third, "SET", "w", "1");
        assertThat(execPing()).isEqualTo(NULL_ARRAY);
        kvd.callAs(third, "MULTI");
        kvd.callAs(third, "PING");
        assertThat(kvd.callAs(third, "EXEC")).isEqualTo(NULL_ARRAY);
        byOther("MULTI");
        byOther("PING");
        assertThat(byOther("EXEC")).isEqualTo(PONG_ARRAY);
    }

    @Test
    void watchesAreListenedToOnlyWhileSomeoneWatches() {
        assertThat(kvd.server.watchedKeys().isEmpty()).isTrue();
        kvd.call("WATCH", "w");
        byOther("WATCH", "w", "v");
        assertThat(kvd.server.watchedKeys().isEmpty()).isFalse();
        kvd.call("UNWATCH");
        assertThat(kvd.server.watchedKeys().isEmpty()).isFalse();
        byOther("UNWATCH");
        assertThat(kvd.server.watchedKeys().isEmpty()).isTrue();
    }

    @Test
    void aClosedConnectionsWatchesAreRemoved() {
        kvd.call("WATCH", "w");
        kvd.call("MULTI");
        kvd.client.disconnected();
        assertThat(kvd.server.watchedKeys().isEmpty()).isTrue();
        assertThat(kvd.client.inTransaction()).isFalse();
        byOther("SET", "w", "1");
    }

    private String clientListLine(Client c) {
        for (String line : byOther("CLIENT", "LIST").split("\n")) {
            if (line.contains("id=" + c.id() + " ")) {
                return line;
            }
        }
        throw new AssertionError("client " + c.id() + " not listed");
    }

    @Test
    void clientListShowsTheTransactionAndAChangedWatch() {
        assertThat(clientListLine(kvd.client)).contains(" flags=N ").contains(" multi=-1 ");
        kvd.call("WATCH", "w");
        byOther("SET", "w", "1");
        assertThat(clientListLine(kvd.client)).contains(" flags=d ").contains(" multi=-1 ");
        kvd.call("UNWATCH");
        kvd.call("MULTI");
        kvd.call("PING");
        assertThat(clientListLine(kvd.client)).contains(" flags=x ").contains(" multi=1 ").contains(" cmd=ping ");
        kvd.call("CLIENT", "INFO");
        assertThat(kvd.call("EXEC")).startsWith("*2\r\n+PONG\r\n").contains(" flags=x ").contains(" multi=2 ").contains(" cmd=exec ");
        assertThat(clientListLine(kvd.client)).contains(" flags=N ").contains(" multi=-1 ").contains(" cmd=exec ");
    }

    @Test
    void commandsQueuedAfterAWatchedKeyChangedAreNotKept() {
        kvd.call("WATCH", "w");
        byOther("SET", "w", "1");
        kvd.call("MULTI");
        assertThat(kvd.call("PING")).isEqualTo("+QUEUED\r\n");
        assertThat(clientListLine(kvd.client)).contains(" flags=xd ").contains(" multi=0 ");
        assertThat(kvd.call("EXEC")).isEqualTo(NULL_ARRAY);
    }
}
