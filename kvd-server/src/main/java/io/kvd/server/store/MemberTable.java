package io.kvd.server.store;

import java.util.SplittableRandom;
import java.util.function.BiConsumer;

/**
 * A large collection's members (a hash's fields with their values, a set's members with empty
 * values), as the keyspace keeps its keys: packed in pages, addressed by id, chained in an
 * incrementally rehashed table, so a million members are a few dozen arrays for the collector.
 */
final class MemberTable {
    int size() {
        throw new UnsupportedOperationException();
    }

    /** The member's value, or null if absent. */
    byte[] get(byte[] member) {
        throw new UnsupportedOperationException();
    }

    boolean contains(byte[] member) {
        throw new UnsupportedOperationException();
    }

    /** Sets the member's value; true if the member is new. */
    boolean put(byte[] member, byte[] value) {
        throw new UnsupportedOperationException();
    }

    boolean remove(byte[] member) {
        throw new UnsupportedOperationException();
    }

    void forEach(BiConsumer<byte[], byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /** Redis's dictScan over the members; the next cursor, 0 when done. */
    long scan(long cursor, BiConsumer<byte[], byte[]> visitor) {
        throw new UnsupportedOperationException();
    }

    /** {@code {member, value}} drawn at random (Redis's dictGetFairRandomKey); the table must not be empty. */
    byte[][] random(SplittableRandom random) {
        throw new UnsupportedOperationException();
    }

    /** A deep copy (COPY). */
    MemberTable copy() {
        throw new UnsupportedOperationException();
    }

    void checkInvariants() {
        throw new UnsupportedOperationException();
    }
}
