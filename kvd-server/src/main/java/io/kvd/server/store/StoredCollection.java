package io.kvd.server.store;

import java.util.function.IntPredicate;

/**
 * What {@link HashValue} and {@link SetValue} share: the key they stand for, its entry (id 0
 * while the collection does not exist yet), and how a change reaches the keyspace. A compact
 * encoding is rewritten whole and stored, or held until the end of a batch ({@link #applyAll});
 * a table is changed in place after {@link Keyspace#beforeTableChange}; a collection whose last
 * member went is deleted and becomes empty as if new. {@link ListValue} shares the entry, the
 * compact store and the deletion; its long form is a {@link QuickList} of its own, not
 * {@link #table}.
 */
abstract class StoredCollection {
    final Keyspace keyspace;
    final byte[] key;
    int id;
    Encoding encoding;
    /** The compact encoding's bytes (null for an empty new collection), or null when {@link #table} is set. */
    byte[] packed;
    MemberTable table;
    /** Inside {@link #applyAll}: compact bytes are written once, at its end. */
    private boolean holdingWrites;
    private boolean unwritten;

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    StoredCollection(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        this.keyspace = keyspace;
        this.key = key;
        this.id = id;
        this.encoding = encoding;
        this.packed = packed;
        this.table = table;
    }

    /** OBJECT ENCODING's name. */
    public String encoding() {
        return encoding.objectEncoding;
    }

    /**
     * Applies {@code change} to the items of {@code argv} from {@code from}, {@code stride} at a
     * time, as one change: a compact encoding is written to the keyspace once, not once per item
     * (a 10-field HSET rewrote its entry 10 times, and the pages kept the 9 old copies as holes
     * until a compaction). Returns for how many items {@code change} said true.
     */
    int applyAll(byte[][] argv, int from, int stride, IntPredicate change) {
        holdingWrites = true;
        int count = 0;
        try {
            for (int i = from; i + stride - 1 < argv.length; i += stride) {
                if (change.test(i)) {
                    count++;
                }
            }
        } finally {
            holdingWrites = false;
            if (unwritten) {
                write();
            }
        }
        return count;
    }

    /** The collection is now {@code bytes} in {@code to}, a compact encoding. */
    void store(Encoding to, byte[] bytes) {
        encoding = to;
        packed = bytes;
        if (holdingWrites) {
            unwritten = true;
        } else {
            write();
        }
    }

    private void write() {
        unwritten = false;
        id = keyspace.storeCompact(id, key, encoding, packed);
    }

    /** The collection moves into {@code converted}, for good: Redis never converts one back. */
    void storeTable(Encoding to, MemberTable converted) {
        encoding = to;
        id = keyspace.storeTable(id, key, to, converted);
        table = converted;
        packed = null;
        unwritten = false;
    }

    /** As {@link #storeTable}, for a collection that exists, without it counting as a change ({@link Keyspace#reencode}). */
    void reencodeTable(Encoding to, MemberTable converted) {
        encoding = to;
        keyspace.reencode(id, to, converted);
        table = converted;
        packed = null;
        unwritten = false;
    }

    /** The last member went: the key is deleted, and this collection is empty as if new. */
    void emptied(Encoding emptyEncoding) {
        keyspace.removeEmptied(id);
        id = 0;
        encoding = emptyEncoding;
        packed = null;
        table = null;
    }
}
