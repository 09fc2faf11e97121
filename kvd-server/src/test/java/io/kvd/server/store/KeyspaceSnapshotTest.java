package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot hands out every key live at its start exactly once, with the value and deadline of
 * that moment, whatever the keyspace does while it runs; keys created later are never handed out.
 */
class KeyspaceSnapshotTest {
    private static final long NOW = 1_700_000_000_000L;

    private final Keyspace keyspace = new Databases(1, 3).get(0);
    private RecordingSink sink = new RecordingSink();

    KeyspaceSnapshotTest() {
        keyspace.setTime(NOW);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private KeyspaceSnapshot start() {
        sink = new RecordingSink();
        return keyspace.startSnapshot(64, sink);
    }

    /** What the snapshot handed out: key to "value@deadline" (a collection as {@link RecordingSink#describe}). */
    private Map<String, String> handedOut() {
        return sink.handedOut(0);
    }

    private void finish(KeyspaceSnapshot snapshot) {
        while (!snapshot.step(3)) {
            // Each step looks at 3 more ids.
        }
        keyspace.stopSnapshot(snapshot);
        sink.assertConsistent();
    }

    private void putKeys(int n) {
        for (int i = 0; i < n; i++) {
            keyspace.put(b("k" + i), b("v" + i), PERSISTENT);
        }
    }

    @Test
    void handsOutEveryKeyWithItsDeadline() {
        putKeys(3);
        keyspace.put(b("t"), b("x"), NOW + 500);
        finish(start());
        assertThat(handedOut()).containsOnly(Map.entry("k0", "v0@-1"), Map.entry("k1", "v1@-1"),
                Map.entry("k2", "v2@-1"), Map.entry("t", "x@" + (NOW + 500)));
    }

    @Test
    void overwriteAheadOfTheTraversalHandsOutTheOldValue() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        keyspace.put(b("k19"), b("new"), PERSISTENT);
        keyspace.putKeepingDeadline(b("k18"), b("vX8"));
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k19", "v19@-1").containsEntry("k18", "v18@-1").hasSize(20);
    }

    @Test
    void inPlaceEditsAheadOfTheTraversalHandOutTheValueBeforeTheEdit() {
        putKeys(20);
        String large = "a".repeat(EntryPages.LARGEST_SHARED + 100);
        keyspace.put(b("large"), b(large), NOW + 500);
        KeyspaceSnapshot snapshot = start();
        StringView edited = keyspace.editString(b("large"), 1);
        edited.bytes()[edited.offset()] = 'b';
        edited = keyspace.editString(b("large"), 1);
        edited.bytes()[edited.offset() + 1] = 'c';
        StringView grown = keyspace.editString(b("k19"), 8);
        grown.bytes()[grown.offset() + 7] = 'x';
        finish(snapshot);
        assertThat(handedOut()).containsEntry("large", large + "@" + (NOW + 500)).containsEntry("k19", "v19@-1")
                .hasSize(21);
        assertThat(keyspace.get(b("large"))).isEqualTo(b("bc" + large.substring(2)));
        assertThat(keyspace.get(b("k19"))).isEqualTo(b("v19\0\0\0\0x"));
        keyspace.checkInvariants();
    }

