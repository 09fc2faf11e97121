package io.kvd.it;

import io.kvd.it.support.DifferentialRun;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A seeded random walk of string (bitmap too), hash, set, sorted set, list (blocking pops too) and key commands
 * over a few keys in a few databases,
 * each command sent to redis-server and to kvd: every reply is the same. The keys are shared by
 * all types, so wrong-type calls, overwrites, renames and moves between types happen all the
 * time; the encoding thresholds are set small, so hashes and sets cross from listpack and intset
 * to hashtable often.
 * <p>
 * Replies whose order Redis leaves to its hash table compare as multisets; the random picks of
 * SRANDMEMBER and HRANDFIELD compare by shape only; TTL by its sign. Commands whose effect is random
 * (SPOP with a count below the size, RANDOMKEY) are not sent, so the two keyspaces never diverge,
 * which DEBUG DIGEST, asked of both every 500 steps, checks byte for byte.
 */
@ExtendWith(ServerLogsOnFailure.class)
class TypedRandomDifferentialTest {
    private static final int STEPS = 5_000;
    private static final int DIGEST_EVERY = 500;
    private static final String[][] SETUP = {
            {"CONFIG", "SET", "hash-max-listpack-entries", "4"},
            {"CONFIG", "SET", "hash-max-listpack-value", "16"},
            {"CONFIG", "SET", "set-max-intset-entries", "4"},
            {"CONFIG", "SET", "zset-max-listpack-entries", "4"},
            {"CONFIG", "SET", "list-max-listpack-size", "4"},
    };

    @Test
    void aRandomWalkOfEveryTypesCommandsGetsRedisRepliesAndLeavesRedisDigest() throws IOException {
        try (DifferentialRun run = DifferentialRun.start(getClass(), 20240601L, "--enable-debug-command", "yes")) {
            for (String[] setup : SETUP) {
                run.assertSameReply(setup);
            }
            Walk walk = new Walk(run.random());
            for (int step = 0; step < STEPS; step++) {
                String[] args = walk.next();
                run.assertSameReply(comparison(args[0]), args);
                // DEBUG DIGEST hashes every database's keys, values and deadlines as Redis's debug.c does.
                if (step % DIGEST_EVERY == DIGEST_EVERY - 1) {
                    run.assertSameReply((redis, kvd) -> redis[0] == '+' && Arrays.equals(redis, kvd), "DEBUG", "DIGEST");
                    run.assertSameReply((redis, kvd) -> redis[0] == '*' && Arrays.equals(redis, kvd),
                            "DEBUG", "DIGEST-VALUE", "k0", "k1", "k2", "k3", "nokey");
                }
            }
        }
    }

    /**
     * How a command's reply is compared, decided by its name: replies in hash-table order as
     * multisets (of fields and values in pairs for HGETALL and HSCAN), random picks by their shape,
     * TTL by its sign (a relative EXPIRE's TTL depends on when it is asked), the rest byte for byte.
     */
    private static DifferentialRun.Comparison comparison(String command) {
        UnaryOperator<byte[]> canonical = switch (command) {
            case "HGETALL", "HSCAN" -> ReplyOrder.UNORDERED_PAIRS::canonical;
            case "HKEYS", "HVALS", "SMEMBERS", "SINTER", "SUNION", "SDIFF", "SSCAN", "SPOP", "KEYS", "SCAN" ->
                    ReplyOrder.UNORDERED::canonical;
            case "ZSCAN" -> ReplyOrder.UNORDERED_PAIRS::canonical;
            case "HRANDFIELD", "SRANDMEMBER", "ZRANDMEMBER" -> TypedRandomDifferentialTest::shape;
            case "TTL" -> TypedRandomDifferentialTest::sign;
            default -> reply -> reply;
        };
        return (redisReply, kvdReply) -> Arrays.equals(canonical.apply(redisReply), canonical.apply(kvdReply));
    }

