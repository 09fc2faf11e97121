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
public final class SetValue extends StoredCollection {
    /**
     * A set of other members stays packed up to this many members, and members up to
     * {@link #LISTPACK_MAX_MEMBER} bytes (Redis 7.2's set-max-listpack-entries and -value defaults).
     */
    static final int LISTPACK_MAX_ENTRIES = 128;
    static final int LISTPACK_MAX_MEMBER = 64;
    private static final byte[] NO_VALUE = {};

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    SetValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, MemberTable table) {
        super(keyspace, key, id, encoding, packed, table);
    }

    /** The number of members. */
    public int size() {
        if (table != null) {
            return table.size();
        }
        if (packed == null) {
            return 0;
        }
        return encoding == Encoding.SET_INTSET ? IntSet.count(packed) : Listpack.count(packed);
    }

    public boolean contains(byte[] member) {
        if (table != null) {
            return table.contains(member);
        }
        if (packed == null) {
            return false;
        }
        if (encoding == Encoding.SET_INTSET) {
            return IntSet.holds(member) && IntSet.indexOf(packed, IntSet.parse(member)) >= 0;
        }
        return Listpack.find(packed, member, 1) >= 0;
    }

    /**
     * Adds the member; true if it is new. An intset takes integers up to set-max-intset-entries
     * (Redis's setTypeAdd converts once the size passes it); another member moves a small set to
     * the packed listpack, and past {@link #LISTPACK_MAX_ENTRIES} or {@link #LISTPACK_MAX_MEMBER}
     * a set moves to a table for good.
     */
    public boolean add(byte[] member) {
        if (table == null && encoding == Encoding.SET_INTSET) {
            if (IntSet.holds(member)) {
                return addToIntSet(IntSet.parse(member));
            }
            if (contains(member)) {
                return false;
            }
            convert(size() < LISTPACK_MAX_ENTRIES && member.length <= LISTPACK_MAX_MEMBER
                    ? Encoding.SET_LISTPACK : Encoding.SET_TABLE);
        }
        if (table == null) {
            if (Listpack.find(packed, member, 1) >= 0) {
                return false;
            }
            if (member.length <= LISTPACK_MAX_MEMBER && Listpack.count(packed) < LISTPACK_MAX_ENTRIES) {
                store(Encoding.SET_LISTPACK, Listpack.append(packed, member));
                return true;
            }
            convert(Encoding.SET_TABLE);
        }
        if (table.contains(member)) {
            return false;
        }
        keyspace.beforeTableChange(id);
        table.put(member, NO_VALUE);
        return true;
    }

    private boolean addToIntSet(long value) {
        if (packed == null) {
            store(Encoding.SET_INTSET, IntSet.of(value));
        } else {
            int index = IntSet.indexOf(packed, value);
            if (index >= 0) {
                return false;
            }
            store(Encoding.SET_INTSET, IntSet.insert(packed, value, -index - 1));
        }
        if (IntSet.count(packed) > keyspace.limits().setMaxIntsetEntries()) {
            convert(Encoding.SET_TABLE);
        }
        return true;
    }

    /** Removes the member; true if it was there. Removing the last member deletes the key. */
    public boolean remove(byte[] member) {
        if (!contains(member)) {
            return false;
        }
        if (size() == 1) {
            emptied(Encoding.SET_INTSET);
        } else if (table != null) {
            keyspace.beforeTableChange(id);
            table.remove(member);
        } else if (encoding == Encoding.SET_INTSET) {
            store(encoding, IntSet.remove(packed, IntSet.indexOf(packed, IntSet.parse(member))));
        } else {
            store(encoding, Listpack.remove(packed, Listpack.find(packed, member, 1), 1));
        }
        return true;
    }

    /** Calls {@code visitor} with each member, in the encoding's order (ascending for an intset). */
    public void forEach(Consumer<byte[]> visitor) {
        if (table != null) {
            table.forEach((member, value) -> visitor.accept(member));
        } else if (packed == null) {
            return;
        } else if (encoding == Encoding.SET_INTSET) {
            for (int i = 0, count = IntSet.count(packed); i < count; i++) {
                visitor.accept(IntSet.member(IntSet.get(packed, i)));
            }
        } else {
            int at = Listpack.first(packed);
            for (int i = Listpack.count(packed); i > 0; i--) {
                visitor.accept(Listpack.element(packed, at));
                at = Listpack.next(packed, at);
            }
        }
    }

    /**
     * SSCAN's step: visits the members of the bucket the cursor names and returns the next cursor,
     * 0 when done; a compact set visits every member at once and returns 0, as Redis does for an
     * intset. The visitor must not change the set.
     */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, (member, value) -> visitor.accept(member));
        }
        forEach(visitor);
        return 0;
    }

    /** A member drawn at random; the set must not be empty. */
    public byte[] randomMember() {
        if (table != null) {
            return table.random(keyspace.random())[0];
        }
        int index = keyspace.random().nextInt(size());
        return encoding == Encoding.SET_INTSET ? IntSet.member(IntSet.get(packed, index))
                : Listpack.element(packed, Listpack.entry(packed, index, 1));
    }

    /**
     * SADD's members, {@code argv[from]} onwards: what an {@link #add} of each does, in one write
     * of a compact set ({@link #applyAll}). Returns how many were new.
     */
    public int addAll(byte[][] argv, int from) {
        return applyAll(argv, from, 1, i -> add(argv[i]));
    }

    /** Moves the members to a listpack or, for good, to a table (Redis never converts a set back). */
    private void convert(Encoding to) {
        if (to == Encoding.SET_TABLE) {
            MemberTable converted = new MemberTable();
            forEach(member -> converted.put(member, NO_VALUE));
            storeTable(to, converted);
        } else if (packed == null) {
            // A new set: its first member's append creates it.
            encoding = to;
            packed = Listpack.EMPTY;
        } else {
            byte[][] listpack = {Listpack.EMPTY};
            forEach(member -> listpack[0] = Listpack.append(listpack[0], member));
            store(to, listpack[0]);
        }
    }

}
