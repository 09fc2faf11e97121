package io.kvd.server.pubsub;

import io.kvd.server.client.Client;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyspace notifications: for each command family, the events redis-server 7.0.15 publishes
 * (captured from it with notify-keyspace-events KEA and a PSUBSCRIBE to {@code __key*__:*}), in
 * its order, as the exact frames a pattern subscriber receives.
 */
class KeyspaceEventsTest {
    private static final String PATTERN = "__key*__:*";

    private final CommandFixture kvd = new CommandFixture();
    private final Client subscriber = kvd.newClient();

    @BeforeEach
    void subscribe() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEA");
        kvd.callAs(subscriber, "PSUBSCRIBE", PATTERN);
    }

    /** Runs a command and returns what the subscriber received meanwhile. */
    private String published(String... argv) {
        kvd.call(argv);
        return kvd.pendingOutput(subscriber);
    }

    /** The two frames of {@code event} on {@code key} in database 0: keyspace, then keyevent. */
    private static String event(String event, String key) {
        return event(0, event, key);
    }

    private static String event(int db, String event, String key) {
        return pmessage("__keyspace@" + db + "__:" + key, event) + pmessage("__keyevent@" + db + "__:" + event, key);
    }

    private static String pmessage(String channel, String message) {
        return "*4\r\n$8\r\npmessage\r\n" + bulk(PATTERN) + bulk(channel) + bulk(message);
    }

    private static String bulk(String text) {
        return "$" + text.length() + "\r\n" + text + "\r\n";
    }

    @Test
    void configGetPrintsTheCanonicalFormAndSetRefusesAnUnknownLetter() {
        assertThat(kvd.call("CONFIG", "GET", "notify-keyspace-events"))
                .isEqualTo("*2\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nAKE\r\n");
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "g$lshzxetdmn");
        assertThat(kvd.call("CONFIG", "GET", "notify-keyspace-events")).endsWith("$2\r\nAm\r\n");
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "Eg$");
        assertThat(kvd.call("CONFIG", "GET", "notify-keyspace-events")).endsWith("$3\r\ng$E\r\n");
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "zxgKn");
        assertThat(kvd.call("CONFIG", "GET", "notify-keyspace-events")).endsWith("$5\r\ngzxnK\r\n");
        assertThat(kvd.call("CONFIG", "SET", "notify-keyspace-events", "A K")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                        + "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.\r\n");
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "");
        assertThat(kvd.call("CONFIG", "GET", "notify-keyspace-events")).endsWith("$0\r\n\r\n");
    }

    @Test
    void nothingIsPublishedWhenOff() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "");
        assertThat(published("SET", "s", "1")).isEmpty();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "A");
        assertThat(published("SET", "s", "1")).isEmpty();
    }

    @Test
    void onlyTheEnabledClassesAndChannelsArePublished() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "K$");
        assertThat(published("SET", "s", "1")).isEqualTo(pmessage("__keyspace@0__:s", "set"));
        assertThat(published("DEL", "s")).isEmpty();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "Eg");
        assertThat(published("SET", "s", "1")).isEmpty();
        assertThat(published("DEL", "s")).isEqualTo(pmessage("__keyevent@0__:del", "s"));
    }

    @Test
    void stringCommands() {
        assertThat(published("SET", "s", "1")).isEqualTo(event("set", "s"));
        assertThat(published("SET", "s", "3", "NX")).isEmpty();
        assertThat(published("SET", "s2", "v", "EX", "100")).isEqualTo(event("set", "s2") + event("expire", "s2"));
        assertThat(published("SET", "s2", "v", "KEEPTTL")).isEqualTo(event("set", "s2"));
        assertThat(published("SETNX", "s", "1")).isEmpty();
        assertThat(published("SETNX", "s4", "1")).isEqualTo(event("set", "s4"));
        assertThat(published("SETEX", "s5", "100", "v")).isEqualTo(event("set", "s5") + event("expire", "s5"));
        assertThat(published("PSETEX", "s6", "100000", "v")).isEqualTo(event("set", "s6") + event("expire", "s6"));
        assertThat(published("GETSET", "s", "9")).isEqualTo(event("set", "s"));
        assertThat(published("GETDEL", "s")).isEqualTo(event("del", "s"));
        assertThat(published("GETDEL", "s")).isEmpty();
        assertThat(published("GETEX", "s2", "EX", "50")).isEqualTo(event("expire", "s2"));
        assertThat(published("GETEX", "s2", "PERSIST")).isEqualTo(event("persist", "s2"));
        assertThat(published("GETEX", "s2", "PERSIST")).isEmpty();
        assertThat(published("GETEX", "s2", "PXAT", "1")).isEqualTo(event("del", "s2"));
        assertThat(published("MSET", "a", "1", "b", "2")).isEqualTo(event("set", "a") + event("set", "b"));
        assertThat(published("MSETNX", "c", "1", "d", "2")).isEqualTo(event("set", "c") + event("set", "d"));
        assertThat(published("MSETNX", "c", "1", "e", "2")).isEmpty();
        assertThat(published("APPEND", "a", "x")).isEqualTo(event("append", "a"));
        assertThat(published("APPEND", "newa", "x")).isEqualTo(event("append", "newa"));
        assertThat(published("SETRANGE", "a", "0", "zz")).isEqualTo(event("setrange", "a"));
        assertThat(published("SETRANGE", "a", "0", "")).isEmpty();
        assertThat(published("SETBIT", "bm", "0", "1")).isEqualTo(event("setbit", "bm"));
        assertThat(published("SETBIT", "bm", "0", "1")).isEmpty();
        assertThat(published("BITFIELD", "bm", "SET", "u8", "0", "1")).isEqualTo(event("setbit", "bm"));
        assertThat(published("BITFIELD", "bm", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "-5")).isEqualTo(event("setbit", "bm"));
        assertThat(published("BITFIELD", "bm", "GET", "u8", "0")).isEmpty();
        assertThat(published("BITOP", "NOT", "bm", "bm")).isEqualTo(event("set", "bm"));
        assertThat(published("BITOP", "AND", "bm", "nope")).isEqualTo(event("del", "bm"));
        assertThat(published("INCR", "i")).isEqualTo(event("incrby", "i"));
        assertThat(published("DECRBY", "i", "5")).isEqualTo(event("incrby", "i"));
        assertThat(published("INCRBYFLOAT", "f", "1.5")).isEqualTo(event("incrbyfloat", "f"));
        assertThat(published("INCR", "a")).isEmpty();
        assertThat(published("GET", "nope")).isEmpty();
    }

    @Test
    void keyAndExpiryCommands() {
        kvd.call("MSET", "a", "1", "b", "2", "i", "1");
        kvd.pendingOutput(subscriber);
        assertThat(published("DEL", "a", "nope", "b")).isEqualTo(event("del", "a") + event("del", "b"));
        assertThat(published("EXPIRE", "i", "100")).isEqualTo(event("expire", "i"));
        assertThat(published("EXPIRE", "i", "100", "NX")).isEmpty();
        assertThat(published("PERSIST", "i")).isEqualTo(event("persist", "i"));
        assertThat(published("PERSIST", "i")).isEmpty();
        assertThat(published("EXPIRE", "i", "-1")).isEqualTo(event("del", "i"));
        kvd.call("SET", "r", "1");
        kvd.call("SET", "r3", "x");
        kvd.pendingOutput(subscriber);
        assertThat(published("RENAME", "r", "r2")).isEqualTo(event("rename_from", "r") + event("rename_to", "r2"));
        assertThat(published("RENAME", "r2", "r3")).isEqualTo(event("rename_from", "r2") + event("rename_to", "r3"));
        assertThat(published("RENAMENX", "r3", "r4")).isEqualTo(event("rename_from", "r3") + event("rename_to", "r4"));
        assertThat(published("RENAME", "r4", "r4")).isEmpty();
        assertThat(published("MOVE", "r4", "1")).isEqualTo(event("move_from", "r4") + event(1, "move_to", "r4"));
        kvd.call("SET", "r4", "1");
        kvd.pendingOutput(subscriber);
        assertThat(published("COPY", "r4", "r5")).isEqualTo(event("copy_to", "r5"));
        assertThat(published("COPY", "r4", "r5", "REPLACE")).isEqualTo(event("copy_to", "r5"));
        assertThat(published("COPY", "r4", "r6", "DB", "2")).isEqualTo(event(2, "copy_to", "r6"));
        assertThat(published("SWAPDB", "0", "1")).isEmpty();
        assertThat(published("FLUSHALL")).isEmpty();
    }

    @Test
    void expiryIsAnnouncedWhenAReadFindsTheKeyDueAndByTheActiveCycle() {
        kvd.call("SET", "lazy", "v", "PX", "1");
        kvd.call("SET", "active", "v", "PX", "1");
        kvd.pendingOutput(subscriber);
        kvd.setTime(CommandFixture.START_MS + 10);
        assertThat(published("GET", "lazy")).isEqualTo(event("expired", "lazy"));
        kvd.server.expiryCycle().runSlow(CommandFixture.START_MS + 10, 10);
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(event("expired", "active"));
    }

    @Test
    void listCommands() {
        assertThat(published("LPUSH", "l", "a", "b", "c")).isEqualTo(event("lpush", "l"));
        assertThat(published("RPUSH", "l", "d")).isEqualTo(event("rpush", "l"));
        assertThat(published("LPUSHX", "l", "x")).isEqualTo(event("lpush", "l"));
        assertThat(published("RPUSHX", "nl", "x")).isEmpty();
        assertThat(published("LPOP", "l")).isEqualTo(event("lpop", "l"));
        assertThat(published("RPOP", "l", "2")).isEqualTo(event("rpop", "l"));
        assertThat(published("LINSERT", "l", "BEFORE", "b", "q")).isEqualTo(event("linsert", "l"));
        assertThat(published("LINSERT", "l", "BEFORE", "zz", "q")).isEmpty();
        assertThat(published("LSET", "l", "0", "w")).isEqualTo(event("lset", "l"));
        assertThat(published("LTRIM", "l", "0", "1")).isEqualTo(event("ltrim", "l"));
        assertThat(published("LREM", "l", "0", "w")).isEqualTo(event("lrem", "l"));
        assertThat(published("LREM", "l", "0", "nothing")).isEmpty();
        assertThat(published("LPOP", "l", "0")).isEmpty();
        assertThat(published("LMOVE", "l", "l2", "LEFT", "RIGHT"))
                .isEqualTo(event("rpush", "l2") + event("lpop", "l") + event("del", "l"));
        assertThat(published("RPOPLPUSH", "l2", "l3"))
                .isEqualTo(event("lpush", "l3") + event("rpop", "l2") + event("del", "l2"));
        kvd.call("RPUSH", "l4", "1", "2");
        kvd.pendingOutput(subscriber);
        assertThat(published("LMOVE", "l4", "l4", "LEFT", "RIGHT")).isEqualTo(event("rpush", "l4") + event("lpop", "l4"));
        assertThat(published("LMPOP", "2", "nol", "l4", "LEFT", "COUNT", "5"))
                .isEqualTo(event("lpop", "l4") + event("del", "l4"));
        kvd.call("RPUSH", "l5", "1");
        kvd.pendingOutput(subscriber);
        assertThat(published("LTRIM", "l5", "1", "0")).isEqualTo(event("ltrim", "l5") + event("del", "l5"));
    }

    @Test
    void hashCommands() {
        assertThat(published("HSET", "h", "a", "1", "b", "2")).isEqualTo(event("hset", "h"));
        assertThat(published("HSET", "h", "a", "1")).isEqualTo(event("hset", "h"));
        assertThat(published("HSETNX", "h", "a", "1")).isEmpty();
        assertThat(published("HSETNX", "h", "c", "1")).isEqualTo(event("hset", "h"));
        assertThat(published("HMSET", "h", "d", "1")).isEqualTo(event("hset", "h"));
        assertThat(published("HINCRBY", "h", "n", "1")).isEqualTo(event("hincrby", "h"));
        assertThat(published("HINCRBYFLOAT", "h", "f", "1.5")).isEqualTo(event("hincrbyfloat", "h"));
        assertThat(published("HDEL", "h", "a", "b")).isEqualTo(event("hdel", "h"));
        assertThat(published("HDEL", "h", "zz")).isEmpty();
        assertThat(published("HDEL", "h", "c", "d", "n", "f")).isEqualTo(event("hdel", "h") + event("del", "h"));
    }

    @Test
    void setCommands() {
        assertThat(published("SADD", "s", "a", "b", "c")).isEqualTo(event("sadd", "s"));
        assertThat(published("SADD", "s", "a")).isEmpty();
        assertThat(published("SREM", "s", "a")).isEqualTo(event("srem", "s"));
        assertThat(published("SREM", "s", "zz")).isEmpty();
        assertThat(published("SPOP", "s")).isEqualTo(event("spop", "s"));
        assertThat(published("SPOP", "s", "5")).isEqualTo(event("spop", "s") + event("del", "s"));
        kvd.call("SADD", "s", "1", "2", "3");
        kvd.call("SADD", "t", "1");
        kvd.pendingOutput(subscriber);
        assertThat(published("SPOP", "s", "0")).isEmpty();
        assertThat(published("SMOVE", "s", "s2", "1")).isEqualTo(event("srem", "s") + event("sadd", "s2"));
        assertThat(published("SMOVE", "s", "s2", "1")).isEmpty();
        assertThat(published("SMOVE", "t", "t", "1")).isEmpty();
        assertThat(published("SMOVE", "t", "s", "1")).isEqualTo(event("srem", "t") + event("del", "t") + event("sadd", "s"));
        kvd.call("SADD", "x", "1", "2", "3");
        kvd.call("SADD", "y", "2", "3", "4");
        kvd.pendingOutput(subscriber);
        assertThat(published("SINTERSTORE", "d", "x", "y")).isEqualTo(event("sinterstore", "d"));
        assertThat(published("SUNIONSTORE", "d", "x", "y")).isEqualTo(event("sunionstore", "d"));
        assertThat(published("SDIFFSTORE", "d", "x", "y")).isEqualTo(event("sdiffstore", "d"));
        assertThat(published("SINTERSTORE", "d", "x", "nope")).isEqualTo(event("del", "d"));
        assertThat(published("SINTERSTORE", "d", "x", "nope")).isEmpty();
    }

    @Test
    void sortedSetCommands() {
        assertThat(published("ZADD", "z", "1", "a", "2", "b", "3", "c")).isEqualTo(event("zadd", "z"));
        assertThat(published("ZADD", "z", "1", "a")).isEmpty();
        assertThat(published("ZADD", "z", "XX", "5", "a")).isEqualTo(event("zadd", "z"));
        assertThat(published("ZADD", "z", "INCR", "1", "a")).isEqualTo(event("zincr", "z"));
        assertThat(published("ZADD", "z", "GT", "CH", "1", "a")).isEmpty();
        assertThat(published("ZINCRBY", "z", "1", "b")).isEqualTo(event("zincr", "z"));
        assertThat(published("ZREM", "z", "a")).isEqualTo(event("zrem", "z"));
        assertThat(published("ZREM", "z", "zz")).isEmpty();
        kvd.call("ZADD", "z", "4", "d", "5", "e", "6", "f");
        kvd.pendingOutput(subscriber);
        assertThat(published("ZREMRANGEBYRANK", "z", "0", "0")).isEqualTo(event("zremrangebyrank", "z"));
        assertThat(published("ZREMRANGEBYSCORE", "z", "4", "4")).isEqualTo(event("zremrangebyscore", "z"));
        assertThat(published("ZREMRANGEBYLEX", "z", "[e", "[e")).isEqualTo(event("zremrangebylex", "z"));
        assertThat(published("ZREMRANGEBYSCORE", "z", "100", "200")).isEmpty();
        assertThat(published("ZPOPMIN", "z")).isEqualTo(event("zpopmin", "z"));
        assertThat(published("ZPOPMAX", "z")).isEqualTo(event("zpopmax", "z") + event("del", "z"));
        kvd.call("ZADD", "za", "1", "a", "2", "b");
        kvd.call("ZADD", "zb", "2", "b", "3", "c");
        kvd.pendingOutput(subscriber);
        assertThat(published("ZINTERSTORE", "zd", "2", "za", "zb")).isEqualTo(event("zinterstore", "zd"));
        assertThat(published("ZUNIONSTORE", "zd", "2", "za", "zb")).isEqualTo(event("zunionstore", "zd"));
        assertThat(published("ZDIFFSTORE", "zd", "2", "za", "zb")).isEqualTo(event("zdiffstore", "zd"));
        assertThat(published("ZINTERSTORE", "zd", "2", "za", "nope")).isEqualTo(event("del", "zd"));
        assertThat(published("ZRANGESTORE", "zr", "za", "0", "-1")).isEqualTo(event("zrangestore", "zr"));
        assertThat(published("ZRANGESTORE", "zr", "za", "5", "6")).isEqualTo(event("del", "zr"));
        assertThat(published("ZMPOP", "1", "za", "MIN")).isEqualTo(event("zpopmin", "za"));
        assertThat(published("ZMPOP", "2", "nope", "za", "MAX", "COUNT", "5"))
                .isEqualTo(event("zpopmax", "za") + event("del", "za"));
    }

    @Test
    void aBlockedClientServedLaterAnnouncesItsPopAfterThePush() {
        Client blocked = kvd.newClient();
        kvd.callAs(blocked, "BLMOVE", "bm", "dst", "RIGHT", "LEFT", "0");
        assertThat(published("RPUSH", "bm", "a")).isEqualTo(event("rpush", "bm") + event("lpush", "dst")
                + event("rpop", "bm") + event("del", "bm"));
        kvd.callAs(blocked, "BZPOPMIN", "bz", "0");
        kvd.pending(blocked);
        assertThat(published("ZADD", "bz", "1", "a", "2", "b")).isEqualTo(event("zadd", "bz") + event("zpopmin", "bz"));
    }

    @Test
    void aTransactionAnnouncesEachCommandInOrderThenTheServedClients() {
        Client blocked = kvd.newClient();
        kvd.callAs(blocked, "BLPOP", "tx2", "0");
        kvd.call("MULTI");
        kvd.call("RPUSH", "tx2", "a");
        kvd.call("DEL", "tx2");
        kvd.call("RPUSH", "tx2", "b");
        assertThat(published("EXEC")).isEqualTo(event("rpush", "tx2") + event("del", "tx2") + event("rpush", "tx2")
                + event("lpop", "tx2") + event("del", "tx2"));
    }

    @Test
    void newKeysAndKeyMissesWhenAskedFor() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEAnm");
        assertThat(published("SET", "n1", "v")).isEqualTo(event("new", "n1") + event("set", "n1"));
        assertThat(published("SET", "n1", "v2")).isEqualTo(event("set", "n1"));
        assertThat(published("GET", "n1")).isEmpty();
        assertThat(published("MGET", "nope", "n1", "nope2")).isEqualTo(event("keymiss", "nope") + event("keymiss", "nope2"));
        assertThat(published("EXISTS", "nope", "nope")).isEqualTo(event("keymiss", "nope") + event("keymiss", "nope"));
        assertThat(published("OBJECT", "ENCODING", "nope")).isEmpty();
        assertThat(published("LPUSH", "nl", "a")).isEqualTo(event("new", "nl") + event("lpush", "nl"));
        assertThat(published("RPOPLPUSH", "nl", "nl2")).isEqualTo(event("new", "nl2") + event("lpush", "nl2")
                + event("rpop", "nl") + event("del", "nl"));
        assertThat(published("RENAME", "nl2", "n1")).isEqualTo(event("new", "n1") + event("rename_from", "nl2")
                + event("rename_to", "n1"));
        assertThat(published("COPY", "n1", "n4")).isEqualTo(event("new", "n4") + event("copy_to", "n4"));
        assertThat(published("MOVE", "n4", "3")).isEqualTo(event(3, "new", "n4") + event("move_from", "n4")
                + event(3, "move_to", "n4"));
        kvd.call("SADD", "ss", "1");
        kvd.pendingOutput(subscriber);
        assertThat(published("SUNIONSTORE", "sd", "ss", "nope")).isEqualTo(event("keymiss", "nope") + event("new", "sd")
                + event("sunionstore", "sd"));
        assertThat(published("COPY", "nope5", "x")).isEqualTo(event("keymiss", "nope5"));
        assertThat(published("INCR", "nope7")).isEqualTo(event("new", "nope7") + event("incrby", "nope7"));
        assertThat(published("LPOP", "nope")).isEmpty();
        assertThat(published("ZUNION", "1", "nope")).isEqualTo(event("keymiss", "nope"));
    }

    @Test
    void xinfoOfAMissingKeyIsAKeyMissButXgroupCreateIsNot() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEm");
        assertThat(published("XINFO", "STREAM", "m1")).isEqualTo(event("keymiss", "m1"));
        assertThat(published("XINFO", "GROUPS", "m2")).isEqualTo(event("keymiss", "m2"));
        assertThat(published("XINFO", "CONSUMERS", "m3", "g")).isEqualTo(event("keymiss", "m3"));
        assertThat(published("XINFO", "HELP")).isEmpty();
        assertThat(published("XGROUP", "CREATE", "m4", "g", "$")).isEmpty();
    }

    @Test
    void aKeyRebuiltUnderItsNameIsNotNew() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEAn");
        kvd.call("SADD", "ss", "1");
        kvd.call("SUNIONSTORE", "sd", "ss");
        kvd.call("SADD", "big", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
        kvd.call("ZADD", "zs", "1", "a");
        kvd.call("ZRANGESTORE", "zr", "zs", "0", "-1");
        kvd.pendingOutput(subscriber);
        assertThat(published("SUNIONSTORE", "sd", "ss")).isEqualTo(event("sunionstore", "sd"));
        assertThat(published("SPOP", "big", "9")).isEqualTo(event("spop", "big"));
        assertThat(published("ZRANGESTORE", "zr", "zs", "0", "-1")).isEqualTo(event("zrangestore", "zr"));
        assertThat(published("ZUNIONSTORE", "zr", "1", "zs")).isEqualTo(event("zunionstore", "zr"));
    }

    @Test
    void aKeyMissAfterALazyExpiryFollowsTheExpiredEvent() {
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEAm");
        kvd.call("SET", "ex4", "v", "PX", "1");
        kvd.pendingOutput(subscriber);
        kvd.setTime(CommandFixture.START_MS + 10);
        assertThat(published("GET", "ex4")).isEqualTo(event("expired", "ex4") + event("keymiss", "ex4"));
    }
}
