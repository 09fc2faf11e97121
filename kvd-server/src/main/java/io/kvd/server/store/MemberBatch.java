package io.kvd.server.store;

/**
 * One collection's members on their way to a snapshot's {@link KeyspaceSnapshot.Sink}: gathered
 * into batches of up to a fixed number of members (an AOF rewrite's commands of 64 items), each
 * passed on full, under the key and database the collection had when the snapshot handed it out.
 */
final class MemberBatch {
    private final KeyspaceSnapshot.Sink sink;
    private final int db;
    private final byte[] key;
    private final ValueType type;
    /** A set's members, or a hash's fields each followed by its value. */
    private final byte[][] elements;
    private int length;

    MemberBatch(KeyspaceSnapshot.Sink sink, int db, byte[] key, ValueType type, int maxMembers) {
        this.sink = sink;
        this.db = db;
        this.key = key;
        this.type = type;
        this.elements = new byte[hasValues() ? 2 * maxMembers : maxMembers][];
    }

    /** Whether a member comes with a value (a hash's field does, a sorted set's member its score; a set's member has none). */
    boolean hasValues() {
        return type == ValueType.HASH || type == ValueType.ZSET;
    }

    /** Adds a member ({@code value} ignored for a set), passing the batch on once full. */
    void add(byte[] member, byte[] value) {
        elements[length++] = member;
        if (hasValues()) {
            elements[length++] = value;
        }
        if (length == elements.length) {
            flush();
        }
    }

    /** Every member was added: passes on the rest, then the end of the collection with its deadline. */
    void end(long deadline) {
        flush();
        sink.membersEnd(db, key, deadline);
    }

    private void flush() {
        if (length > 0) {
            sink.members(db, key, type, elements, length);
            length = 0;
        }
    }
}
