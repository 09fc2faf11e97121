package io.kvd.server.rdb;

import io.kvd.server.store.StreamGroup;
import io.kvd.server.store.StreamId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one value of any type Redis 2.x to 7.0 wrote (rdbLoadObject): the present encodings and
 * the older ones (zipmap and ziplist hashes, ziplist sorted sets and lists, quicklists of
 * ziplists, streams without 7.0's counters). Null for an empty collection, which Redis's loader
 * skips and RESTORE refuses.
 */
final class RdbValueReader {
    private static final int STREAM_FLAG_DELETED = 1;
    private static final int STREAM_FLAG_SAMEFIELDS = 2;

    private RdbValueReader() {
    }

    static boolean isValueType(int type) {
        return type >= Rdb.TYPE_STRING && type <= Rdb.TYPE_STREAM_LISTPACKS_2 && type != 8;
    }

    static RdbValue read(int type, RdbInput in) {
        RdbValue value = switch (type) {
            case Rdb.TYPE_STRING -> new RdbValue.Str(in.readString());
            case Rdb.TYPE_LIST -> new RdbValue.ListOf(strings(in, in.readCount()));
            case Rdb.TYPE_SET -> new RdbValue.SetOf(strings(in, in.readCount()));
            case Rdb.TYPE_HASH -> new RdbValue.HashOf(strings(in, 2 * in.readCount()));
            case Rdb.TYPE_ZSET, Rdb.TYPE_ZSET_2 -> zset(in, type == Rdb.TYPE_ZSET_2);
            case Rdb.TYPE_HASH_ZIPMAP -> new RdbValue.HashOf(LegacyEncodings.zipmap(in.readString()));
            case Rdb.TYPE_LIST_ZIPLIST -> new RdbValue.ListOf(LegacyEncodings.ziplist(in.readString()));
            case Rdb.TYPE_SET_INTSET -> new RdbValue.SetOf(RedisIntSet.read(in.readString()));
            case Rdb.TYPE_ZSET_ZIPLIST -> packedZset(LegacyEncodings.ziplist(in.readString()));
            case Rdb.TYPE_HASH_ZIPLIST -> new RdbValue.HashOf(pairs(LegacyEncodings.ziplist(in.readString())));
            case Rdb.TYPE_HASH_LISTPACK -> new RdbValue.HashOf(pairs(RedisListpack.read(in.readString())));
            case Rdb.TYPE_ZSET_LISTPACK -> packedZset(RedisListpack.read(in.readString()));
            case Rdb.TYPE_LIST_QUICKLIST, Rdb.TYPE_LIST_QUICKLIST_2 -> quicklist(in, type == Rdb.TYPE_LIST_QUICKLIST_2);
            case Rdb.TYPE_STREAM_LISTPACKS, Rdb.TYPE_STREAM_LISTPACKS_2 -> stream(in, type == Rdb.TYPE_STREAM_LISTPACKS_2);
            case Rdb.TYPE_MODULE, Rdb.TYPE_MODULE_2 -> throw new RdbFormatException(
                    "the data holds a module's value, and kvd has no modules");
            default -> throw new RdbFormatException("unknown value type " + type);
        };
        return isEmpty(value) ? null : value;
    }

    private static boolean isEmpty(RdbValue value) {
        if (value instanceof RdbValue.ListOf l) {
            return l.elements().isEmpty();
        } else if (value instanceof RdbValue.SetOf s) {
            return s.members().isEmpty();
        } else if (value instanceof RdbValue.HashOf h) {
            return h.fieldsAndValues().isEmpty();
        } else if (value instanceof RdbValue.ZSetOf z) {
            return z.members().isEmpty();
        }
        return false;
    }

    private static List<byte[]> strings(RdbInput in, int count) {
        List<byte[]> out = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            out.add(in.readString());
        }
        return out;
    }

    private static List<byte[]> pairs(List<byte[]> elements) {
        if (elements.size() % 2 != 0) {
            throw new RdbFormatException("a packed hash has a field without a value");
        }
        return elements;
    }

    private static RdbValue zset(RdbInput in, boolean binaryScores) {
        int count = in.readCount();
        List<byte[]> members = new ArrayList<>(Math.min(count, 1 << 16));
        double[] scores = new double[Math.min(count, 1 << 16)];
        for (int i = 0; i < count; i++) {
            members.add(in.readString());
            double score = binaryScores ? in.readBinaryDouble() : in.readTextDouble();
            if (Double.isNaN(score)) {
                throw new RdbFormatException("zset score is NaN");
            }
            if (i == scores.length) {
                scores = java.util.Arrays.copyOf(scores, Math.min(count, 2 * scores.length));
            }
            scores[i] = score;
        }
        return new RdbValue.ZSetOf(members, java.util.Arrays.copyOf(scores, count));
    }

    private static RdbValue packedZset(List<byte[]> elements) {
        pairs(elements);
        List<byte[]> members = new ArrayList<>(elements.size() / 2);
        double[] scores = new double[elements.size() / 2];
        for (int i = 0; i < scores.length; i++) {
            members.add(elements.get(2 * i));
            scores[i] = RdbInput.parseDouble(elements.get(2 * i + 1));
            if (Double.isNaN(scores[i])) {
                throw new RdbFormatException("zset score is NaN");
            }
        }
        return new RdbValue.ZSetOf(members, scores);
    }

    /** Quicklist nodes: ziplists (RDB 9 and earlier), or a container kind then a listpack or one plain element. */
    private static RdbValue quicklist(RdbInput in, boolean listpacks) {
        int nodes = in.readCount();
        List<byte[]> elements = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            long container = listpacks ? in.readLength() : Rdb.QUICKLIST_NODE_PACKED;
            byte[] blob = in.readString();
            if (container == Rdb.QUICKLIST_NODE_PLAIN) {
                elements.add(blob);
            } else if (container == Rdb.QUICKLIST_NODE_PACKED) {
                elements.addAll(listpacks ? RedisListpack.read(blob) : LegacyEncodings.ziplist(blob));
            } else {
                throw new RdbFormatException("unknown quicklist node container " + container);
            }
        }
        return new RdbValue.ListOf(elements);
    }

    private static RdbValue stream(RdbInput in, boolean version2) {
        int nodes = in.readCount();
        List<RdbValue.Entry> entries = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            byte[] master = in.readString();
            if (master.length != 16) {
                throw new RdbFormatException("stream node key is not a 128-bit id");
            }
            List<byte[]> lp = RedisListpack.read(in.readString());
            if (lp.isEmpty()) {
                throw new RdbFormatException("empty listpack inside a stream");
            }
            streamNode(streamId(master, 0), lp, entries);
        }
        long length = in.readLength();
        if (length != entries.size()) {
            throw new RdbFormatException("stream length " + length + " does not match its " + entries.size() + " entries");
        }
        StreamId lastId = new StreamId(in.readLength(), in.readLength());
        StreamId firstId = entries.isEmpty() ? StreamId.MIN : entries.get(0).id();
        StreamId maxDeletedId = StreamId.MIN;
        long entriesAdded = length;
        if (version2) {
            firstId = new StreamId(in.readLength(), in.readLength());
            maxDeletedId = new StreamId(in.readLength(), in.readLength());
            entriesAdded = in.readLength();
        }
        if (!entries.isEmpty() && entries.get(entries.size() - 1).id().compareTo(lastId) > 0) {
            throw new RdbFormatException("stream's last id is below its last entry's");
        }
        int groupCount = in.readCount();
        List<RdbValue.Group> groups = new ArrayList<>(groupCount);
        for (int g = 0; g < groupCount; g++) {
            byte[] name = in.readString();
            StreamId groupLastId = new StreamId(in.readLength(), in.readLength());
            long entriesRead = version2 ? in.readLength() : StreamGroup.INVALID_ENTRIES_READ;
            int pendingCount = in.readCount();
            List<RdbValue.Nack> pending = new ArrayList<>(pendingCount);
            Map<StreamId, RdbValue.Nack> byId = new HashMap<>();
            for (int p = 0; p < pendingCount; p++) {
                StreamId id = streamId(in.readBytes(16), 0);
                RdbValue.Nack nack = new RdbValue.Nack(id, in.readLittleEndian(8), in.readLength());
                if (byId.put(id, nack) != null) {
                    throw new RdbFormatException("duplicated id in a stream group's pending list");
                }
                pending.add(nack);
            }
            int consumerCount = in.readCount();
            List<RdbValue.Consumer> consumers = new ArrayList<>(consumerCount);
            for (int c = 0; c < consumerCount; c++) {
                byte[] consumerName = in.readString();
                long seenTime = in.readLittleEndian(8);
                int owned = in.readCount();
                List<StreamId> ids = new ArrayList<>(owned);
                for (int p = 0; p < owned; p++) {
                    StreamId id = streamId(in.readBytes(16), 0);
                    if (!byId.containsKey(id)) {
                        throw new RdbFormatException("a consumer's pending entry is not in its group's pending list");
                    }
                    ids.add(id);
                }
                consumers.add(new RdbValue.Consumer(consumerName, seenTime, ids));
            }
            groups.add(new RdbValue.Group(name, groupLastId, entriesRead, pending, consumers));
        }
        return new RdbValue.StreamOf(entries, lastId, firstId, maxDeletedId, entriesAdded, groups);
    }

    /** One node's live entries: the master entry's fields, then each entry relative to the node's id. */
    private static void streamNode(StreamId master, List<byte[]> lp, List<RdbValue.Entry> entries) {
        int p = 0;
        long valid = integer(lp, p++);
        long deleted = integer(lp, p++);
        int masterFieldCount = (int) integer(lp, p++);
        if (masterFieldCount < 0 || p + masterFieldCount >= lp.size()) {
            throw new RdbFormatException("stream master entry is corrupt");
        }
        List<byte[]> masterFields = lp.subList(p, p + masterFieldCount);
        p += masterFieldCount;
        if (integer(lp, p++) != 0) {
            throw new RdbFormatException("stream master entry is not terminated");
        }
        long seen = 0;
        while (p < lp.size()) {
            int flags = (int) integer(lp, p++);
            StreamId id = new StreamId(master.ms() + integer(lp, p++), master.seq() + integer(lp, p++));
            int fields = (flags & STREAM_FLAG_SAMEFIELDS) != 0 ? masterFieldCount : (int) integer(lp, p++);
            boolean same = (flags & STREAM_FLAG_SAMEFIELDS) != 0;
            int needed = same ? fields : 2 * fields;
            if (fields < 0 || p + needed >= lp.size()) {
                throw new RdbFormatException("stream entry runs past its node");
            }
            byte[][] fieldsAndValues = new byte[2 * fields][];
            for (int f = 0; f < fields; f++) {
                fieldsAndValues[2 * f] = same ? masterFields.get(f) : lp.get(p++);
                fieldsAndValues[2 * f + 1] = lp.get(p++);
            }
            p++; // lp-count, for walking backwards
            seen++;
            if ((flags & STREAM_FLAG_DELETED) == 0) {
                if (!entries.isEmpty() && id.compareTo(entries.get(entries.size() - 1).id()) <= 0) {
                    throw new RdbFormatException("stream entries are out of order");
                }
                entries.add(new RdbValue.Entry(id, fieldsAndValues));
            }
        }
        if (seen != valid + deleted) {
            throw new RdbFormatException("stream node counts do not match its entries");
        }
    }

    private static long integer(List<byte[]> lp, int at) {
        if (at >= lp.size()) {
            throw new RdbFormatException("stream node ends inside an entry");
        }
        Long v = io.kvd.server.numeric.IntegerText.string2ll(lp.get(at));
        if (v == null) {
            throw new RdbFormatException("stream node holds text where a number belongs");
        }
        return v;
    }

    private static StreamId streamId(byte[] raw, int from) {
        long ms = 0;
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            ms = ms << 8 | (raw[from + i] & 0xFF);
            seq = seq << 8 | (raw[from + 8 + i] & 0xFF);
        }
        return new StreamId(ms, seq);
    }
}
