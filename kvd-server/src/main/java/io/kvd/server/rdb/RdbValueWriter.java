package io.kvd.server.rdb;

import io.kvd.server.numeric.IntegerText;
import io.kvd.server.store.EncodingLimits;
import io.kvd.server.store.StreamId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Serializes one value as Redis 7.0's rdbSaveObjectType and rdbSaveObject do, choosing each
 * type's encoding as Redis would hold the same contents under the same limits: a listpack hash or
 * sorted set within {@code *-max-listpack-*}, an intset for integers within
 * {@code set-max-intset-entries}, quicklist nodes closed where quicklist.c closes them, stream
 * nodes where t_stream.c does. So a DUMP of a small value is byte for byte Redis's.
 */
final class RdbValueWriter {
    /** quicklist.c's SIZE_ESTIMATE_OVERHEAD, added to an element's length when deciding whether it joins a node. */
    private static final int QUICKLIST_ENTRY_OVERHEAD = 8;
    private static final int QUICKLIST_SAFETY_LIMIT = 8192;
    /** t_stream.c's STREAM_LISTPACK_MAX_SIZE: stream-node-max-bytes beyond this (or 0) means this. */
    private static final long STREAM_LISTPACK_MAX_SIZE = 1L << 30;
    private static final int STREAM_FLAG_NONE = 0;
    private static final int STREAM_FLAG_SAMEFIELDS = 2;

    private final EncodingLimits limits;

    RdbValueWriter(EncodingLimits limits) {
        this.limits = limits;
    }

    void write(RdbOutput out, RdbValue value) {
        if (value instanceof RdbValue.Str s) {
            out.type(Rdb.TYPE_STRING);
            out.string(s.bytes());
        } else if (value instanceof RdbValue.ListOf l) {
            list(out, l.elements());
        } else if (value instanceof RdbValue.SetOf s) {
            set(out, s.members());
        } else if (value instanceof RdbValue.HashOf h) {
            hash(out, h.fieldsAndValues());
        } else if (value instanceof RdbValue.ZSetOf z) {
            zset(out, z.members(), z.scores());
        } else {
            stream(out, (RdbValue.StreamOf) value);
        }
    }

    private void list(RdbOutput out, List<byte[]> elements) {
        out.type(Rdb.TYPE_LIST_QUICKLIST_2);
        int fill = limits.listMaxListpackSize();
        List<byte[]> nodes = new ArrayList<>();
        RedisListpack.Builder node = null;
        for (byte[] element : elements) {
            if (node != null && !allowsInsert(node, element.length, fill)) {
                nodes.add(node.build());
                node = null;
            }
            if (node == null) {
                node = new RedisListpack.Builder();
            }
            node.add(element);
        }
        if (node != null) {
            nodes.add(node.build());
        }
        out.length(nodes.size());
        for (byte[] lp : nodes) {
            out.length(Rdb.QUICKLIST_NODE_PACKED);
            out.string(lp);
        }
    }

    /** quicklist.c's _quicklistNodeAllowInsert and quicklistNodeExceedsLimit. */
    private static boolean allowsInsert(RedisListpack.Builder node, int length, int fill) {
        long newSize = (long) node.bytes() + length + QUICKLIST_ENTRY_OVERHEAD;
        if (fill >= 0) {
            return newSize <= QUICKLIST_SAFETY_LIMIT && node.count() + 1 <= (fill == 0 ? 1 : fill);
        }
        return newSize <= 4096L << Math.min(-fill - 1, 4);
    }

    private void set(RdbOutput out, List<byte[]> members) {
        long[] integers = members.size() <= limits.setMaxIntsetEntries() ? integers(members) : null;
        if (integers != null) {
            out.type(Rdb.TYPE_SET_INTSET);
            out.string(RedisIntSet.write(integers));
            return;
        }
        out.type(Rdb.TYPE_SET);
        out.length(members.size());
        for (byte[] member : members) {
            out.string(member);
        }
    }

    /** The members as integers if every one is (isSdsRepresentableAsLongLong), else null. */
    private static long[] integers(List<byte[]> members) {
        long[] values = new long[members.size()];
        for (int i = 0; i < values.length; i++) {
            byte[] member = members.get(i);
            Long v = member.length <= 20 ? IntegerText.string2ll(member) : null;
            if (v == null) {
                return null;
            }
            values[i] = v;
        }
        return values;
    }

    private void hash(RdbOutput out, List<byte[]> fieldsAndValues) {
        if (fieldsAndValues.size() / 2 <= limits.hashMaxListpackEntries()
                && allShorter(fieldsAndValues, 1, limits.hashMaxListpackValue())) {
            out.type(Rdb.TYPE_HASH_LISTPACK);
            RedisListpack.Builder lp = new RedisListpack.Builder();
            fieldsAndValues.forEach(lp::add);
            out.string(lp.build());
            return;
        }
        out.type(Rdb.TYPE_HASH);
        out.length(fieldsAndValues.size() / 2);
        for (byte[] element : fieldsAndValues) {
            out.string(element);
        }
    }

    private static boolean allShorter(List<byte[]> elements, int stride, int maxLength) {
        for (int i = 0; i < elements.size(); i += stride) {
            if (elements.get(i).length > maxLength) {
                return false;
            }
        }
        return true;
    }

