package io.kvd.server.rdb;

import io.kvd.server.store.HashValue;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ListValue;
import io.kvd.server.store.SetValue;
import io.kvd.server.store.StreamGroup;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.StreamValue;
import io.kvd.server.store.ValueType;
import io.kvd.server.store.ZSetValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Moves values between the keyspace and {@link RdbValue}: a live key's value for DUMP, and a
 * loaded or restored value into the keyspace, where the store's own thresholds pick its encoding
 * (as Redis 7.0 converts a loaded ziplist or an oversized listpack).
 */
public final class StoredValues {
    private StoredValues() {
    }

    /** The value of {@code key}, which must exist. */
    public static RdbValue read(Keyspace keyspace, byte[] key) {
        ValueType type = keyspace.type(key);
        switch (type) {
            case STRING:
                return new RdbValue.Str(keyspace.get(key));
            case LIST: {
                List<byte[]> elements = new ArrayList<>();
                keyspace.list(key).forEach(elements::add);
                return new RdbValue.ListOf(elements);
            }
            case SET: {
                List<byte[]> members = new ArrayList<>();
                keyspace.set(key).forEach(members::add);
                return new RdbValue.SetOf(members);
            }
            case HASH: {
                List<byte[]> fieldsAndValues = new ArrayList<>();
                keyspace.hash(key).forEach((field, value) -> {
                    fieldsAndValues.add(field);
                    fieldsAndValues.add(value);
                });
                return new RdbValue.HashOf(fieldsAndValues);
            }
            case ZSET: {
                ZSetValue zset = keyspace.zset(key);
                int size = zset.size();
                List<byte[]> members = new ArrayList<>(size);
                double[] scores = new double[size];
                for (int rank = 0; rank < size; rank++) {
                    members.add(zset.memberAt(rank));
                    scores[rank] = zset.scoreAt(rank);
                }
                return new RdbValue.ZSetOf(members, scores);
            }
            default:
                return stream(keyspace.stream(key));
        }
    }

    private static RdbValue stream(StreamValue stream) {
        List<RdbValue.Entry> entries = new ArrayList<>();
        stream.range(StreamId.MIN, StreamId.MAX, false, (id, fieldsAndValues) -> {
            entries.add(new RdbValue.Entry(id, fieldsAndValues));
            return true;
        });
        return new RdbValue.StreamOf(entries, stream.lastId(), stream.recordedFirstId(), stream.maxDeletedId(),
                stream.entriesAdded(), groups(stream.groups()));
    }

    /** Consumer groups as RDB holds them: the group's pending list, and per consumer the ids it owns. */
    static List<RdbValue.Group> groups(Iterable<StreamGroup> groups) {
        List<RdbValue.Group> out = new ArrayList<>();
        for (StreamGroup group : groups) {
            List<RdbValue.Nack> pending = new ArrayList<>();
            group.pending().forEach((id, nack) -> pending.add(new RdbValue.Nack(id, nack.deliveryTime(), nack.deliveryCount())));
            List<RdbValue.Consumer> consumers = new ArrayList<>();
            for (StreamGroup.Consumer consumer : group.consumers()) {
                consumers.add(new RdbValue.Consumer(consumer.name(), consumer.seenTime(),
                        new ArrayList<>(consumer.pending().keySet())));
            }
            out.add(new RdbValue.Group(group.name(), group.lastId(), group.entriesRead(), pending, consumers));
        }
        return out;
    }

    /**
     * Creates {@code key} (absent) holding {@code value}, with {@code deadline} (absolute ms or
     * {@link Keyspace#PERSISTENT}). A collection naming a member twice is refused, as Redis's
     * loader refuses duplicates.
     */
    public static void store(Keyspace keyspace, byte[] key, RdbValue value, long deadline) {
        if (value instanceof RdbValue.Str s) {
            keyspace.put(key, s.bytes(), deadline);
            return;
        }
        if (value instanceof RdbValue.ListOf l) {
            ListValue list = keyspace.listForWrite(key);
            list.pushAll(l.elements().toArray(new byte[0][]), 0, false);
        } else if (value instanceof RdbValue.SetOf s) {
            SetValue set = keyspace.setForWrite(key);
            int added = set.addAll(s.members().toArray(new byte[0][]), 0);
            unique(keyspace, key, added, s.members().size(), "set member");
        } else if (value instanceof RdbValue.HashOf h) {
            HashValue hash = keyspace.hashForWrite(key);
            int added = hash.putAll(h.fieldsAndValues().toArray(new byte[0][]), 0);
            unique(keyspace, key, added, h.fieldsAndValues().size() / 2, "hash field");
        } else if (value instanceof RdbValue.ZSetOf z) {
            ZSetValue zset = keyspace.zsetForWrite(key);
            int maxLength = 0;
            for (byte[] member : z.members()) {
                maxLength = Math.max(maxLength, member.length);
            }
            zset.expect(z.members().size(), maxLength);
            int added = 0;
            for (int i = 0; i < z.members().size(); i++) {
                added += zset.put(z.members().get(i), z.scores()[i]) ? 1 : 0;
            }
            unique(keyspace, key, added, z.members().size(), "sorted set member");
        } else {
            stream(keyspace.streamForWrite(key), (RdbValue.StreamOf) value);
        }
        if (deadline != Keyspace.PERSISTENT) {
            keyspace.setDeadline(key, deadline);
        }
    }

    private static void unique(Keyspace keyspace, byte[] key, int added, int expected, String what) {
        if (added != expected) {
            keyspace.remove(key);
            throw new RdbFormatException("duplicate " + what);
        }
    }

    private static void stream(StreamValue stream, RdbValue.StreamOf s) {
        for (RdbValue.Entry entry : s.entries()) {
            stream.add(entry.id(), entry.fieldsAndValues(), 0);
        }
        stream.setId(s.lastId(), s.entriesAdded(), s.maxDeletedId());
        for (RdbValue.Group g : s.groups()) {
            if (!stream.createGroup(g.name(), g.lastId(), g.entriesRead())) {
                throw new RdbFormatException("duplicated consumer group name");
            }
            StreamGroup group = stream.group(g.name());
            java.util.Map<StreamId, RdbValue.Nack> nacks = new java.util.HashMap<>();
            g.pending().forEach(nack -> nacks.put(nack.id(), nack));
            for (RdbValue.Consumer c : g.consumers()) {
                StreamGroup.Consumer consumer = stream.createConsumer(group, c.name(), c.seenTime());
                if (consumer == null) {
                    throw new RdbFormatException("duplicated consumer name in a stream group");
                }
                for (StreamId id : c.pending()) {
                    RdbValue.Nack nack = nacks.get(id);
                    stream.claim(group, id, consumer, nack.deliveryTime(), nack.deliveryCount(), true);
                }
            }
        }
    }
}
