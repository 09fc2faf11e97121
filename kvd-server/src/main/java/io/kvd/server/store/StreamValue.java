package io.kvd.server.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

/**
 * The stream stored under one key, for the command running: got from {@link Keyspace#stream} or
 * {@link Keyspace#streamForWrite} and dropped when the command ends. The entries are a
 * {@link Stream} held by handle ({@link Encoding#STREAM}) and changed in place, the keyspace told
 * first; one got for writing that does not exist yet is created by its first entry. Unlike the
 * other collections a stream stays when its last entry goes (Redis keeps its last id).
 */
public final class StreamValue {
    private final Keyspace keyspace;
    private final byte[] key;
    private int id;
    private final Stream stream;

    StreamValue(Keyspace keyspace, byte[] key, int id, Stream stream) {
        this.keyspace = keyspace;
        this.key = key;
        this.id = id;
        this.stream = stream;
    }

    public long length() {
        return stream.length;
    }

    public StreamId lastId() {
        return stream.lastId;
    }

    /** Redis 7.0's recorded-first-entry-id. */
    public StreamId recordedFirstId() {
        return stream.firstId;
    }

    public StreamId maxDeletedId() {
        return stream.maxDeletedId;
    }

    public long entriesAdded() {
        return stream.entriesAdded;
    }

    /** XINFO's radix-tree-nodes, as Redis's radix tree of this stream's nodes would count them. */
    public long radixTreeNodes() {
        return stream.radixTreeNodes();
    }

    /** Nodes of entries (XINFO's radix-tree-keys). */
    public int nodeCount() {
        return stream.nodeCount();
    }

    /**
     * The id XADD would give: {@code ms-seq} as given when {@code seqGiven}, {@code ms-*} the next
     * seq of {@code ms} (0 past the last ms), {@code *} ({@code given} null) the time or, if the
     * clock is behind, the last id's next seq (Redis's streamNextID). Null when that id is not
     * greater than the last one (or none is left after it).
     */
    public StreamId nextId(StreamId given, boolean seqGiven) {
        StreamId last = stream.lastId;
        if (given == null) {
            long now = keyspace.now();
            return Long.compareUnsigned(now, last.ms()) > 0 ? new StreamId(now, 0) : last.next();
        }
        if (!seqGiven) {
            if (given.ms() == last.ms()) {
                return last.seq() == -1 ? null : new StreamId(last.ms(), last.seq() + 1);
            }
            given = new StreamId(given.ms(), 0);
        }
        return given.compareTo(last) > 0 ? given : null;
    }

    /** Appends the entry {@code entryId} (from {@link #nextId}) of the fields and values {@code argv[from..]}. */
    public void add(StreamId entryId, byte[][] argv, int from) {
        EncodingLimits limits = keyspace.limits();
        change();
        stream.append(entryId, argv, from, limits.streamNodeMaxBytes(), limits.streamNodeMaxEntries());
    }

    /**
     * Trims to at most {@code maxLength} entries, or (with {@code minId}) the entries below it;
     * returns how many went. See {@link Stream#trim}.
     */
    public long trim(long maxLength, StreamId minId, boolean approximate, long limit) {
        return stream.trim(maxLength, minId, approximate, limit, this::change);
    }

    /** XDEL: deletes the entries {@code ids} that exist; returns how many, keeping the counters as Redis 7.0. */
    public int delete(StreamId[] ids) {
        int deleted = 0;
        boolean firstDeleted = false;
        for (StreamId entryId : ids) {
            if (!stream.contains(entryId)) {
                continue;
            }
            if (deleted == 0) {
                change();
            }
            if (stream.delete(entryId)) {
                firstDeleted |= entryId.equals(stream.firstId);
                if (entryId.compareTo(stream.maxDeletedId) > 0) {
                    stream.maxDeletedId = entryId;
                }
                deleted++;
            }
        }
        if (deleted > 0) {
            if (stream.length == 0) {
                stream.firstId = StreamId.MIN;
            } else if (firstDeleted) {
                stream.firstId = stream.edge(true);
            }
        }
        return deleted;
    }