    /** An array as its length alone, a bulk string as present or null; anything else (an error) as it is. */
    private static byte[] shape(byte[] reply) {
        String text = new String(reply, StandardCharsets.ISO_8859_1);
        if (text.startsWith("*")) {
            return text.substring(0, text.indexOf("\r\n")).getBytes(StandardCharsets.ISO_8859_1);
        }
        if (text.startsWith("$") && !text.startsWith("$-1")) {
            return "$(a bulk string)".getBytes(StandardCharsets.ISO_8859_1);
        }
        return reply;
    }

    /** A positive integer as "positive"; -1 (no TTL), -2 (no key) and errors as they are. */
    private static byte[] sign(byte[] reply) {
        String text = new String(reply, StandardCharsets.ISO_8859_1);
        if (text.startsWith(":") && Long.parseLong(text.substring(1, text.length() - 2)) > 0) {
            return ":(positive)".getBytes(StandardCharsets.ISO_8859_1);
        }
        return reply;
    }

    /**
     * The random commands: 8 keys, 10 fields, members that are small integers or short strings
     * (so sets are intsets, then not), values that are integers, words, floats or just longer than
     * hash-max-listpack-value, 3 databases. Deadlines are far off, so nothing expires during the walk.
     */
    private static final class Walk {
        private static final int KEYS = 12;
        private static final int DATABASES = 3;
        private static final String[] WORDS = {"a", "b", "hello", "x y", "", "1.5", "-0.25", "007", "1e3"};
        private static final String[] FLOAT_INCREMENTS = {"1", "-2", "0.5", "-0.25", "1e3", "3.0e-2", "abc"};
        private static final String[] SCAN_TYPES = {"string", "hash", "set", "zset", "list"};
        private static final String[] SCORES = {"1", "2", "-1", "0.5", "0.1", "1e3", "inf", "-inf", "-0", "1e17", "abc"};
        private static final String[] BOUNDS = {"-inf", "+inf", "0", "(0.5", "1", "(1", "2", "1e3", "x"};
        private static final String[] ZADD_FLAGS = {"NX", "XX", "GT", "LT", "CH"};
        private static final String[] AGGREGATES = {"SUM", "MIN", "MAX"};
        private static final String[] EXPIREAT_FLAGS = {"NX", "XX", "GT", "LT"};

        private final SplittableRandom random;
        private final List<Supplier<String[]>> commands = new ArrayList<>();

