package io.kvd.server.rdb;

import io.kvd.server.store.StreamId;

import java.util.List;

/**
 * One key's value between the keyspace and RDB bytes, whatever encoding either side has: what the
 * loader reads and the keyspace gets ({@link StoredValues}), and what the writer serializes.
 */
public sealed interface RdbValue {
    record Str(byte[] bytes) implements RdbValue {
    }

    /** A list's elements, head first. */
    record ListOf(List<byte[]> elements) implements RdbValue {
    }

    record SetOf(List<byte[]> members) implements RdbValue {
    }

    /** A hash's fields each followed by its value. */
    record HashOf(List<byte[]> fieldsAndValues) implements RdbValue {
    }

    /** A sorted set's members in score order and their scores. */
    record ZSetOf(List<byte[]> members, double[] scores) implements RdbValue {
    }

    /** A stream: its live entries in order, its counters and consumer groups. */
    record StreamOf(List<Entry> entries, StreamId lastId, StreamId firstId, StreamId maxDeletedId,
                    long entriesAdded, List<Group> groups) implements RdbValue {
    }

    record Entry(StreamId id, byte[][] fieldsAndValues) {
    }

    /** A consumer group: its global pending list, with delivery times and counts, and its consumers. */
    record Group(byte[] name, StreamId lastId, long entriesRead, List<Nack> pending, List<Consumer> consumers) {
    }

    record Nack(StreamId id, long deliveryTime, long deliveryCount) {
    }

    /** A consumer and the ids of its pending entries (each also in the group's list). */
    record Consumer(byte[] name, long seenTime, List<StreamId> pending) {
    }
}
