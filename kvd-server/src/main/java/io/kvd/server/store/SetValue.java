package io.kvd.server.store;

import java.util.function.Consumer;

/**
 * The set stored under one key, for the command running: got from {@link Keyspace#set} or
 * {@link Keyspace#setForWrite} and dropped when the command ends. Changes go straight to the
 * keyspace; a set whose last member is removed is deleted, and one got for writing that does not
 * exist yet is created by its first {@link #add}. Members handed out are copies.
 *
 * <p>A small set of integers is an intset ({@link Encoding#SET_INTSET}, ascending, as Redis's); a
 * small set with other members is packed too ({@link Encoding#SET_LISTPACK}); past
 * {@link EncodingLimits} a set moves to a {@link MemberTable} ({@link Encoding#SET_TABLE}) and
 * stays there.
 */
public final class SetValue {
    private final Keyspace keyspace;
    private final byte[] key;
    /** The entry's id; 0 while the collection does not exist yet. */
    private int id;
    private Encoding encoding;
    /** The compact encoding's bytes (null for an empty new collection), or null when {@link #table} is set. */
    private byte[] packed;
    private MemberTable table;

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    SetValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        this.keyspace = keyspace;
        this.key = key;
        this.id = id;
        this.encoding = encoding;
        this.packed = packed;
        this.table = table;
    }

    /** The number of members. */
    public int size() {
        throw new UnsupportedOperationException();
    }

    public boolean contains(byte[] member) {
        throw new UnsupportedOperationException();
    }

    /** Adds the member; true if it is new. */
    public boolean add(byte[] member) {
        throw new UnsupportedOperationException();
    }

    /** Removes the member; true if it was there. Removing the last member deletes the key. */
    public boolean remove(byte[] member) {
        throw new UnsupportedOperationException();
    }

    /** Calls {@code visitor} with each member, in the encoding's order (ascending for an intset). */
    public void forEach(Consumer<byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /**
     * SSCAN's step: visits the members of the bucket the cursor names and returns the next cursor,
     * 0 when done; a compact set visits every member at once and returns 0, as Redis does for an
     * intset. The visitor must not change the set.
     */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /** A member drawn at random; the set must not be empty. */
    public byte[] randomMember() {
        throw new UnsupportedOperationException();
    }

    /** OBJECT ENCODING's name: intset or hashtable. */
    public String encoding() {
        throw new UnsupportedOperationException();
    }
}
