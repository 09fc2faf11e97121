package io.kvd.server.store;

/**
 * How a key's value is stored; its ordinal is the entry's tag in the {@link EntrySlab}. A compact
 * encoding keeps the whole value in the entry's bytes in the pages, like Redis's listpack and
 * intset; a table encoding keeps a {@link MemberTable} (or a list's {@link QuickList}) aside, and the entry's bytes name it.
 * STRING is 0, the tag of an entry never tagged.
 */
enum Encoding {
    STRING(ValueType.STRING, null, false),
    /** A string APPEND or SETRANGE changed: Redis's raw encoding, whatever the bytes. */
    STRING_RAW(ValueType.STRING, "raw", false),
    HASH_LISTPACK(ValueType.HASH, "listpack", false),
    HASH_TABLE(ValueType.HASH, "hashtable", true),
    SET_INTSET(ValueType.SET, "intset", false),
    /**
     * A small set with a member that is not an integer, packed like a listpack. Redis 7.0 keeps
     * such a set in a hashtable (listpack sets came in 7.2), so OBJECT ENCODING says hashtable.
     */
    SET_LISTPACK(ValueType.SET, "hashtable", false),
    SET_TABLE(ValueType.SET, "hashtable", true),
    /** A list within one node of list-max-listpack-size, packed like a listpack; Redis 7.0 says quicklist of every list. */
    LIST_PACKED(ValueType.LIST, "quicklist", false),
    /** A longer list: a {@link QuickList} held by handle like a table. */
    LIST_QUICKLIST(ValueType.LIST, "quicklist", true),
    /** A small sorted set: members and their scores in (score, member) order ({@link ZSetValue}). */
    ZSET_LISTPACK(ValueType.ZSET, "listpack", false),
    /** A large sorted set: a {@link MemberTable} of member to score with its {@link ScoreOrder}. */
    ZSET_SKIPLIST(ValueType.ZSET, "skiplist", true),
    /** A stream, empty or not: a {@link Stream} held by handle like a table. */
    STREAM(ValueType.STREAM, "stream", true);

    private static final Encoding[] BY_TAG = values();

    final ValueType type;
    /** OBJECT ENCODING's answer; null for strings, whose name depends on the value. */
    final String objectEncoding;
    /** Whether the entry's bytes are a {@link MemberTable}'s handle instead of the value. */
    final boolean table;

    Encoding(ValueType type, String objectEncoding, boolean table) {
        this.type = type;
        this.objectEncoding = objectEncoding;
        this.table = table;
    }

    static Encoding ofTag(int tag) {
        return BY_TAG[tag];
    }
}