        Walk(SplittableRandom random) {
            this.random = random;
            // strings
            add(3, () -> args("SET", stringKey(), value()));
            add(3, () -> args("GET", stringKey()));
            add(1, () -> args("INCRBY", stringKey(), String.valueOf(random.nextInt(-5, 6))));
            add(1, () -> args("APPEND", stringKey(), value()));
            add(1, () -> args("STRLEN", stringKey()));
            add(1, () -> args("MGET", stringKey(), stringKey(), stringKey()));
            add(1, () -> args("GETDEL", stringKey()));
            add(1, () -> args("SETNX", stringKey(), value()));
            // bitmaps, over the same strings
            add(1, () -> args("SETBIT", stringKey(), String.valueOf(random.nextInt(100)), String.valueOf(random.nextInt(2))));
            add(1, () -> args("SETRANGE", stringKey(), String.valueOf(random.nextInt(12)), value()));
            add(1, () -> args("BITCOUNT", stringKey()));
            add(1, () -> args("BITFIELD", stringKey(), "OVERFLOW", overflow(), random.nextBoolean() ? "SET" : "INCRBY",
                    bitfieldType(), String.valueOf(random.nextInt(80)), String.valueOf(random.nextLong()),
                    "GET", bitfieldType(), "#" + random.nextInt(8)));
            add(1, () -> args("BITFIELD_RO", stringKey(), "GET", bitfieldType(), String.valueOf(random.nextInt(80))));
            // hashes
            add(6, () -> args("HSET", hashKey(), field(), value(), field(), value()));
            add(3, () -> args("HSET", hashKey(), field(), value()));
            add(1, () -> args("HMSET", hashKey(), field(), value()));
            add(2, () -> args("HSETNX", hashKey(), field(), value()));
            add(3, () -> args("HGET", hashKey(), field()));
            add(1, () -> args("HMGET", hashKey(), field(), field(), field()));
            add(3, () -> args("HDEL", hashKey(), field(), field()));
            add(2, () -> args("HLEN", hashKey()));
            add(1, () -> args("HEXISTS", hashKey(), field()));
            add(2, () -> args("HGETALL", hashKey()));
            add(1, () -> args("HKEYS", hashKey()));
            add(1, () -> args("HVALS", hashKey()));
            add(2, () -> args("HINCRBY", hashKey(), field(), String.valueOf(random.nextInt(-10, 11))));
            add(2, () -> args("HINCRBYFLOAT", hashKey(), field(), pick(FLOAT_INCREMENTS)));
            add(1, () -> args("HSTRLEN", hashKey(), field()));
            add(1, () -> args("HSCAN", hashKey(), "0", "COUNT", "100"));
            add(1, () -> args("HSCAN", hashKey(), "0", "MATCH", "f" + random.nextInt(10) + "*", "COUNT", "100"));
            add(1, () -> args("HRANDFIELD", hashKey()));
            add(1, () -> args("HRANDFIELD", hashKey(), count()));
            add(1, () -> args("HRANDFIELD", hashKey(), count(), "WITHVALUES"));
            // sets
            add(4, () -> args("SADD", setKey(), member(), member(), member()));
            add(3, () -> args("SADD", setKey(), integerMember(), integerMember()));
            add(1, () -> args("SADD", setKey(), member()));
            add(3, () -> args("SREM", setKey(), member(), member()));
            add(2, () -> args("SMEMBERS", setKey()));
            add(2, () -> args("SISMEMBER", setKey(), member()));
            add(1, () -> args("SMISMEMBER", setKey(), member(), member()));
            add(2, () -> args("SCARD", setKey()));
            // a count above any set's size pops every member, so both servers pop the same
            add(1, () -> args("SPOP", setKey(), "100"));
            add(1, () -> args("SPOP", setKey(), "0"));
            add(1, () -> args("SRANDMEMBER", setKey()));
            add(1, () -> args("SRANDMEMBER", setKey(), count()));
            add(2, () -> args("SMOVE", setKey(), setKey(), member()));
            add(1, () -> args("SINTER", setKey(), setKey()));
            add(1, () -> args("SUNION", setKey(), setKey(), setKey()));
            add(1, () -> args("SDIFF", setKey(), setKey()));
            add(1, () -> args("SINTERSTORE", setKey(), setKey(), setKey()));
            add(1, () -> args("SUNIONSTORE", setKey(), setKey(), setKey()));
            add(1, () -> args("SDIFFSTORE", setKey(), setKey(), setKey()));
            add(1, () -> args("SINTERCARD", "2", setKey(), setKey()));
            add(1, () -> args("SINTERCARD", "2", setKey(), setKey(), "LIMIT", String.valueOf(random.nextInt(0, 4))));
            add(1, () -> args("SSCAN", setKey(), "0", "COUNT", "100"));
            add(1, () -> args("SSCAN", setKey(), "0", "MATCH", random.nextBoolean() ? "m*" : "1*", "COUNT", "100"));
            // sorted sets (BYLEX only where Redis defines it, on equal scores: the compat script)
            add(4, () -> args("ZADD", zsetKey(), score(), zsetMember(), score(), zsetMember()));
            add(2, () -> args("ZADD", zsetKey(), pick(ZADD_FLAGS), score(), zsetMember()));
            add(1, () -> args("ZADD", zsetKey(), "INCR", score(), zsetMember()));
            add(1, () -> args("ZINCRBY", zsetKey(), score(), zsetMember()));
            add(3, () -> args("ZREM", zsetKey(), zsetMember(), zsetMember()));
            add(2, () -> args("ZSCORE", zsetKey(), zsetMember()));
            add(1, () -> args("ZMSCORE", zsetKey(), zsetMember(), zsetMember()));
            add(2, () -> args("ZCARD", zsetKey()));
            add(1, () -> args("ZRANK", zsetKey(), zsetMember()));
            add(1, () -> args("ZREVRANK", zsetKey(), zsetMember()));
            add(3, () -> args("ZRANGE", zsetKey(), count(), count(), "WITHSCORES"));
            add(1, () -> args("ZRANGE", zsetKey(), count(), count(), "REV"));
            add(2, () -> args("ZRANGE", zsetKey(), bound(), bound(), "BYSCORE", "LIMIT", count(), count()));
            add(1, () -> args("ZRANGEBYSCORE", zsetKey(), bound(), bound(), "WITHSCORES"));
            add(1, () -> args("ZREVRANGEBYSCORE", zsetKey(), bound(), bound(), "LIMIT", count(), count()));
            add(1, () -> args("ZCOUNT", zsetKey(), bound(), bound()));
            add(1, () -> args("ZPOPMIN", zsetKey()));
            add(1, () -> args("ZPOPMAX", zsetKey(), count()));
            add(1, () -> args("ZMPOP", "2", zsetKey(), zsetKey(), random.nextBoolean() ? "MIN" : "MAX", "COUNT", "2"));
            add(1, () -> args("ZREMRANGEBYRANK", zsetKey(), count(), count()));
            add(1, () -> args("ZREMRANGEBYSCORE", zsetKey(), bound(), bound()));
            add(1, () -> args("ZRANGESTORE", zsetKey(), zsetKey(), count(), count()));
            add(1, () -> args("ZUNIONSTORE", zsetKey(), "2", zsetKey(), setKey(), "WEIGHTS", score(), "2"));
            add(1, () -> args("ZINTER", "2", zsetKey(), zsetKey(), "AGGREGATE", pick(AGGREGATES), "WITHSCORES"));
            add(1, () -> args("ZUNION", "2", zsetKey(), zsetKey(), "WITHSCORES"));
            add(1, () -> args("ZDIFFSTORE", zsetKey(), "2", zsetKey(), zsetKey()));
            add(1, () -> args("ZINTERCARD", "2", zsetKey(), zsetKey()));
            add(1, () -> args("ZRANDMEMBER", zsetKey(), count(), "WITHSCORES"));
            add(1, () -> args("ZSCAN", zsetKey(), "0", "COUNT", "100"));
            // lists, and blocking pops that find something or time out at once (0.01 s)
            add(4, () -> args(random.nextBoolean() ? "LPUSH" : "RPUSH", listKey(), value(), value()));
            add(1, () -> args(random.nextBoolean() ? "LPUSHX" : "RPUSHX", listKey(), value()));
            add(2, () -> args(random.nextBoolean() ? "LPOP" : "RPOP", listKey()));
            add(1, () -> args("LPOP", listKey(), count()));
            add(2, () -> args("LRANGE", listKey(), count(), count()));
            add(1, () -> args("LLEN", listKey()));
            add(1, () -> args("LINDEX", listKey(), count()));
            add(1, () -> args("LSET", listKey(), count(), value()));
            add(1, () -> args("LINSERT", listKey(), random.nextBoolean() ? "BEFORE" : "AFTER", value(), value()));
            add(1, () -> args("LREM", listKey(), count(), value()));
            add(1, () -> args("LTRIM", listKey(), count(), count()));
            add(1, () -> args("LPOS", listKey(), value(), "RANK", count(), "COUNT", "0"));
            add(1, () -> args("LMOVE", listKey(), listKey(), side(), side()));
            add(1, () -> args("RPOPLPUSH", listKey(), listKey()));
            add(1, () -> args("LMPOP", "2", listKey(), listKey(), side(), "COUNT", "2"));
            add(1, () -> args(random.nextBoolean() ? "BLPOP" : "BRPOP", listKey(), listKey(), "0.01"));
            add(1, () -> args("BLMOVE", listKey(), listKey(), side(), side(), "0.01"));
            add(1, () -> args("BLMPOP", "0.01", "2", listKey(), listKey(), side()));
            add(1, () -> args(random.nextBoolean() ? "BZPOPMIN" : "BZPOPMAX", zsetKey(), "0.01"));
            add(1, () -> args("BZMPOP", "0.01", "1", zsetKey(), random.nextBoolean() ? "MIN" : "MAX", "COUNT", "3"));
            // keys and databases
            add(2, () -> args("DEL", key()));
            add(1, () -> args("EXISTS", key(), key()));
            add(2, () -> args("TYPE", key()));
            add(3, () -> args("OBJECT", "ENCODING", key()));
            add(1, () -> args("RENAME", key(), key()));
            add(1, () -> args("RENAMENX", key(), key()));
            add(1, () -> args("EXPIRE", key(), "100000"));
            add(1, () -> args("EXPIREAT", key(), String.valueOf(4_000_000_000L + random.nextInt(3) * 1000), pick(EXPIREAT_FLAGS)));
            add(1, () -> args("PERSIST", key()));
            add(1, () -> args("TTL", key()));
            add(1, () -> args("MOVE", key(), database()));
            add(1, () -> args("COPY", key(), key()));
            add(1, () -> args("COPY", key(), key(), "DB", database(), "REPLACE"));
            add(1, () -> args("SWAPDB", database(), database()));
            add(1, () -> args("SELECT", database()));
            add(1, () -> args("DBSIZE"));
            add(1, () -> args("KEYS", "*"));
            add(1, () -> args("SCAN", "0", "COUNT", "100"));
            add(1, () -> args("SCAN", "0", "COUNT", "100", "TYPE", pick(SCAN_TYPES)));
            // rare, so that the keyspace has time to fill up again
            add(1, () -> random.nextInt(8) == 0 ? args("FLUSHDB") : args("DBSIZE"));
        }

