package io.kvd.server.store;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The list stored under one key, for the command running: got from {@link Keyspace#list} or
 * {@link Keyspace#listForWrite} and dropped when the command ends. Changes go straight to the
 * keyspace; a list whose last element goes is deleted, and one got for writing that does not
 * exist yet is created by its first push. Elements handed out are copies, or visited in place.
 *
 * <p>A list that fits one node of list-max-listpack-size (8 KB by default) is packed in the
 * entry's bytes ({@link Encoding#LIST_PACKED}, {@link Listpack}'s format): a command unpacks it
 * into a one-node {@link QuickList}, works there, and stores it packed again once, however many
 * elements it pushed. A longer list is a {@link QuickList} held by handle
 * ({@link Encoding#LIST_QUICKLIST}) and changed in place, and stays one, as Redis 7.0's lists
 * (all quicklists, which OBJECT ENCODING says of both).
 */
public final class ListValue extends StoredCollection {
    /** Visits an element where it lies ({@code bytes[offset, offset + length)}); false stops the walk. */
    @FunctionalInterface
    public interface ElementVisitor {
        boolean visit(byte[] bytes, int offset, int length);
    }

    private QuickList list;

    /** For a read only (a snapshot's), {@code id} may be 0 with the value given. */
    ListValue(Keyspace keyspace, byte[] key, int id, Encoding encoding, byte[] packed, QuickList large) {
        super(keyspace, key, id, encoding, packed, null);
        int fill = keyspace.limits().listMaxListpackSize();
        if (large != null) {
            large.setFill(fill);
            list = large;
        } else {
            list = packed == null ? new QuickList(fill) : QuickList.fromListpack(packed, fill);
        }
    }

    public long size() {
        return list.size();
    }

    /** LPUSH/RPUSH's elements, {@code argv[from]} onwards, one by one at the head or the tail; the new length. */
    public long pushAll(byte[][] argv, int from, boolean head) {
        beforeChange();
        for (int i = from; i < argv.length; i++) {
            if (head) {
                list.pushFirst(argv[i]);
            } else {
                list.pushLast(argv[i]);
            }
        }
        afterChange();
        return list.size();
    }

    /** Pushes one element at the head or the tail. */
    public void push(byte[] element, boolean head) {
        beforeChange();
        if (head) {
            list.pushFirst(element);
        } else {
            list.pushLast(element);
        }
        afterChange();
    }

    /** Removes and returns the head or tail element; the list must not be empty. */
    public byte[] pop(boolean head) {
        beforeChange();
        byte[] element = head ? list.popFirst() : list.popLast();
        afterChange();
        return element;
    }

    /** Pops up to {@code count} elements from one end, each handed to {@code popped} in order, as one change. */
    public void pop(boolean head, long count, Consumer<byte[]> popped) {
        if (count == 0) {
            return;
        }
        beforeChange();
        for (long i = Math.min(count, list.size()); i > 0; i--) {
            popped.accept(head ? list.popFirst() : list.popLast());
        }
        afterChange();
    }

    /** The element at {@code index} (negative counts from the tail), or null out of range. */
    public byte[] get(long index) {
        long at = index < 0 ? list.size() + index : index;
        return at < 0 || at >= list.size() ? null : list.get(at);
    }

    /** LSET: replaces the element at {@code index} (negative from the tail); false out of range. */
    public boolean set(long index, byte[] element) {
        long at = index < 0 ? list.size() + index : index;
        if (at < 0 || at >= list.size()) {
            return false;
        }
        beforeChange();
        list.set(at, element);
        afterChange();
        return true;
    }

    /** LINSERT: {@code element} before or after the first {@code pivot}; the new length, or -1 without the pivot. */
    public long insert(byte[] pivot, byte[] element, boolean after) {
        long[] found = {-1};
        long[] index = {0};
        list.walk(0, false, (bytes, offset, length) -> {
            if (equal(bytes, offset, length, pivot)) {
                found[0] = index[0];
                return false;
            }
            index[0]++;
            return true;
        });
        if (found[0] < 0) {
            return -1;
        }
        beforeChange();
        list.insert(after ? found[0] + 1 : found[0], element);
        afterChange();
        return list.size();
    }

    /** LTRIM: keeps elements {@code start} to {@code stop} (inclusive, 0-based, already in range, or none when start > stop). */
    public void trim(long start, long stop) {
        long size = list.size();
        long dropFirst = start > stop ? size : start;
        long dropLast = start > stop ? 0 : size - 1 - stop;
        if (dropFirst == 0 && dropLast == 0) {
            return;
        }
        beforeChange();
        list.removeFirst(dropFirst);
        list.removeLast(dropLast);
        afterChange();
    }

    /** LREM: removes up to |count| elements equal to {@code value} (0: all), from the tail when count is negative. */
    public long remove(long count, byte[] value) {
        long removed = list.removeAll(value, count == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(count), count < 0,
                this::beforeChange);
        if (removed > 0) {
            afterChange();
        }
        return removed;
    }

    /** Visits elements from {@code index} (0 to size - 1) towards the tail, or the head when {@code reverse}. */
    public void walk(long index, boolean reverse, ElementVisitor visitor) {
        list.walk(index, reverse, visitor::visit);
    }

    /** Every element, head to tail, as copies. */
    public void forEach(Consumer<byte[]> visitor) {
        list.walk(0, false, (bytes, offset, length) -> {
            byte[] element = new byte[length];
            System.arraycopy(bytes, offset, element, 0, length);
            visitor.accept(element);
            return true;
        });
    }

    /** Whether the element {@code bytes[offset, offset + length)} is {@code value}. */
    public static boolean equal(byte[] bytes, int offset, int length, byte[] value) {
        return length == value.length && Arrays.equals(bytes, offset, offset + length, value, 0, length);
    }

    /** A list held by handle is changed in place: the keyspace is told first (a snapshot copies it). */
    private void beforeChange() {
        if (encoding.table) {
            keyspace.beforeTableChange(id);
        }
    }

    /** Stores the change: deletes an emptied list, packs a small one, or moves one grown past a node to its handle. */
    private void afterChange() {
        if (list.size() == 0) {
            if (id != 0) {
                emptied(Encoding.LIST_PACKED);
            }
            list = new QuickList(keyspace.limits().listMaxListpackSize());
        } else if (!encoding.table) {
            if (list.fitsOneNode()) {
                store(Encoding.LIST_PACKED, list.toListpack());
            } else {
                encoding = Encoding.LIST_QUICKLIST;
                id = keyspace.storeTable(id, key, encoding, list);
                packed = null;
            }
        }
    }
}
