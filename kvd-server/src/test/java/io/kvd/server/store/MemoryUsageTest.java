package io.kvd.server.store;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The store's memory estimates ({@link Keyspace#memoryUsage} and the figures MEMORY STATS shows):
 * what a key costs grows with its content, and for a large collection it matches what the heap
 * really holds for it, its object graph measured by JOL, within {@link #TOLERANCE} (the instance
 * sizes are summed from the fields, where HotSpot may pad a few bytes).
 */
class MemoryUsageTest {
    private static final double TOLERANCE = 0.01;
    private static final long ALL = Long.MAX_VALUE;
    /** A table-encoded key's entry: its key, a 4-byte handle, id and lengths; its slab ints, bucket and reference. */
    private static final int HANDLE_ENTRY_BUT_KEY = 4 + 2 + 4 + 20 + 4 + HeapSize.REFERENCE;

    static {
        // StreamId is a record, whose field offsets Unsafe refuses: JOL then finds them by probing.
        System.setProperty("jol.magicFieldOffset", "true");
    }

    private final Databases databases = new Databases(1, 7, new EncodingLimits());
    private final Keyspace keyspace = databases.get(0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void assertMatchesTheHeap(String key) {
        long measured = GraphLayout.parseInstance(keyspace.heldCollection(b(key))).totalSize()
                + HANDLE_ENTRY_BUT_KEY + key.length();
        long estimated = keyspace.memoryUsage(b(key), ALL);
        assertThat((double) estimated).isCloseTo(measured, within(measured * TOLERANCE));
    }

    @Test
    void missingKeyCostsNothing() {
        assertThat(keyspace.memoryUsage(b("nothing"), ALL)).isZero();
    }

    @Test
    void stringCostsItsEntryTheSlabIdsAndABucketSlot() {
        keyspace.put(b("key"), b("value"), Keyspace.PERSISTENT);
        // Entry: id 4, two 1-byte lengths, 3 + 5 bytes; slab: 6 ints (the access stamp the sixth); bucket: 1 int.
        assertThat(keyspace.memoryUsage(b("key"), ALL)).isEqualTo(4 + 2 + 3 + 5 + 24 + 4);
    }

    @Test
    void deadlineAddsItsSlot() {
        keyspace.put(b("key"), b("value"), Keyspace.PERSISTENT);
        long persistent = keyspace.memoryUsage(b("key"), ALL);
        keyspace.setDeadline(b("key"), Long.MAX_VALUE / 2);
        assertThat(keyspace.memoryUsage(b("key"), ALL)).isEqualTo(persistent + DeadlineIndex.SLOT_BYTES);
    }

    @Test
    void estimateGrowsWithContent() {
        HashValue hash = keyspace.hashForWrite(b("h"));
        long previous = 0;
        for (int round = 0; round < 6; round++) {
            for (int i = 0; i < 100; i++) {
                hash.put(b("field-" + round + "-" + i), b("value-" + i));
            }
            long now = keyspace.memoryUsage(b("h"), ALL);
            assertThat(now).isGreaterThan(previous);
            previous = now;
        }
    }

    @Test
    void hashTableMatchesTheHeap() {
        HashValue hash = keyspace.hashForWrite(b("h"));
        for (int i = 0; i < 20_000; i++) {
            hash.put(b("field:" + i), b("value:" + i));
        }
        assertThat(hash.encoding()).isEqualTo("hashtable");
        assertMatchesTheHeap("h");
    }

    @Test
    void setTableMatchesTheHeap() {
        SetValue set = keyspace.setForWrite(b("s"));
        for (int i = 0; i < 20_000; i++) {
            set.add(b("member:" + i));
        }
        assertMatchesTheHeap("s");
    }

    @Test
    void sortedSetMatchesTheHeap() {
        ZSetValue zset = keyspace.zsetForWrite(b("z"));
        for (int i = 0; i < 20_000; i++) {
            zset.put(b("member:" + i), i * 0.5);
        }
        assertThat(zset.encoding()).isEqualTo("skiplist");
        assertMatchesTheHeap("z");
    }

    @Test
    void quicklistMatchesTheHeap() {
        ListValue list = keyspace.listForWrite(b("l"));
        for (int i = 0; i < 20_000; i++) {
            list.push(b("element:" + i), false);
        }
        assertMatchesTheHeap("l");
    }

    @Test
    void streamWithAGroupMatchesTheHeap() {
        StreamValue stream = keyspace.streamForWrite(b("x"));
        for (int i = 1; i <= 20_000; i++) {
            stream.add(new StreamId(i, 0), new byte[][] {b("field"), b("value:" + i)}, 0);
        }
        stream.createGroup(b("g"), StreamId.MIN, StreamGroup.INVALID_ENTRIES_READ);
        StreamGroup group = stream.group(b("g"));
        stream.deliverNew(group, stream.createConsumer(group, b("alice")), 1000, false);
        assertMatchesTheHeap("x");
    }

    @Test
    void samplingExtrapolatesFromTheFirstNodes() {
        ListValue list = keyspace.listForWrite(b("l"));
        for (int i = 0; i < 20_000; i++) {
            list.push(b("same-size-element"), false);
        }
        long all = keyspace.memoryUsage(b("l"), ALL);
        long sampled = keyspace.memoryUsage(b("l"), Keyspace.DEFAULT_MEMORY_SAMPLES);
        assertThat((double) sampled).isCloseTo(all, within(all * 0.02));
    }

    @Test
    void storeFiguresCoverTheKeysIndexDeadlinesAndData() {
        long emptyData = keyspace.dataMemoryUsage(ALL);
        for (int i = 0; i < 1000; i++) {
            keyspace.put(b("key:" + i), b("value:" + i), i % 2 == 0 ? Long.MAX_VALUE / 2 : Keyspace.PERSISTENT);
        }
        assertThat(keyspace.dataMemoryUsage(ALL)).isGreaterThan(emptyData + 1000 * 16);
        assertThat(keyspace.indexMemoryUsage()).isGreaterThanOrEqualTo(1000 * 24);
        assertThat(keyspace.deadlinesMemoryUsage()).isGreaterThanOrEqualTo(500 * DeadlineIndex.SLOT_BYTES);
    }
}
