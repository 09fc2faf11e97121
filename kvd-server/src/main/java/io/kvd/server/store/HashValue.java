package io.kvd.server.store;

import java.util.function.BiConsumer;

/**
 * The hash stored under one key, for the command running: got from {@link Keyspace#hash} or
 * {@link Keyspace#hashForWrite} and dropped when the command ends. Changes go straight to the
 * keyspace; a hash whose last field is removed is deleted, and one got for writing that does not
 * exist yet is created by its first {@link #put}. Fields and values handed out are copies.
 *
 * <p>Small hashes are packed in the entry's own bytes ({@link Encoding#HASH_LISTPACK}, fields in
 * insertion order, as Redis's listpack); past {@link EncodingLimits} they move to a
 * {@link MemberTable} ({@link Encoding#HASH_TABLE}) and stay there.
 */
public final class HashValue {
    private final Keyspace keyspace;
    private final byte[] key;
    /** The entry's id; 0 while the collection does not exist yet. */
    private int id;
    private Encoding encoding;
    /** The compact encoding's bytes (null for an empty new collection), or null when {@link #table} is set. */
    private byte[] packed;
    private MemberTable table;
    /** Inside {@link #putAll}: compact bytes are written once, at its end, not per field. */
    private boolean holdingWrites;
    private boolean unwritten;

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    HashValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        this.keyspace = keyspace;
        this.key = key;
        this.id = id;
        this.encoding = encoding;
        this.packed = packed;
        this.table = table;
    }

    /** The number of fields. */
    public int size() {
        if (table != null) {
            return table.size();
        }
        return packed == null ? 0 : Listpack.count(packed);
    }

    /** The field's value, or null. */
    public byte[] get(byte[] field) {
        if (table != null) {
            return table.get(field);
        }
        int at = find(field);
        return at < 0 ? null : Listpack.element(packed, Listpack.next(packed, at));
    }

    public boolean contains(byte[] field) {
        return table != null ? table.contains(field) : find(field) >= 0;
    }

    /**
     * Sets the field's value; true if the field is new. A field or value longer than
     * hash-max-listpack-value converts a listpack first (HSET's hashTypeTryConversion), and more
     * fields than hash-max-listpack-entries after the insert convert it (hashTypeConvert).
     */
    public boolean put(byte[] field, byte[] value) {
        EncodingLimits limits = keyspace.limits();
        if (table == null && (field.length > limits.hashMaxListpackValue() || value.length > limits.hashMaxListpackValue())) {
            convertToTable();
        }
        if (table != null) {
            keyspace.beforeTableChange(id);
            return table.put(field, value);
        }
        byte[] listpack = packed == null ? Listpack.EMPTY : packed;
        int at = find(field);
        boolean added = at < 0;
        store(added ? Listpack.append(listpack, field, value) : Listpack.replace(listpack, Listpack.next(listpack, at), value));
        // As Redis's hashTypeSet: checked after an update too, so a lowered limit converts at the next HSET.
        if (Listpack.count(packed) > limits.hashMaxListpackEntries()) {
            convertToTable();
        }
        return added;
    }

    /**
     * HSET's pairs, {@code argv[from]} onwards: what a {@link #put} of each does, but a compact
     * hash is written to the keyspace once, not once per field (a 10-field HSET rewrote the
     * entry 10 times, and the pages kept the 9 old copies as holes until a compaction).
     * Returns how many fields were new.
     */
    public int putAll(byte[][] argv, int from) {
        holdingWrites = true;
        int created = 0;
        try {
            for (int i = from; i + 1 < argv.length; i += 2) {
                if (put(argv[i], argv[i + 1])) {
                    created++;
                }
            }
        } finally {
            holdingWrites = false;
            if (unwritten) {
                write();
            }
        }
        return created;
    }

    /** Removes the field; true if it was there. Removing the last field deletes the key. */
    public boolean remove(byte[] field) {
        if (table != null) {
            if (!table.contains(field)) {
                return false;
            }
            if (table.size() == 1) {
                emptied();
            } else {
                keyspace.beforeTableChange(id);
                table.remove(field);
            }
            return true;
        }
        int at = find(field);
        if (at < 0) {
            return false;
        }
        if (Listpack.count(packed) == 1) {
            emptied();
        } else {
            store(Listpack.remove(packed, at, 2));
        }
        return true;
    }

    /** Calls {@code visitor} with each field and its value, in the encoding's order (insertion order for listpack). */
    public void forEach(BiConsumer<byte[], byte[]> visitor) {
        if (table != null) {
            table.forEach(visitor);
        } else if (packed != null) {
            int at = Listpack.first(packed);
            for (int i = Listpack.count(packed); i > 0; i--) {
                int valueAt = Listpack.next(packed, at);
                visitor.accept(Listpack.element(packed, at), Listpack.element(packed, valueAt));
                at = Listpack.next(packed, valueAt);
            }
        }
    }

    /**
     * HSCAN's step: visits the fields of the bucket the cursor names and returns the next cursor,
     * 0 when done; a listpack hash visits every field at once and returns 0, as Redis does.
     * The visitor must not change the hash.
     */
    public long scan(long cursor, BiConsumer<byte[], byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, visitor);
        }
        forEach(visitor);
        return 0;
    }

    /** A field and its value, {@code {field, value}}, drawn at random; the hash must not be empty. */
    public byte[][] randomEntry() {
        if (table != null) {
            return table.random(keyspace.random());
        }
        int at = Listpack.entry(packed, keyspace.random().nextInt(Listpack.count(packed)), 2);
        return new byte[][] {Listpack.element(packed, at), Listpack.element(packed, Listpack.next(packed, at))};
    }

    /** OBJECT ENCODING's name: listpack or hashtable. */
    public String encoding() {
        return encoding.objectEncoding;
    }

    /** The field's position in the listpack, or -1 (also when the hash does not exist yet). */
    private int find(byte[] field) {
        return packed == null ? -1 : Listpack.find(packed, field, 2);
    }

    private void store(byte[] listpack) {
        packed = listpack;
        if (holdingWrites) {
            unwritten = true;
        } else {
            write();
        }
    }

    private void write() {
        unwritten = false;
        id = keyspace.storeCompact(id, key, Encoding.HASH_LISTPACK, packed);
    }

    /** Moves the fields into a table, for good (Redis never converts a hash back). */
    private void convertToTable() {
        MemberTable converted = new MemberTable();
        forEach(converted::put);
        encoding = Encoding.HASH_TABLE;
        id = keyspace.storeTable(id, key, encoding, converted);
        table = converted;
        packed = null;
        unwritten = false;
    }

    /** The last field went: the key is deleted, and this hash is empty as if new. */
    private void emptied() {
        keyspace.removeEmptied(id);
        id = 0;
        encoding = Encoding.HASH_LISTPACK;
        packed = null;
        table = null;
    }
}