    @Test
    void inPlaceEditBehindTheTraversalLeavesWhatWasHandedOut() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        snapshot.step(3);
        StringView edited = keyspace.editString(b("k0"), 2);
        edited.bytes()[edited.offset()] = 'X';
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k0", "v0@-1").hasSize(20);
    }

    @Test
    void collectionChangesAheadOfTheTraversalHandOutTheOldMembers() {
        putKeys(5);
        String longField = "f".repeat(65);
        keyspace.hashForWrite(b("table")).put(b(longField), b("1"));
        keyspace.hashForWrite(b("packed")).put(b("a"), b("1"));
        keyspace.setForWrite(b("ints")).add(b("2"));
        keyspace.setForWrite(b("gone")).add(b("x"));
        KeyspaceSnapshot snapshot = start();

        keyspace.hashForWrite(b("table")).put(b("b"), b("2"));
        keyspace.hashForWrite(b("table")).remove(b(longField));
        keyspace.hashForWrite(b("packed")).put(b("a"), b("changed"));
        keyspace.setForWrite(b("ints")).add(b("not an integer"));
        keyspace.setForWrite(b("gone")).remove(b("x"));
        finish(snapshot);

        assertThat(handedOut()).containsEntry("table", "hash " + longField + "=1@-1")
                .containsEntry("packed", "hash a=1@-1").containsEntry("ints", "set 2@-1")
                .containsEntry("gone", "set x@-1").hasSize(9);
    }

    @Test
    void listChangesAheadOfTheTraversalHandOutTheOldElementsInOrder() {
        putKeys(5);
        ListValue small = keyspace.listForWrite(b("small"));
        small.push(b("a"), false);
        small.push(b("a"), false);
        small.push(b("b"), false);
        ListValue large = keyspace.listForWrite(b("large"));
        for (int i = 0; i < 3000; i++) {
            large.push(b("e" + i), false);
        }
        keyspace.listForWrite(b("gone")).push(b("x"), false);
        KeyspaceSnapshot snapshot = start();

        keyspace.list(b("small")).push(b("new"), true);
        keyspace.list(b("large")).pop(true);
        keyspace.list(b("large")).set(100, b("changed"));
        keyspace.list(b("gone")).pop(false);
        finish(snapshot);

        StringBuilder expectedLarge = new StringBuilder("list");
        for (int i = 0; i < 3000; i++) {
            expectedLarge.append(" e").append(i);
        }
        assertThat(handedOut()).containsEntry("small", "list a a b@-1")
                .containsEntry("large", expectedLarge + "@-1").containsEntry("gone", "list x@-1").hasSize(8);
    }

    @Test
    void aLongListChangedDuringItsWalkIsHandedOutAsItWas() {
        ListValue large = keyspace.listForWrite(b("large"));
        StringBuilder expected = new StringBuilder("list");
        for (int i = 0; i < 5000; i++) {
            large.push(b("e" + i), false);
            expected.append(" e").append(i);
        }
        KeyspaceSnapshot snapshot = start();
        snapshot.step(3);
        snapshot.step(3);
        // The walk started: pops then pushes write where popped elements were, in the same arrays.
        ListValue list = keyspace.list(b("large"));
        list.pop(true);
        list.pop(false);
        list.push(b("new-head"), true);
        list.push(b("new-tail"), false);
        list.set(2500, b("changed"));
        list.insert(b("e100"), b("inserted"), true);
        list.remove(0, b("e7"));
        list.trim(10, 4000);
        keyspace.rename(b("large"), b("renamed"));
        finish(snapshot);
        assertThat(handedOut()).containsOnly(Map.entry("large", expected + "@-1"));
        assertThat(sink.largestBatch()).isEqualTo(64);
        keyspace.checkInvariants();
    }

    @Test
    void aStreamChangedDuringItsWalkIsHandedOutAsItWas() {
        StreamValue stream = keyspace.streamForWrite(b("s"));
        for (int i = 1; i <= 1000; i++) {
            stream.add(new StreamId(i, 0), new byte[][] {b("f"), b("v" + i)}, 0);
        }
        stream.delete(new StreamId[] {new StreamId(3, 0)});
        Map<String, String> before = RecordingSink.describe(keyspace);
        KeyspaceSnapshot snapshot = start();
        snapshot.step(3);
        snapshot.step(3);
        // The walk started: deletes flag entries inside held nodes, appends write past them.
        StreamValue changed = keyspace.stream(b("s"));
        changed.delete(new StreamId[] {new StreamId(5, 0), new StreamId(500, 0), new StreamId(1000, 0)});
        changed.add(new StreamId(2000, 0), new byte[][] {b("g"), b("w")}, 0);
        changed.trim(0, new StreamId(300, 0), false, 0);
        changed.setId(new StreamId(3000, 0), -1, StreamId.MIN);
        keyspace.rename(b("s"), b("renamed"));
        finish(snapshot);
        assertThat(handedOut()).isEqualTo(before);
        keyspace.checkInvariants();
    }

    @Test
    void aStreamsGroupsAreHandedOutAsTheyWereWhenTheWalkReachedIt() {
        StreamValue stream = keyspace.streamForWrite(b("s"));
        for (int i = 1; i <= 300; i++) {
            stream.add(new StreamId(i, 0), new byte[][] {b("f"), b("v" + i)}, 0);
        }
        stream.createGroup(b("g"), StreamId.MIN, StreamGroup.INVALID_ENTRIES_READ);
        StreamGroup group = stream.group(b("g"));
        stream.deliverNew(group, stream.createConsumer(group, b("a")), 3, false);
        stream.createConsumer(group, b("idle"));
        Map<String, String> before = RecordingSink.describe(keyspace);
        KeyspaceSnapshot snapshot = start();
        snapshot.step(3);
        StreamValue changed = keyspace.stream(b("s"));
        StreamGroup changedGroup = changed.group(b("g"));
        changed.deliverNew(changedGroup, changed.createConsumer(changedGroup, b("b")), 2, false);
        changed.acknowledge(changedGroup, new StreamId[] {new StreamId(1, 0)});
        changed.deleteConsumer(changedGroup, b("idle"));
        changed.destroyGroup(b("g"));
        finish(snapshot);
        assertThat(handedOut()).isEqualTo(before);
        assertThat(before.get("s")).contains(" group g 3-0 read=3 1-0>a@");
    }

    @Test
    void aStreamsRecordsReplayAsTheStreamWithItsCounters() {
        StreamValue stream = keyspace.streamForWrite(b("s"));
        for (int i = 1; i <= 300; i++) {
            stream.add(new StreamId(i, i % 3), i % 5 == 0 ? new byte[][] {b("other"), b("x"), b("y"), b("z")}
                    : new byte[][] {b("f"), b("v" + i)}, 0);
        }
        stream.delete(new StreamId[] {new StreamId(300, 0), new StreamId(7, 1)});
        StreamValue empty = keyspace.streamForWrite(b("empty"));
        empty.add(new StreamId(5, 5), new byte[][] {b("f"), b("v")}, 0);
        empty.delete(new StreamId[] {new StreamId(5, 5)});
        keyspace.setDeadline(b("s"), NOW + 1000);
        finish(start());
        Databases replayed = new Databases(1, 3);
        replayed.get(0).setTime(NOW);
        sink.replayOnto(replayed);
        assertThat(RecordingSink.describe(replayed.get(0))).isEqualTo(RecordingSink.describe(keyspace));
    }

    @Test
    void aListsRecordsReplayAsTheList() {
        ListValue list = keyspace.listForWrite(b("l"));
        for (int i = 0; i < 1000; i++) {
            list.push(b(Integer.toString(i % 7)), i % 2 == 0);
        }
        keyspace.setDeadline(b("l"), NOW + 1000);
        finish(start());
        Databases replayed = new Databases(1, 3);
        replayed.get(0).setTime(NOW);
        sink.replayOnto(replayed);
        assertThat(RecordingSink.describe(replayed.get(0))).isEqualTo(RecordingSink.describe(keyspace));
    }

    @Test
    void sortedSetsAreHandedOutAsTheyWereInBatchesOf64AndReplayTheSame() {
        ZSetValue small = keyspace.zsetForWrite(b("small"));
        small.put(b("a"), 0.5);
        small.put(b("b"), Double.NEGATIVE_INFINITY);
        ZSetValue large = keyspace.zsetForWrite(b("large"));
        for (int i = 0; i < 300; i++) {
            large.put(b("m" + i), i * 0.1);
        }
        Map<String, String> before = RecordingSink.describe(keyspace);
        KeyspaceSnapshot snapshot = start();
        snapshot.step(2);

        ZSetValue changed = keyspace.zset(b("large"));
        changed.put(b("m299"), -1);
        changed.remove(b("m7"));
        changed.put(b("new"), 3);
        keyspace.zset(b("small")).remove(b("a"));
        finish(snapshot);

        assertThat(handedOut()).isEqualTo(before);
        assertThat(sink.largestBatch()).isEqualTo(64);
        Databases replayed = new Databases(1, 3);
        sink.replayOnto(replayed);
        assertThat(RecordingSink.describe(replayed.get(0))).isEqualTo(before);
        replayed.get(0).checkInvariants();
    }

    @Test
    void removalAheadOfTheTraversalHandsOutTheKeyFirst() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        keyspace.remove(b("k15"));
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k15", "v15@-1").hasSize(20);
    }

    @Test
    void deadlineChangeAheadOfTheTraversalHandsOutTheOldDeadline() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        keyspace.setDeadline(b("k17"), NOW + 1000);
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k17", "v17@-1");
    }

    @Test
    void renameHandsOutBothKeysAsTheyWere() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        keyspace.rename(b("k16"), b("k17"));
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k16", "v16@-1").containsEntry("k17", "v17@-1").hasSize(20);
    }

    @Test
    void renamedCollectionIsHandedOutAsWhatItWas() {
        keyspace.hashForWrite(b("h")).put(b("a"), b("1"));
        keyspace.setForWrite(b("s")).add(b("x"));
        KeyspaceSnapshot snapshot = start();
        keyspace.rename(b("h"), b("h2"));
        keyspace.rename(b("s"), b("s2"));
        finish(snapshot);
        assertThat(handedOut()).containsOnly(Map.entry("h", "hash a=1@-1"), Map.entry("s", "set x@-1"));
    }

    @Test
    void keyCreatedDuringTheSnapshotIsNotHandedOut() {
        putKeys(5);
        KeyspaceSnapshot snapshot = start();
        keyspace.put(b("late"), b("x"), PERSISTENT);
        finish(snapshot);
        assertThat(handedOut()).doesNotContainKey("late").hasSize(5);
    }

    @Test
    void keyRecreatedOnAReusedIdIsNotHandedOut() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        keyspace.remove(b("k12"));
        keyspace.put(b("reuses-the-id"), b("x"), PERSISTENT);
        keyspace.put(b("k12"), b("again"), PERSISTENT);
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k12", "v12@-1").doesNotContainKey("reuses-the-id").hasSize(20);
    }

    @Test
    void keyExpiredBeforeTheTraversalReachesItIsSkipped() {
        putKeys(5);
        keyspace.put(b("t"), b("x"), NOW + 10);
        KeyspaceSnapshot snapshot = start();
        keyspace.setTime(NOW + 11);
        finish(snapshot);
        assertThat(handedOut()).doesNotContainKey("t").hasSize(5);
    }

    @Test
    void flushGoesOnOverTheEntriesOfTheStart() {
        putKeys(20);
        KeyspaceSnapshot snapshot = start();
        snapshot.step(5);
        keyspace.clear();
        keyspace.put(b("k3"), b("after"), PERSISTENT);
        keyspace.put(b("fresh"), b("x"), PERSISTENT);
        finish(snapshot);
        assertThat(handedOut()).containsEntry("k3", "v3@-1").doesNotContainKey("fresh").hasSize(20);
    }

    /**
     * A seeded random mix of every kind of change (overwrites of the same and another length,
     * deletes, deadlines set and removed, renames, lazy and active expiry, re-creation on reused
     * ids), the clock moving, interleaved with snapshot steps: the snapshot equals the keyspace of
     * the start, except keys whose deadline passed meanwhile, which may be skipped.
     */
    @Test
    void snapshotIsTheKeyspaceAtTheStartUnderRandomChanges() {
        long seed = Long.getLong("snapshot.seed", 20_250_101L);
        System.out.println("KeyspaceSnapshotTest seed " + seed + " (override with -Dsnapshot.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 20; round++) {
            keyspace.clear();
            long now = NOW;
            keyspace.setTime(now);
            int range = 200 + random.nextInt(2000);
            for (int i = 0; i < range; i++) {
                randomChange(random, range, now);
            }
            Map<String, String> atStart = new HashMap<>();
            Map<String, Long> deadlines = new HashMap<>();
            List<byte[]> keys = new ArrayList<>();
            keyspace.forEachKey(keys::add);
            for (byte[] key : keys) {
                String k = new String(key, StandardCharsets.UTF_8);
                long deadline = keyspace.deadline(key);
                atStart.put(k, new String(keyspace.get(key), StandardCharsets.UTF_8) + "@" + deadline);
                deadlines.put(k, deadline);
            }
            KeyspaceSnapshot snapshot = start();
            while (!snapshot.step(1 + random.nextInt(8))) {
                for (int i = random.nextInt(12); i > 0; i--) {
                    randomChange(random, range, now);
                }
                if (random.nextInt(20) == 0) {
                    now += random.nextInt(50);
                    keyspace.setTime(now);
                    keyspace.expireSample(20, new long[2]);
                }
                keyspace.rehashStep(10_000);
            }
            keyspace.stopSnapshot(snapshot);
            keyspace.checkInvariants();
            sink.assertConsistent();
            long end = now;
            atStart.forEach((key, entry) -> {
                if (deadlines.get(key) == PERSISTENT || deadlines.get(key) >= end) {
                    assertThat(handedOut()).containsEntry(key, entry);
                } else if (handedOut().containsKey(key)) {
                    assertThat(handedOut().get(key)).isEqualTo(entry);
                }
            });
            assertThat(atStart.keySet()).containsAll(handedOut().keySet());
        }
    }

    private void randomChange(SplittableRandom random, int range, long now) {
        byte[] key = b("k" + random.nextInt(range));
        byte[] value = b("v" + random.nextInt(1000));
        switch (random.nextInt(9)) {
            case 0, 1 -> keyspace.put(key, value, random.nextInt(4) == 0 ? now + random.nextInt(200) : PERSISTENT);
            case 2 -> keyspace.putKeepingDeadline(key, value);
            case 3 -> keyspace.remove(key);
            case 4 -> keyspace.setDeadline(key, random.nextBoolean() ? PERSISTENT : now + random.nextInt(200));
            case 5 -> keyspace.rename(key, b("k" + random.nextInt(range)));
            case 6 -> keyspace.get(key);
            case 7 -> {
                StringView edited = keyspace.editString(key, 1 + random.nextInt(8));
                edited.bytes()[edited.offset() + random.nextInt(edited.length())] = 'e';
            }
            default -> keyspace.randomKey();
        }
    }
}
