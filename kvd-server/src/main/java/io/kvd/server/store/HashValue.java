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
public final class HashValue extends StoredCollection {
    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    HashValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        super(keyspace, key, id, encoding, packed, table);
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
        store(Encoding.HASH_LISTPACK, added ? Listpack.append(listpack, field, value) : Listpack.replace(listpack, Listpack.next(listpack, at), value));
        // As Redis's hashTypeSet: checked after an update too, so a lowered limit converts at the next HSET.
        if (Listpack.count(packed) > limits.hashMaxListpackEntries()) {
            convertToTable();
        }
        return added;
    }

    /**
     * HSET's pairs, {@code argv[from]} onwards: what a {@link #put} of each does, in one write
     * of a compact hash ({@link #applyAll}). Returns how many fields were new.
     */
    public int putAll(byte[][] argv, int from) {
        return applyAll(argv, from, 2, i -> put(argv[i], argv[i + 1]));
    }

    /** Removes the field; true if it was there. Removing the last field deletes the key. */
    public boolean remove(byte[] field) {
        if (table != null) {
            if (!table.contains(field)) {
                return false;
            }
            if (table.size() == 1) {
                emptied(Encoding.HASH_LISTPACK);
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
            emptied(Encoding.HASH_LISTPACK);
        } else {
            store(Encoding.HASH_LISTPACK, Listpack.remove(packed, at, 2));
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

    /** The field's position in the listpack, or -1 (also when the hash does not exist yet). */
    private int find(byte[] field) {
        return packed == null ? -1 : Listpack.find(packed, field, 2);
    }

    /** Moves the fields into a table, for good (Redis never converts a hash back). */
    private void convertToTable() {
        MemberTable converted = new MemberTable();
        forEach(converted::put);
        storeTable(Encoding.HASH_TABLE, converted);
    }

}
