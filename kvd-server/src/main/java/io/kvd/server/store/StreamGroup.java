package io.kvd.server.store;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One consumer group of a stream (Redis's streamCG): the last id delivered, how many entries
 * that is from the stream's first ever ({@link #INVALID_ENTRIES_READ} when unknown), the pending
 * entries (delivered, not acknowledged) and the consumers, each with its own share of them.
 * Read through here; changed only through {@link StreamValue}, which tells the keyspace first.
 */
public final class StreamGroup {
    /** Redis's SCG_INVALID_ENTRIES_READ. */
    public static final long INVALID_ENTRIES_READ = -1;

    /** A delivered entry not yet acknowledged (Redis's streamNACK). */
    public static final class Pending {
        Consumer consumer;
        long deliveryTime;
        long deliveryCount;

        Pending(Consumer consumer, long deliveryTime, long deliveryCount) {
            this.consumer = consumer;
            this.deliveryTime = deliveryTime;
            this.deliveryCount = deliveryCount;
        }

        public Consumer consumer() {
            return consumer;
        }

        public long deliveryTime() {
            return deliveryTime;
        }

        public long deliveryCount() {
            return deliveryCount;
        }
    }

    /** A consumer: its name, when it was last seen (Redis 7.0's seen-time) and its pending entries. */
    public static final class Consumer {
        final byte[] name;
        long seenTime;
        final TreeMap<StreamId, Pending> pending = new TreeMap<>();

        Consumer(byte[] name, long seenTime) {
            this.name = name;
            this.seenTime = seenTime;
        }

        public byte[] name() {
            return name;
        }

        public long seenTime() {
            return seenTime;
        }

        public NavigableMap<StreamId, Pending> pending() {
            return Collections.unmodifiableNavigableMap(pending);
        }
    }

    static final long ID_INSTANCE = HeapSize.ofInstance(StreamId.class);
    static final long TREE_MAP_INSTANCE = HeapSize.ofInstance(TreeMap.class);
    static final long TREE_MAP_ENTRY = treeMapEntry();
    private static final long INSTANCE = HeapSize.ofInstance(StreamGroup.class);
    private static final long PENDING_INSTANCE = HeapSize.ofInstance(Pending.class);
    private static final long CONSUMER_INSTANCE = HeapSize.ofInstance(Consumer.class);

    final byte[] name;
    StreamId lastId;
    long entriesRead;
    final TreeMap<StreamId, Pending> pending = new TreeMap<>();
    /** By name as Redis's radix tree orders them: bytes compared unsigned. */
    final TreeMap<byte[], Consumer> consumers = new TreeMap<>(Arrays::compareUnsigned);

    StreamGroup(byte[] name, StreamId lastId, long entriesRead) {
        this.name = name;
        this.lastId = lastId;
        this.entriesRead = entriesRead;
    }

    public byte[] name() {
        return name;
    }

    /**
     * Heap bytes of the group: its name and last id, each pending entry (its id, its record and
     * its node in the group's map and in its consumer's, which share the id and the record) and
     * each consumer (its name and map).
     */
    long memoryUsage() {
        long bytes = INSTANCE + HeapSize.of(name) + ID_INSTANCE + 2 * TREE_MAP_INSTANCE
                + pending.size() * (2 * TREE_MAP_ENTRY + ID_INSTANCE + PENDING_INSTANCE);
        for (Consumer consumer : consumers.values()) {
            bytes += TREE_MAP_ENTRY + CONSUMER_INSTANCE + HeapSize.of(consumer.name) + TREE_MAP_INSTANCE;
        }
        return bytes;
    }

    /** A node of a {@link TreeMap}: its class is private to java.util, so it is found by name. */
    private static long treeMapEntry() {
        try {
            return HeapSize.ofInstance(Class.forName("java.util.TreeMap$Entry"));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    public StreamId lastId() {
        return lastId;
    }

    public long entriesRead() {
        return entriesRead;
    }

    public NavigableMap<StreamId, Pending> pending() {
        return Collections.unmodifiableNavigableMap(pending);
    }

    public Consumer consumer(byte[] consumerName) {
        return consumers.get(consumerName);
    }

    public Collection<Consumer> consumers() {
        return Collections.unmodifiableCollection(consumers.values());
    }

    Consumer addConsumer(byte[] consumerName, long now) {
        Consumer consumer = new Consumer(consumerName.clone(), now);
        consumers.put(consumer.name, consumer);
        return consumer;
    }

    /** Adds or reassigns the pending entry {@code id} to {@code consumer}, delivered now for the first time. */
    Pending deliver(StreamId id, Consumer consumer, long now) {
        Pending entry = pending.get(id);
        if (entry == null) {
            entry = new Pending(consumer, now, 1);
            pending.put(id, entry);
        } else {
            entry.consumer.pending.remove(id);
            entry.consumer = consumer;
            entry.deliveryTime = now;
            entry.deliveryCount = 1;
        }
        consumer.pending.put(id, entry);
        return entry;
    }

    /** Removes the pending entry {@code id}; false if it was not pending. */
    boolean acknowledge(StreamId id) {
        Pending entry = pending.remove(id);
        if (entry == null) {
            return false;
        }
        entry.consumer.pending.remove(id);
        return true;
    }

    /** A deep copy: the same consumers and pending entries, shared with nothing of this one. */
    StreamGroup copy() {
        StreamGroup copy = new StreamGroup(name, lastId, entriesRead);
        for (Consumer consumer : consumers.values()) {
            Consumer consumerCopy = new Consumer(consumer.name, consumer.seenTime);
            copy.consumers.put(consumerCopy.name, consumerCopy);
            for (var entry : consumer.pending.entrySet()) {
                Pending pendingCopy = new Pending(consumerCopy, entry.getValue().deliveryTime,
                        entry.getValue().deliveryCount);
                consumerCopy.pending.put(entry.getKey(), pendingCopy);
                copy.pending.put(entry.getKey(), pendingCopy);
            }
        }
        return copy;
    }
}