    /** XSETID: the last id, and the counters given (entries added -1 and max deleted id 0-0 keep theirs). */
    public void setId(StreamId lastId, long entriesAdded, StreamId maxDeletedId) {
        change();
        stream.lastId = lastId;
        if (entriesAdded != -1) {
            stream.entriesAdded = entriesAdded;
        }
        if (!maxDeletedId.isZero()) {
            stream.maxDeletedId = maxDeletedId;
        }
    }

    /** The first or last live entry's id, or null when the stream has none. */
    public StreamId edge(boolean first) {
        return stream.edge(first);
    }

    /**
     * Visits the live entries with ids in {@code [start, end]}, ascending or descending, until the
     * visitor says false; the arrays handed out are copies.
     */
    public void range(StreamId start, StreamId end, boolean reverse, EntryVisitor visitor) {
        stream.range(start, end, reverse, visitor::visit);
    }

    /** Visits one entry: its id and its fields each followed by its value; false stops the walk. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(StreamId id, byte[][] fieldsAndValues);
    }

    /** The group {@code name}, or null. */
    public StreamGroup group(byte[] name) {
        return stream.groups == null ? null : stream.groups.get(name);
    }

    /** The groups, ordered by name. */
    public Collection<StreamGroup> groups() {
        return stream.groups == null ? List.of() : stream.groups.values();
    }

    public int groupCount() {
        return stream.groups == null ? 0 : stream.groups.size();
    }

    /** XGROUP CREATE: false if the group exists. A stream made for it (MKSTREAM) is created here. */
    public boolean createGroup(byte[] name, StreamId lastId, long entriesRead) {
        if (group(name) != null) {
            return false;
        }
        groupChange(false);
        if (stream.groups == null) {
            stream.groups = new TreeMap<>(Arrays::compareUnsigned);
        }
        stream.groups.put(name.clone(), new StreamGroup(name.clone(), lastId, entriesRead));
        return true;
    }

    /** XGROUP SETID. */
    public void setGroupId(StreamGroup group, StreamId lastId, long entriesRead) {
        groupChange(false);
        group.lastId = lastId;
        group.entriesRead = entriesRead;
    }

    /** XGROUP DESTROY: false if there was no such group. */
    public boolean destroyGroup(byte[] name) {
        if (group(name) == null) {
            return false;
        }
        groupChange(true);
        stream.groups.remove(name);
        return true;
    }

    /** Redis's streamCreateConsumer: the new consumer, seen now, or null if it exists. */
    public StreamGroup.Consumer createConsumer(StreamGroup group, byte[] name) {
        return createConsumer(group, name, keyspace.now());
    }

    /** A consumer as a snapshot or a DUMP payload holds it: last seen at {@code seenTime}; null if it exists. */
    public StreamGroup.Consumer createConsumer(StreamGroup group, byte[] name, long seenTime) {
        if (group.consumer(name) != null) {
            return null;
        }
        groupChange(false);
        return group.addConsumer(name, seenTime);
    }

    /** Redis's streamLookupConsumer: the consumer, its seen-time made now (not a change of the data set). */
    public StreamGroup.Consumer seeConsumer(StreamGroup group, byte[] name) {
        StreamGroup.Consumer consumer = group.consumer(name);
        if (consumer != null) {
            consumer.seenTime = keyspace.now();
        }
        return consumer;
    }

    /** XGROUP DELCONSUMER: the consumer's pending entries, which go with it; -1 if there is no such consumer. */
    public long deleteConsumer(StreamGroup group, byte[] name) {
        StreamGroup.Consumer consumer = group.consumer(name);
        if (consumer == null) {
            return -1;
        }
        groupChange(false);
        long pending = consumer.pending.size();
        for (StreamId id : consumer.pending.keySet()) {
            group.pending.remove(id);
        }
        group.consumers.remove(name);
        return pending;
    }

