package io.kvd.it;

import io.kvd.codec.RespReplyParser;
import io.kvd.it.support.Escape;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a reply is compared with Redis's. Redis answers hashtable-encoded hashes and sets in the order
 * of its hash table, which follows a hash seed drawn at startup: two correct servers may order those
 * replies differently. Comparing canonical forms ignores that order and nothing else.
 */
enum ReplyOrder {
    /** Byte for byte: the order is part of the reply (listpack hashes keep insertion order, intsets are sorted). */
    EXACT(1),
    /** An array as a multiset of its elements, as SMEMBERS or HKEYS of a hashtable. */
    UNORDERED(1),
    /** An array as a multiset of consecutive (field, value) pairs, as HGETALL of a hashtable. */
    UNORDERED_PAIRS(2);

    /** How many consecutive elements sort as one, so that a field keeps its value (unused by EXACT). */
    private final int groupSize;

    ReplyOrder(int groupSize) {
        this.groupSize = groupSize;
    }

    /**
     * The reply (complete RESP bytes: an array, or RESP3's set or map) with its elements, or groups of elements, sorted. A SCAN-style
     * reply, {@code [cursor, [elements]]}, keeps its cursor and has its inner array sorted: no
     * unordered reply is otherwise a two-element array holding an array. Anything but an array
     * (an error, an integer, a null) is returned as it is, as is an array that does not split into
     * whole pairs.
     */
    byte[] canonical(byte[] reply) {
        if (this == EXACT || reply.length == 0 || reply[0] != '*' && reply[0] != '~' && reply[0] != '%') {
            return reply;
        }
        int headerLength = indexOfCrlf(reply) + 2;
        List<byte[]> elements = elements(reply, headerLength);
        ByteArrayOutputStream out = new ByteArrayOutputStream(reply.length);
        out.write(reply, 0, headerLength);
        if (elements.size() == 2 && elements.get(1)[0] == '*') {
            out.writeBytes(elements.get(0));
            out.writeBytes(canonical(elements.get(1)));
            return out.toByteArray();
        }
        // RESP3 nests pairs (HRANDFIELD WITHVALUES): each element is already a whole pair.
        int size = elements.stream().allMatch(ReplyOrder::isPair) ? 1 : groupSize;
        if (elements.size() % size != 0) {
            return reply;
        }
        List<byte[]> groups = new ArrayList<>();
        for (int i = 0; i < elements.size(); i += size) {
            ByteArrayOutputStream group = new ByteArrayOutputStream();
            elements.subList(i, i + size).forEach(group::writeBytes);
            groups.add(group.toByteArray());
        }
        groups.sort(Arrays::compareUnsigned);
        groups.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static boolean isPair(byte[] element) {
        return element.length > 4 && element[0] == '*' && element[1] == '2' && element[2] == '\r';
    }

    /** Each element of the array whose elements start at {@code from}, as its own RESP bytes. */
    private static List<byte[]> elements(byte[] array, int from) {
        ByteBuf in = Unpooled.wrappedBuffer(array);
        in.readerIndex(from);
        List<byte[]> elements = new ArrayList<>();
        while (in.isReadable()) {
            int start = in.readerIndex();
            if (RespReplyParser.parse(in) == null) {
                throw new IllegalArgumentException("not one complete reply: " + Escape.bytes(array));
            }
            elements.add(Arrays.copyOfRange(array, start, in.readerIndex()));
        }
        return elements;
    }

    private static int indexOfCrlf(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        throw new IllegalArgumentException("no CRLF in " + Escape.bytes(bytes));
    }
}
