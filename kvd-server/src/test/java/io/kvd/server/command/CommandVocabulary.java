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
            "DBSIZE", "FLUSHDB", "PING", "ECHO", "TIME", "INFO", "CONFIG", "COMMAND", "CLIENT", "HELLO", "SELECT",
            "NX", "XX", "GT", "LT", "EX", "PX", "EXAT", "PXAT", "KEEPTTL", "PERSIST", "MATCH", "COUNT",
            "k", "k2", "*", "0", "1", "-1", "10", "1.5", "9223372036854775807", "-9223372036854775808", "",
            "GET", "SETNAME", "LIST", "INFO", "DOCS", "hz", "inf", "nan", "1e400", "[a-", "\\"};

    /** The words a client may send to a shared server without stopping it or locking others out. */
    public static final String[] HARMLESS_WORDS = Arrays.stream(WORDS)
            .filter(w -> !w.equals("CONFIG") && !w.equals("CLIENT") && !w.equals("SHUTDOWN"))
            .toArray(String[]::new);

    private CommandVocabulary() {
    }
}