    /** Listpack within the limits; else ZSET_2, from the highest score down, as Redis walks its skip list from the tail. */
    private void zset(RdbOutput out, List<byte[]> members, double[] scores) {
        if (members.size() <= limits.zsetMaxListpackEntries() && allShorter(members, 1, limits.zsetMaxListpackValue())) {
            out.type(Rdb.TYPE_ZSET_LISTPACK);
            RedisListpack.Builder lp = new RedisListpack.Builder();
            for (int i = 0; i < members.size(); i++) {
                lp.add(members.get(i));
                lp.addScore(scores[i]);
            }
            out.string(lp.build());
            return;
        }
        out.type(Rdb.TYPE_ZSET_2);
        out.length(members.size());
        for (int i = members.size() - 1; i >= 0; i--) {
            out.string(members.get(i));
            out.binaryDouble(scores[i]);
        }
    }

    /** RDB_TYPE_STREAM_LISTPACKS_2: the nodes (master id, listpack), the counters, the groups with their PELs. */
    private void stream(RdbOutput out, RdbValue.StreamOf s) {
        out.type(Rdb.TYPE_STREAM_LISTPACKS_2);
        List<StreamNode> nodes = streamNodes(s.entries());
        out.length(nodes.size());
        for (StreamNode node : nodes) {
            out.string(streamIdKey(node.master));
            out.string(node.build());
        }
        out.length(s.entries().size());
        out.length(s.lastId().ms());
        out.length(s.lastId().seq());
        out.length(s.firstId().ms());
        out.length(s.firstId().seq());
        out.length(s.maxDeletedId().ms());
        out.length(s.maxDeletedId().seq());
        out.length(s.entriesAdded());
        out.length(s.groups().size());
        for (RdbValue.Group group : s.groups()) {
            out.string(group.name());
            out.length(group.lastId().ms());
            out.length(group.lastId().seq());
            out.length(group.entriesRead());
            out.length(group.pending().size());
            for (RdbValue.Nack nack : group.pending()) {
                out.buffer().writeBytes(streamIdKey(nack.id()));
                out.millis(nack.deliveryTime());
                out.length(nack.deliveryCount());
            }
            out.length(group.consumers().size());
            for (RdbValue.Consumer consumer : group.consumers()) {
                out.string(consumer.name());
                out.millis(consumer.seenTime());
                out.length(consumer.pending().size());
                for (StreamId id : consumer.pending()) {
                    out.buffer().writeBytes(streamIdKey(id));
                }
            }
        }
    }

    /** streamAppendItem's node boundaries: a new node past stream-node-max-bytes or -entries. */
    private List<StreamNode> streamNodes(List<RdbValue.Entry> entries) {
        long maxBytes = limits.streamNodeMaxBytes();
        if (maxBytes == 0 || maxBytes > STREAM_LISTPACK_MAX_SIZE) {
            maxBytes = STREAM_LISTPACK_MAX_SIZE;
        }
        long maxEntries = limits.streamNodeMaxEntries();
        List<StreamNode> nodes = new ArrayList<>();
        StreamNode node = null;
        for (RdbValue.Entry entry : entries) {
            long elementBytes = 0;
            for (byte[] element : entry.fieldsAndValues()) {
                elementBytes += element.length;
            }
            if (node != null && (node.lp.bytes() + elementBytes >= maxBytes || maxEntries != 0 && node.count >= maxEntries)) {
                node = null;
            }
            if (node == null) {
                node = new StreamNode(entry);
                nodes.add(node);
            }
            node.append(entry);
        }
        return nodes;
    }

    /** One stream node being built: the master entry's fields, then delta-encoded entries. */
    private static final class StreamNode {
        final StreamId master;
        final byte[][] masterFields;
        final RedisListpack.Builder lp = new RedisListpack.Builder();
        int count;

        StreamNode(RdbValue.Entry first) {
            master = first.id();
            byte[][] fv = first.fieldsAndValues();
            masterFields = new byte[fv.length / 2][];
            for (int i = 0; i < masterFields.length; i++) {
                masterFields[i] = fv[2 * i];
            }
            // The master entry: valid count and deleted count (fixed up in build), the fields, a 0.
            lp.add(1).add(0).add(masterFields.length);
            for (byte[] field : masterFields) {
                lp.add(field);
            }
            lp.add(0);
        }

        void append(RdbValue.Entry entry) {
            byte[][] fv = entry.fieldsAndValues();
            boolean same = fv.length / 2 == masterFields.length;
            for (int i = 0; same && i < masterFields.length; i++) {
                same = Arrays.equals(fv[2 * i], masterFields[i]);
            }
            int fields = fv.length / 2;
            lp.add(same ? STREAM_FLAG_SAMEFIELDS : STREAM_FLAG_NONE);
            lp.add(entry.id().ms() - master.ms());
            lp.add(entry.id().seq() - master.seq());
            if (same) {
                for (int i = 0; i < fields; i++) {
                    lp.add(fv[2 * i + 1]);
                }
            } else {
                lp.add(fields);
                for (byte[] element : fv) {
                    lp.add(element);
                }
            }
            lp.add(same ? fields + 3 : 2L * fields + 4);
            count++;
        }

        /** The node's listpack with its valid count set: the first element, written as 1 while it was being built. */
        byte[] build() {
            if (count == 1) {
                return lp.build();
            }
            List<byte[]> elements = RedisListpack.read(lp.build());
            RedisListpack.Builder fixed = new RedisListpack.Builder();
            fixed.add(count);
            for (int i = 1; i < elements.size(); i++) {
                fixed.add(elements.get(i));
            }
            return fixed.build();
        }
    }

    /** A stream id as Redis's radix-tree keys: ms then seq, each 8 bytes big-endian. */
    static byte[] streamIdKey(StreamId id) {
        byte[] key = new byte[16];
        for (int i = 0; i < 8; i++) {
            key[i] = (byte) (id.ms() >>> (56 - 8 * i));
            key[8 + i] = (byte) (id.seq() >>> (56 - 8 * i));
        }
        return key;
    }
}