        String[] next() {
            return commands.get(random.nextInt(commands.size())).get();
        }

        private String overflow() {
            return new String[] {"WRAP", "SAT", "FAIL"}[random.nextInt(3)];
        }

        private String bitfieldType() {
            return random.nextBoolean() ? "i" + (1 + random.nextInt(64)) : "u" + (1 + random.nextInt(63));
        }

        private void add(int weight, Supplier<String[]> command) {
            for (int i = 0; i < weight; i++) {
                commands.add(command);
            }
        }

        private static String[] args(String... args) {
            return args;
        }

        private String key() {
            return "k" + random.nextInt(KEYS);
        }

        /*
         * Each type's commands mostly use keys of their own range, ranges that overlap, and now and
         * then any key: a SET overwrites whatever is there, so with keys picked alike for all commands
         * strings would crowd out the hashes and sets, and most set commands would meet WRONGTYPE.
         */
        private String stringKey() {
            return keyIn(0, 3);
        }

        private String hashKey() {
            return keyIn(2, 6);
        }

        private String setKey() {
            return keyIn(5, 8);
        }

        private String zsetKey() {
            return keyIn(6, 10);
        }

        private String listKey() {
            return keyIn(9, 12);
        }

        private String side() {
            return random.nextBoolean() ? "LEFT" : "RIGHT";
        }

