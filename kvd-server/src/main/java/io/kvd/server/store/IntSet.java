package io.kvd.server.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The packed form of a small set of integers, as Redis's intset: {@code [count][width][value]...},
 * the count 4 bytes, then the width of every value (2, 4 or 8 bytes, the smallest that holds them
 * all; a wider value widens them all and a removal never narrows them, as intsetUpgrade), then the
 * values ascending, little-endian. So SCARD reads the count, a lookup is a binary search, and
 * SMEMBERS lists ascending, as Redis does for an intset. Members are integers in Redis's canonical
 * form ({@link StringEncoding#isCanonicalLong}); each mutation returns new bytes.
 */
final class IntSet {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int WIDTH_AT = 4;
    private static final int HEADER = 5;

    private IntSet() {
    }

    /** Whether {@code member} can be in an intset: an integer as Redis's string2ll accepts it. */
    static boolean holds(byte[] member) {
        return StringEncoding.isCanonicalLong(member);
    }

    /** The value of a member that {@link #holds} is true of. */
    static long parse(byte[] member) {
        boolean negative = member[0] == '-';
        long value = 0;
        for (int i = negative ? 1 : 0; i < member.length; i++) {
            value = value * 10 - (member[i] - '0');
        }
        return negative ? value : -value;
    }

    /** A value as the member it stands for. */
    static byte[] member(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    static int count(byte[] set) {
        return (int) INT.get(set, 0);
    }

    /** The value at {@code index} (ascending order). */
    static long get(byte[] set, int index) {
        int at = HEADER + index * set[WIDTH_AT];
        return switch (set[WIDTH_AT]) {
            case 2 -> (short) SHORT.get(set, at);
            case 4 -> (int) INT.get(set, at);
            default -> (long) LONG.get(set, at);
        };
    }

    /** The index of {@code value}, or {@code -(insertion point) - 1} (as {@link java.util.Arrays#binarySearch}). */
    static int indexOf(byte[] set, long value) {
        int low = 0;
        int high = count(set) - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            long found = get(set, middle);
            if (found < value) {
                low = middle + 1;
            } else if (found > value) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -low - 1;
    }

    /** An intset of {@code value} alone. */
    static byte[] of(long value) {
        return insert(new byte[] {0, 0, 0, 0, 2}, value, 0);
    }

    /** The set with {@code value}, absent from it, inserted at {@code index} (from {@link #indexOf}). */
    static byte[] insert(byte[] set, long value, int index) {
        int count = count(set);
        int width = Math.max(set[WIDTH_AT], widthOf(value));
        byte[] grown = new byte[HEADER + (count + 1) * width];
        INT.set(grown, 0, count + 1);
        grown[WIDTH_AT] = (byte) width;
        if (width == set[WIDTH_AT]) {
            System.arraycopy(set, HEADER, grown, HEADER, index * width);
            System.arraycopy(set, HEADER + index * width, grown, HEADER + (index + 1) * width, (count - index) * width);
        } else {
            for (int i = 0; i < count; i++) {
                put(grown, i < index ? i : i + 1, get(set, i));
            }
        }
        put(grown, index, value);
        return grown;
    }

    /** The set without the value at {@code index}. */
    static byte[] remove(byte[] set, int index) {
        int count = count(set);
        int width = set[WIDTH_AT];
        byte[] shrunk = new byte[set.length - width];
        INT.set(shrunk, 0, count - 1);
        shrunk[WIDTH_AT] = (byte) width;
        System.arraycopy(set, HEADER, shrunk, HEADER, index * width);
        System.arraycopy(set, HEADER + (index + 1) * width, shrunk, HEADER + index * width, (count - index - 1) * width);
        return shrunk;
    }

    private static void put(byte[] set, int index, long value) {
        int at = HEADER + index * set[WIDTH_AT];
        switch (set[WIDTH_AT]) {
            case 2 -> SHORT.set(set, at, (short) value);
            case 4 -> INT.set(set, at, (int) value);
            default -> LONG.set(set, at, value);
        }
    }

    private static int widthOf(long value) {
        return value == (short) value ? 2 : value == (int) value ? 4 : 8;
    }
}
