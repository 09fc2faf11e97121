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
        throw new UnsupportedOperationException();
    }

    /** The field's value, or null. */
    public byte[] get(byte[] field) {
        throw new UnsupportedOperationException();
    }

    public boolean contains(byte[] field) {
        throw new UnsupportedOperationException();
    }

    /** Sets the field's value; true if the field is new. */
    public boolean put(byte[] field, byte[] value) {
        throw new UnsupportedOperationException();
    }

    /** Removes the field; true if it was there. Removing the last field deletes the key. */
    public boolean remove(byte[] field) {
        throw new UnsupportedOperationException();
    }

    /** Calls {@code visitor} with each field and its value, in the encoding's order (insertion order for listpack). */
    public void forEach(BiConsumer<byte[], byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /**
     * HSCAN's step: visits the fields of the bucket the cursor names and returns the next cursor,
     * 0 when done; a listpack hash visits every field at once and returns 0, as Redis does.
     * The visitor must not change the hash.
     */
    public long scan(long cursor, BiConsumer<byte[], byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /** A field and its value, {@code {field, value}}, drawn at random; the hash must not be empty. */
    public byte[][] randomEntry() {
        throw new UnsupportedOperationException();
    }

    /** OBJECT ENCODING's name: listpack or hashtable. */
    public String encoding() {
        throw new UnsupportedOperationException();
    }
}
