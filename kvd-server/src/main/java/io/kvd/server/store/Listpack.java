package io.kvd.server.store;

import java.util.Arrays;

/**
 * The packed form of a small hash or of a small set that is not all integers, after Redis's
 * listpack: {@code [count][element]...}, the count a varint, each element a varint length and its
 * bytes. A hash is a listpack of field, value, field, value... whose count is its number of
 * fields; a set's elements are its members. So HLEN and SCARD read one varint, and a lookup walks
 * the elements comparing lengths first, as Redis's listpack is walked (these stay under a few
 * hundred elements).
 *
 * <p>Each mutation returns new bytes (the entry is then stored again); positions are offsets of
 * an element's length varint, as {@link #first} and {@link #next} give them.
 */
final class Listpack {
    /** A listpack without elements; never stored (an emptied collection is deleted). */
    static final byte[] EMPTY = {0};

    private Listpack() {
    }

    /** Entries: fields of a hash, members of a set. */
    static int count(byte[] listpack) {
        return Varint.read(listpack, 0);
    }

    /** The position of the first element. */
    static int first(byte[] listpack) {
        return Varint.length(count(listpack));
    }

    /** The position after the element at {@code at}. */
    static int next(byte[] listpack, int at) {
        int length = Varint.read(listpack, at);
        return at + Varint.length(length) + length;
    }

    /** A copy of the element at {@code at}. */
    static byte[] element(byte[] listpack, int at) {
        int length = Varint.read(listpack, at);
        int start = at + Varint.length(length);
        return Arrays.copyOfRange(listpack, start, start + length);
    }

    /**
     * The position of the first element equal to {@code element} among every {@code stride}-th
     * one (2 for a hash's fields, 1 for a set's members), or -1.
     */
    static int find(byte[] listpack, byte[] element, int stride) {
        int elements = count(listpack) * stride;
        int at = first(listpack);
        for (int i = 0; i < elements; i += stride) {
            int length = Varint.read(listpack, at);
            int start = at + Varint.length(length);
            if (length == element.length && Arrays.equals(listpack, start, start + length, element, 0, length)) {
                return at;
            }
            at = start + length;
            for (int skip = 1; skip < stride; skip++) {
                at = next(listpack, at);
            }
        }
        return -1;
    }

    /** The position of entry {@code index} (0-based) when each entry is {@code stride} elements. */
    static int entry(byte[] listpack, int index, int stride) {
        int at = first(listpack);
        for (int i = index * stride; i > 0; i--) {
            at = next(listpack, at);
        }
        return at;
    }

    /** The listpack with {@code elements} appended as one more entry. */
    static byte[] append(byte[] listpack, byte[]... elements) {
        int count = count(listpack);
        int oldHeader = Varint.length(count);
        int added = 0;
        for (byte[] element : elements) {
            added += Varint.length(element.length) + element.length;
        }
        int body = listpack.length - oldHeader;
        byte[] grown = new byte[Varint.length(count + 1) + body + added];
        int at = Varint.write(grown, 0, count + 1);
        System.arraycopy(listpack, oldHeader, grown, at, body);
        at += body;
        for (byte[] element : elements) {
            at = Varint.write(grown, at, element.length);
            System.arraycopy(element, 0, grown, at, element.length);
            at += element.length;
        }
        return grown;
    }

    /** The listpack with the element at {@code at} replaced by {@code element}, in its place (lpReplace). */
    static byte[] replace(byte[] listpack, int at, byte[] element) {
        int end = next(listpack, at);
        byte[] replaced = new byte[listpack.length - (end - at) + Varint.length(element.length) + element.length];
        System.arraycopy(listpack, 0, replaced, 0, at);
        int to = Varint.write(replaced, at, element.length);
        System.arraycopy(element, 0, replaced, to, element.length);
        System.arraycopy(listpack, end, replaced, to + element.length, listpack.length - end);
        return replaced;
    }

    /** The listpack without the entry of {@code stride} elements starting at {@code at}. */
    static byte[] remove(byte[] listpack, int at, int stride) {
        int count = count(listpack);
        int oldHeader = Varint.length(count);
        int newHeader = Varint.length(count - 1);
        int end = at;
        for (int i = 0; i < stride; i++) {
            end = next(listpack, end);
        }
        byte[] shrunk = new byte[listpack.length - (end - at) - oldHeader + newHeader];
        Varint.write(shrunk, 0, count - 1);
        System.arraycopy(listpack, oldHeader, shrunk, newHeader, at - oldHeader);
        System.arraycopy(listpack, end, shrunk, at - oldHeader + newHeader, listpack.length - end);
        return shrunk;
    }
}