    /**
     * One entry delivered: its id and fields (null if deleted since), its pending entry (null with
     * NOACK) and the group's last delivered id once it was.
     */
    public record Delivered(StreamId id, byte[][] fieldsAndValues, StreamGroup.Pending pending, StreamId groupLastId) {
    }

    /**
     * XREADGROUP's {@code >} (Redis's streamReplyWithRange with a group): up to {@code count}
     * entries after the group's last delivered id, which advances with its entries-read; each one
     * pending for {@code consumer} unless {@code noAck}. Returns what was delivered.
     */
    public List<Delivered> deliverNew(StreamGroup group, StreamGroup.Consumer consumer, long count, boolean noAck) {
        List<Delivered> delivered = new ArrayList<>();
        StreamId start = group.lastId.next();
        if (start == null) {
            return delivered;
        }
        groupChange(false);
        long now = keyspace.now();
        stream.range(start, StreamId.MAX, false, (id, fieldsAndValues) -> {
            if (id.compareTo(group.lastId) > 0) {
                if (group.entriesRead != StreamGroup.INVALID_ENTRIES_READ && !hasTombstones(id)) {
                    group.entriesRead++;
                } else if (stream.entriesAdded != 0) {
                    group.entriesRead = entriesReadAt(id);
                }
                group.lastId = id;
            }
            delivered.add(new Delivered(id, fieldsAndValues, noAck ? null : group.deliver(id, consumer, now), group.lastId));
            return delivered.size() < count;
        });
        return delivered;
    }

    /**
     * XREADGROUP with an id (Redis's streamReplyWithRangeFromConsumerPEL): up to {@code count}
     * of the consumer's pending entries from {@code start}, each delivered again (its fields
     * null if the entry was deleted since, and then not counted as delivered).
     */
    public List<Delivered> deliverPending(StreamGroup.Consumer consumer, StreamId start, long count) {
        List<Delivered> delivered = new ArrayList<>();
        long now = keyspace.now();
        for (var entry : consumer.pending.tailMap(start, true).entrySet()) {
            if (delivered.size() >= count) {
                break;
            }
            byte[][] fieldsAndValues = entryFields(entry.getKey());
            if (fieldsAndValues != null) {
                groupChange(false);
                entry.getValue().deliveryTime = now;
                entry.getValue().deliveryCount++;
            }
            delivered.add(new Delivered(entry.getKey(), fieldsAndValues, entry.getValue(), null));
        }
        return delivered;
    }

    /** The fields and values of the entry {@code id}, or null if there is none. */
    public byte[][] entryFields(StreamId id) {
        byte[][][] found = new byte[1][][];
        stream.range(id, id, false, (entryId, fieldsAndValues) -> {
            found[0] = fieldsAndValues;
            return false;
        });
        return found[0];
    }

    /** XACK: how many of {@code ids} were pending in the group, which they no longer are. */
    public int acknowledge(StreamGroup group, StreamId[] ids) {
        int acknowledged = 0;
        for (StreamId id : ids) {
            if (group.pending.containsKey(id)) {
                groupChange(false);
                group.acknowledge(id);
                acknowledged++;
            }
        }
        return acknowledged;
    }

    /** Whether the entry {@code id} is in the stream (Redis's streamEntryExists). */
    public boolean contains(StreamId id) {
        return stream.contains(id);
    }

