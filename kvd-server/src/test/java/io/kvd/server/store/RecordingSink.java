package io.kvd.server.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot's sink for tests: what it handed out, per database and key, in the form
 * {@link #describe} gives a live key, and its records, to be replayed onto other databases as an
 * AOF replays a rewrite. Each key and each member must come once, and a collection's members
 * before its end.
 */
final class RecordingSink implements KeyspaceSnapshot.Sink {
    private final Map<Integer, Map<String, String>> handedOut = new HashMap<>();
    /** Collections whose members came but not their end yet, by "db:key". */
    private final Map<String, Collection> open = new HashMap<>();
    /** Streams whose entries came but not their end yet, by "db:key". */
    private final Map<String, StringBuilder> openStreams = new HashMap<>();
    private final List<Consumer<Databases>> records = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private int members;
    private int largestBatch;

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void string(int db, byte[] key, byte[] value, long deadline) {
        handOut(db, key, utf8(value) + "@" + deadline);
        records.add(databases -> databases.get(db).put(key, value, deadline));
    }

    @Override
    public void members(int db, byte[] key, ValueType type, byte[][] elements, int length) {
        String name = db + ":" + utf8(key);
        if (handedOut(db).containsKey(utf8(key))) {
            problems.add("members of " + name + " after its end");
        }
        TreeMap<String, String> collection = open.computeIfAbsent(name, k -> new Collection(type, new TreeMap<>())).members;
        int step = type == ValueType.HASH || type == ValueType.ZSET ? 2 : 1;
        largestBatch = Math.max(largestBatch, length / step);
        for (int i = 0; i < length; i += step) {
            members++;
            if (type == ValueType.LIST) {
                // A list's elements may repeat: kept by position, in order.
                collection.put(position(collection.size()), utf8(elements[i]));
                continue;
            }
            String value = type == ValueType.ZSET ? Double.toString(ZSetValue.decodeScore(elements[i + 1]))
                    : step == 2 ? utf8(elements[i + 1]) : "";
            if (collection.put(utf8(elements[i]), value) != null) {
                problems.add("member " + utf8(elements[i]) + " of " + name + " twice");
            }
        }
        byte[][] batch = Arrays.copyOf(elements, length);
        records.add(databases -> {
            Keyspace keyspace = databases.get(db);
            for (int i = 0; i < batch.length; i += step) {
                if (type == ValueType.HASH) {
                    keyspace.hashForWrite(key).put(batch[i], batch[i + 1]);
                } else if (type == ValueType.LIST) {
                    keyspace.listForWrite(key).push(batch[i], false);
                } else if (type == ValueType.ZSET) {
                    keyspace.zsetForWrite(key).put(batch[i], ZSetValue.decodeScore(batch[i + 1]));
                } else {
                    keyspace.setForWrite(key).add(batch[i]);
                }
            }
        });
    }

    @Override
    public void membersEnd(int db, byte[] key, long deadline) {
        Collection collection = open.remove(db + ":" + utf8(key));
        if (collection == null) {
            problems.add("end of " + db + ":" + utf8(key) + " without members");
            return;
        }
        handOut(db, key, collection.type == ValueType.LIST ? listDescription(collection.members, deadline)
                : collectionDescription(collection.type, collection.members, deadline));
        if (deadline != Keyspace.PERSISTENT) {
            records.add(databases -> databases.get(db).setDeadline(key, deadline));
        }
    }

    @Override
    public void streamEntry(int db, byte[] key, StreamId id, byte[][] fieldsAndValues) {
        openStreams.computeIfAbsent(db + ":" + utf8(key), k -> new StringBuilder("stream"))
                .append(entryDescription(id, fieldsAndValues));
        members++;
        records.add(databases -> databases.get(db).streamForWrite(key).add(id, fieldsAndValues, 0));
    }

    @Override
    public void streamEnd(int db, byte[] key, long length, StreamId lastId, long entriesAdded, StreamId maxDeletedId,
                          java.util.Collection<StreamGroup> groups, long deadline) {
        StringBuilder entries = openStreams.remove(db + ":" + utf8(key));
        handOut(db, key, (entries == null ? "stream" : entries.toString())
                + streamCounters(lastId, entriesAdded, maxDeletedId, deadline) + groupsDescription(groups));
        records.add(databases -> {
            boolean exists = databases.get(db).stream(key) != null;
            StreamValue stream = databases.get(db).streamForWrite(key);
            if (!exists) {
                stream.add(new StreamId(0, 1), new byte[][] {{'x'}, {'y'}}, 0);
                stream.trim(0, null, false, 0);
            }
            stream.setId(lastId, entriesAdded, maxDeletedId);
            for (StreamGroup group : groups) {
                stream.createGroup(group.name(), group.lastId(), group.entriesRead());
                StreamGroup replayed = stream.group(group.name());
                for (StreamGroup.Consumer consumer : group.consumers()) {
                    StreamGroup.Consumer created = stream.createConsumer(replayed, consumer.name());
                    consumer.pending().forEach((id, pending) -> stream.claim(replayed, id, created,
                            pending.deliveryTime(), pending.deliveryCount(), false));
                }
            }
            if (deadline != Keyspace.PERSISTENT) {
                databases.get(db).setDeadline(key, deadline);
            }
        });
    }

    private static String entryDescription(StreamId id, byte[][] fieldsAndValues) {
        StringBuilder text = new StringBuilder(" ").append(id).append(':');
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            text.append(i == 0 ? "" : ",").append(utf8(fieldsAndValues[i])).append('=').append(utf8(fieldsAndValues[i + 1]));
        }
        return text.toString();
    }

    /** The groups with their pending entries and consumers; not the consumers' seen-times, which replay makes now. */
    private static String groupsDescription(java.util.Collection<StreamGroup> groups) {
        StringBuilder text = new StringBuilder();
        for (StreamGroup group : groups) {
            text.append(" group ").append(utf8(group.name())).append(' ').append(group.lastId()).append(" read=")
                    .append(group.entriesRead());
            group.pending().forEach((id, pending) -> text.append(' ').append(id).append('>')
                    .append(utf8(pending.consumer().name())).append('@').append(pending.deliveryTime()).append('x')
                    .append(pending.deliveryCount()));
            for (StreamGroup.Consumer consumer : group.consumers()) {
                text.append(" consumer ").append(utf8(consumer.name())).append('/').append(consumer.pending().size());
            }
        }
        return text.toString();
    }

    private static String streamCounters(StreamId lastId, long entriesAdded, StreamId maxDeletedId, long deadline) {
        return " last=" + lastId + " added=" + entriesAdded + " maxdeleted=" + maxDeletedId + "@" + deadline;
    }

    private void handOut(int db, byte[] key, String contents) {
        if (handedOut(db).put(utf8(key), contents) != null) {
            problems.add(db + ":" + utf8(key) + " twice");
        }
    }

    /** What database {@code db}'s keys were handed out as: key to {@link #describe}'s form. */
    Map<String, String> handedOut(int db) {
        return handedOut.computeIfAbsent(db, k -> new TreeMap<>());
    }

    /** Members handed out so far, of every collection. */
    int members() {
        return members;
    }

    /** The most members one {@link #members} call passed. */
    int largestBatch() {
        return largestBatch;
    }

    /** Asserts that nothing came twice or out of order, and that every collection ended. */
    void assertConsistent() {
        assertThat(problems).isEmpty();
        assertThat(open.keySet()).as("collections without an end").isEmpty();
        assertThat(openStreams.keySet()).as("streams without an end").isEmpty();
    }

    /** Applies the records, in the order they came, to {@code databases}. */
    void replayOnto(Databases databases) {
        records.forEach(record -> record.accept(databases));
    }

    /**
     * Every live key of {@code keyspace}: a string as "value@deadline", a collection as
     * "hash f=v ...@deadline" or "set m ...@deadline", members sorted.
     */
    static Map<String, String> describe(Keyspace keyspace) {
        Map<String, String> keys = new TreeMap<>();
        List<byte[]> names = new ArrayList<>();
        keyspace.forEachKey(names::add);
        for (byte[] key : names) {
            long deadline = keyspace.deadline(key);
            TreeMap<String, String> members = new TreeMap<>();
            String contents = switch (keyspace.type(key)) {
                case STRING -> utf8(keyspace.get(key)) + "@" + deadline;
                case HASH -> {
                    keyspace.hash(key).forEach((field, value) -> members.put(utf8(field), utf8(value)));
                    yield collectionDescription(ValueType.HASH, members, deadline);
                }
                case SET -> {
                    keyspace.set(key).forEach(member -> members.put(utf8(member), ""));
                    yield collectionDescription(ValueType.SET, members, deadline);
                }
                case ZSET -> {
                    ZSetValue zset = keyspace.zset(key);
                    for (int rank = 0; rank < zset.size(); rank++) {
                        members.put(utf8(zset.memberAt(rank)), Double.toString(zset.scoreAt(rank)));
                    }
                    yield collectionDescription(ValueType.ZSET, members, deadline);
                }
                case LIST -> {
                    keyspace.list(key).forEach(element -> members.put(position(members.size()), utf8(element)));
                    yield listDescription(members, deadline);
                }
                case STREAM -> {
                    StreamValue stream = keyspace.stream(key);
                    StringBuilder text = new StringBuilder("stream");
                    stream.range(StreamId.MIN, StreamId.MAX, false, (id, fieldsAndValues) -> {
                        text.append(entryDescription(id, fieldsAndValues));
                        return true;
                    });
                    yield text + streamCounters(stream.lastId(), stream.entriesAdded(), stream.maxDeletedId(), deadline)
                            + groupsDescription(stream.groups());
                }
            };
            keys.put(utf8(key), contents);
        }
        return keys;
    }

    private record Collection(ValueType type, TreeMap<String, String> members) {
    }

    private static String position(int index) {
        return String.format("%010d", index);
    }

    /** "list a b a@deadline": the elements in order. */
    private static String listDescription(TreeMap<String, String> elements, long deadline) {
        StringBuilder text = new StringBuilder("list");
        elements.values().forEach(element -> text.append(' ').append(element));
        return text.append('@').append(deadline).toString();
    }

    private static String collectionDescription(ValueType type, TreeMap<String, String> members, long deadline) {
        StringBuilder text = new StringBuilder(type.typeName());
        members.forEach((member, value) -> text.append(' ').append(member).append(type == ValueType.SET ? "" : "=" + value));
        return text.append('@').append(deadline).toString();
    }
}