        private String zsetMember() {
            return random.nextBoolean() ? integerMember() : "z" + random.nextInt(6);
        }

        private String score() {
            return pick(SCORES);
        }

        private String bound() {
            return pick(BOUNDS);
        }

        private String keyIn(int from, int to) {
            return random.nextInt(10) == 0 ? key() : "k" + random.nextInt(from, to);
        }

        private String field() {
            return "f" + random.nextInt(10);
        }

        /** An integer or one of six words: at most 20 distinct members. */
        private String member() {
            return random.nextBoolean() ? integerMember() : "m" + random.nextInt(6);
        }

        /** An integer from -2 to 11: a set of only these is an intset up to set-max-intset-entries. */
        private String integerMember() {
            return String.valueOf(random.nextInt(-2, 12));
        }

        private String value() {
            return switch (random.nextInt(4)) {
                case 0 -> String.valueOf(random.nextInt(-5, 100));
                case 1 -> pick(WORDS);
                case 2 -> "v" + random.nextInt(10);
                default -> "long-value-".repeat(1 + random.nextInt(2)) + random.nextInt(10);
            };
        }

        private String count() {
            return String.valueOf(random.nextInt(-3, 12));
        }

        private String database() {
            return String.valueOf(random.nextInt(DATABASES));
        }

        private String pick(String[] choices) {
            return choices[random.nextInt(choices.length)];
        }
    }
}