    /**
     * XCLAIM and XAUTOCLAIM: the pending entry {@code id} (made from nothing when {@code force},
     * as no consumer's) becomes {@code consumer}'s, delivered at {@code deliveryTime}, its count
     * {@code retryCount} if that is not negative, else one more unless {@code justId}.
     */
    public StreamGroup.Pending claim(StreamGroup group, StreamId id, StreamGroup.Consumer consumer,
                                     long deliveryTime, long retryCount, boolean justId) {
        groupChange(false);
        StreamGroup.Pending entry = group.pending.get(id);
        if (entry == null) {
            entry = new StreamGroup.Pending(null, deliveryTime, 1);
            group.pending.put(id, entry);
        }
        if (entry.consumer != consumer) {
            if (entry.consumer != null) {
                entry.consumer.pending.remove(id);
            }
            consumer.pending.put(id, entry);
            entry.consumer = consumer;
        }
        entry.deliveryTime = deliveryTime;
        if (retryCount >= 0) {
            entry.deliveryCount = retryCount;
        } else if (!justId) {
            entry.deliveryCount++;
        }
        return entry;
    }

    /** A pending entry whose stream entry was deleted leaves the group (XCLAIM and XAUTOCLAIM do that). */
    public void dropPending(StreamGroup group, StreamId id) {
        groupChange(false);
        group.acknowledge(id);
    }

    /** XCLAIM's LASTID: the group's last delivered id moves up to {@code lastId}; false if it was not below. */
    public boolean raiseGroupId(StreamGroup group, StreamId lastId) {
        if (lastId.compareTo(group.lastId) <= 0) {
            return false;
        }
        groupChange(false);
        group.lastId = lastId;
        return true;
    }

    /** Redis's streamReplyWithCGLag: entries not yet read by the group, or null when that is unknown. */
    public Long lag(StreamGroup group) {
        if (stream.entriesAdded == 0) {
            return 0L;
        }
        if (group.entriesRead != StreamGroup.INVALID_ENTRIES_READ && !hasTombstones(group.lastId)) {
            return stream.entriesAdded - group.entriesRead;
        }
        long entriesRead = entriesReadAt(group.lastId);
        return entriesRead == StreamGroup.INVALID_ENTRIES_READ ? null : stream.entriesAdded - entriesRead;
    }

    /** Redis's streamRangeHasTombstones from {@code start} to the end: a deleted entry may lie there. */
    private boolean hasTombstones(StreamId start) {
        if (stream.length == 0 || stream.maxDeletedId.isZero() || stream.firstId.compareTo(stream.maxDeletedId) > 0) {
            return false;
        }
        return start.compareTo(stream.maxDeletedId) <= 0;
    }

    /**
     * Redis's streamEstimateDistanceFromFirstEverEntry: the entries-read counter of {@code id},
     * or {@link StreamGroup#INVALID_ENTRIES_READ} when deletions make it unknowable.
     */
    private long entriesReadAt(StreamId id) {
        if (stream.entriesAdded == 0) {
            return 0;
        }
        if (stream.length == 0 && id.compareTo(stream.lastId) <= 0) {
            return stream.entriesAdded;
        }
        int toLast = id.compareTo(stream.lastId);
        if (toLast == 0) {
            return stream.entriesAdded;
        } else if (toLast > 0) {
            return StreamGroup.INVALID_ENTRIES_READ;
        }
        int toFirst = id.compareTo(stream.firstId);
        if (stream.maxDeletedId.isZero() || stream.maxDeletedId.compareTo(stream.firstId) < 0) {
            if (toFirst < 0) {
                return stream.entriesAdded - stream.length;
            } else if (toFirst == 0) {
                return stream.entriesAdded - stream.length + 1;
            }
        }
        return StreamGroup.INVALID_ENTRIES_READ;
    }

    /**
     * The groups are about to change: as {@link #change} for a stream not yet stored (XGROUP
     * CREATE MKSTREAM), else a change WATCH does not see, waking blocked clients if {@code wakesBlocked}.
     */
    private void groupChange(boolean wakesBlocked) {
        if (id == 0) {
            change();
        } else {
            keyspace.beforeGroupChange(id, wakesBlocked);
        }
    }

    /** The stream is about to change in place: creates the key first, or tells the keyspace (a snapshot copies it). */
    private void change() {
        if (id == 0) {
            id = keyspace.storeTable(0, key, Encoding.STREAM, stream);
        } else {
            keyspace.beforeTableChange(id);
        }
    }
}
