package io.kvd.server.command;

import java.util.Arrays;

/** Command names, options and awkward values that random tests draw from, so they reach deep into commands. */
public final class CommandVocabulary {
    public static final String[] WORDS = {
            "GET", "SET", "SETNX", "SETEX", "PSETEX", "GETSET", "GETDEL", "GETEX", "MGET", "MSET", "MSETNX",
            "APPEND", "STRLEN", "GETRANGE", "SETRANGE", "INCR", "DECR", "INCRBY", "DECRBY", "INCRBYFLOAT",
            "DEL", "UNLINK", "EXISTS", "TOUCH", "TYPE", "RENAME", "RENAMENX", "KEYS", "SCAN", "RANDOMKEY",
            "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME", "PERSIST",
            "HSET", "HSETNX", "HGET", "HMSET", "HMGET", "HGETALL", "HDEL", "HLEN", "HEXISTS", "HKEYS", "HVALS",
            "HINCRBY", "HINCRBYFLOAT", "HSTRLEN", "HRANDFIELD", "HSCAN", "WITHVALUES",
            "SADD", "SREM", "SMEMBERS", "SISMEMBER", "SCARD", "SPOP", "SRANDMEMBER", "SMOVE", "SINTER",
            "SUNIONSTORE", "SDIFF", "SINTERCARD", "SSCAN",
            "LPUSH", "RPUSH", "LPUSHX", "LPOP", "RPOP", "LLEN", "LINDEX", "LSET", "LINSERT", "LRANGE", "LTRIM",
            "LREM", "LPOS", "LMOVE", "RPOPLPUSH", "LMPOP", "LEFT", "RIGHT", "BEFORE", "AFTER", "RANK", "MAXLEN",
            "ZADD", "ZINCRBY", "ZCARD", "ZSCORE", "ZRANK", "ZREM", "ZRANGE", "ZRANGEBYSCORE", "ZRANGEBYLEX",
            "ZREVRANGE", "ZCOUNT", "ZPOPMIN", "ZPOPMAX", "ZMPOP", "ZREMRANGEBYSCORE", "ZRANGESTORE",
            "ZUNIONSTORE", "ZINTER", "ZDIFF", "ZINTERCARD", "ZRANDMEMBER", "ZSCAN", "MIN", "MAX", "BYSCORE",
            "BYLEX", "REV", "LIMIT", "WITHSCORES", "WEIGHTS", "AGGREGATE", "SUM", "INCR", "CH",
            "(1", "+inf", "-inf", "+", "-", "[a", "(a", "0.01",
            "BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP",
            "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH", "MOVE", "COPY", "SWAPDB",
            "DBSIZE", "FLUSHDB", "PING", "ECHO", "TIME", "INFO", "CONFIG", "COMMAND", "CLIENT", "HELLO", "SELECT",
            "NX", "XX", "GT", "LT", "EX", "PX", "EXAT", "PXAT", "KEEPTTL", "PERSIST", "MATCH", "COUNT",
            "k", "k2", "*", "0", "1", "-1", "10", "1.5", "9223372036854775807", "-9223372036854775808", "",
            "GET", "SETNAME", "LIST", "INFO", "DOCS", "hz", "inf", "nan", "1e400", "[a-", "\\",
            "SETBIT", "GETBIT", "BITCOUNT", "BITPOS", "BITOP", "AND", "OR", "XOR", "NOT", "BIT", "BYTE",
            "SORT", "SORT_RO", "BY", "ALPHA", "ASC", "DESC", "STORE", "#", "nosort", "k*", "k*->f",
            "LCS", "LEN", "IDX", "MINMATCHLEN", "WITHMATCHLEN",
            "BITFIELD", "BITFIELD_RO", "OVERFLOW", "WRAP", "SAT", "FAIL", "u8", "i64", "u63", "i1", "#1",
            "GEOADD", "GEOPOS", "GEODIST", "GEOHASH", "GEOSEARCH", "GEOSEARCHSTORE", "GEORADIUS",
            "GEORADIUSBYMEMBER", "GEORADIUS_RO", "FROMMEMBER", "FROMLONLAT", "BYRADIUS", "BYBOX", "WITHDIST",
            "WITHCOORD", "WITHHASH", "STOREDIST", "ANY", "km", "m", "180", "85.05112878", "1e30",
            "PFADD", "PFCOUNT", "PFMERGE", "PFDEBUG", "GETREG", "DECODE", "ENCODING", "TODENSE", "HYLL",
            "HYLL\u0001\0\0\0\0\0\0\0\0\0\0\u0080\u007f"};

    /**
     * The words a client may send to a shared server without stopping it, locking others out or
     * parking itself in a blocking pop for the rest of its traffic.
     */
    public static final String[] HARMLESS_WORDS = Arrays.stream(WORDS)
            .filter(w -> !w.equals("CONFIG") && !w.equals("CLIENT") && !w.equals("SHUTDOWN"))
            .filter(w -> !w.matches("B[LRZ].*"))
            .toArray(String[]::new);

    private CommandVocabulary() {
    }
}
