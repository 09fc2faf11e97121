package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot copies a large collection member by member, in short steps, as the members were
 * when it handed the collection out, under the key and database of its start, whatever happens to
 * the collection meanwhile; members added later are never handed out. Tables here are small (the
 * encodings' limits are 4) and batches of 3 members, so that every case takes several steps.
 */
class MemberWalkTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final long LATER = NOW + 1_000_000;
    private static final int BATCH = 3;

    private final Databases databases = newDatabases();
    private RecordingSink sink;
    private DatabasesSnapshot snapshot;

    private static Databases newDatabases() {
        EncodingLimits limits = new EncodingLimits();
        limits.setHashMaxListpackEntries(4);
        limits.setSetMaxIntsetEntries(4);
        Databases databases = new Databases(2, 5, limits);
        databases.setTime(NOW);
        return databases;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Keyspace db(int index) {
        return databases.get(index);
    }

    /** A set of the integers 0 to {@code members - 1}: a table past the first 4. */
    private void fillSet(int db, String key, int members) {
        for (int i = 0; i < members; i++) {
            db(db).setForWrite(b(key)).add(b(Integer.toString(i)));
        }
    }

    /** A hash of fields f0.. with values v0..: a table past the first 4. */
    private void fillHash(int db, String key, int fields) {
        for (int i = 0; i < fields; i++) {
            db(db).hashForWrite(b(key)).put(b("f" + i), b("v" + i));
        }
    }

    private List<Map<String, String>> contents(Databases of) {
        List<Map<String, String>> contents = new ArrayList<>();
        of.forEach(keyspace -> contents.add(RecordingSink.describe(keyspace)));
        return contents;
    }

    /** Starts the snapshot and returns the databases' contents at that moment. */
    private List<Map<String, String>> start() {
        List<Map<String, String>> atStart = contents(databases);
        sink = new RecordingSink();
        snapshot = databases.startSnapshot(BATCH, sink);
        return atStart;
    }

    /**
     * Starts the snapshot and steps it into the walk of the first key created (id 1): two of its
     * members handed out, the rest not yet. Returns the contents at the start.
     */
    private List<Map<String, String>> startWithTheFirstWalkUnderWay() {
        List<Map<String, String>> atStart = start();
        snapshot.step(1);
        snapshot.step(2);
        return atStart;
    }

    /** Strings k0.. in database 0: entries the traversal meets before any created after them. */
    private void putStrings(int count) {
        for (int i = 0; i < count; i++) {
            db(0).put(b("k" + i), b("v" + i), PERSISTENT);
        }
    }

    private List<Map<String, String>> handedOut() {
        return List.of(sink.handedOut(0), sink.handedOut(1));
    }

    private void finish() {
        while (!snapshot.step(2)) {
            // Each step looks at 2 more ids.
        }
        snapshot.stop();
        sink.assertConsistent();
        databases.checkInvariants();
    }

    /** Finishes the snapshot: it handed out {@code atStart}, what {@link #start} returned. */
    private void assertHandedOutAsAtTheStart(List<Map<String, String>> atStart) {
        finish();
        assertThat(handedOut()).isEqualTo(atStart);
    }

    @Test
    void largeCollectionGoesOutInBatchesThenItsDeadline() {
        fillHash(0, "h", 10);
        db(0).setDeadline(b("h"), LATER);
        fillSet(1, "s", 10);
        List<Map<String, String>> atStart = start();
        assertHandedOutAsAtTheStart(atStart);
        assertThat(sink.handedOut(0)).containsEntry("h", "hash f0=v0 f1=v1 f2=v2 f3=v3 f4=v4 f5=v5 f6=v6 f7=v7 f8=v8 f9=v9@"
                + LATER);
        assertThat(sink.largestBatch()).isEqualTo(BATCH);
    }

    @Test
    void eachStepLooksAtItsIdsOfMembersOnly() {
        fillSet(0, "s", 100);
        List<Map<String, String>> atStart = start();
        int steps = 0;
        for (int before = 0; !snapshot.step(2); before = sink.members()) {
            // Two ids, so at most one batch completed.
            assertThat(sink.members() - before).isLessThanOrEqualTo(BATCH);
            steps++;
        }
        assertThat(steps).isGreaterThanOrEqualTo(100 / 2);
        snapshot.stop();
        assertThat(handedOut()).isEqualTo(atStart);
    }

    @Test
    void memberChangedAheadOfTheWalkIsHandedOutWithItsOldValue() {
        fillHash(0, "h", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        db(0).hashForWrite(b("h")).put(b("f19"), b("changed"));
        db(0).hashForWrite(b("h")).put(b("f0"), b("changed too"));
        db(0).hashForWrite(b("h")).put(b("f10"), b("a longer value than before, moved elsewhere in the pages"));
        assertHandedOutAsAtTheStart(atStart);
        assertThat(db(0).hash(b("h")).get(b("f19"))).isEqualTo(b("changed"));
    }

    @Test
    void memberRemovedAheadOfTheWalkIsHandedOut() {
        fillSet(0, "s", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        db(0).set(b("s")).remove(b("19"));
        db(0).set(b("s")).remove(b("0"));
        assertHandedOutAsAtTheStart(atStart);
        assertThat(db(0).set(b("s")).size()).isEqualTo(18);
    }

    @Test
    void membersAddedAfterTheStartAreNotHandedOut() {
        fillSet(0, "s", 20);
        db(0).set(b("s")).remove(b("12"));
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        // Takes the id "12" had, free at the start.
        db(0).setForWrite(b("s")).add(b("reuses-a-free-id"));
        db(0).set(b("s")).remove(b("15"));
        // Takes the id "15" had, handed out just now.
        db(0).setForWrite(b("s")).add(b("reuses-an-id"));
        for (int i = 0; i < 10; i++) {
            db(0).setForWrite(b("s")).add(b("new-" + i));
        }
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void changeBeforeTheTraversalReachesTheKeyStartsItsWalk() {
        putStrings(10);
        fillSet(0, "s", 20);
        fillHash(0, "h", 20);
        List<Map<String, String>> atStart = start();
        db(0).set(b("s")).remove(b("7"));
        db(0).setForWrite(b("s")).add(b("late"));
        db(0).hashForWrite(b("h")).put(b("f3"), b("changed"));
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void keyDeletedWhileItsWalkIsPendingIsHandedOutWhole() {
        fillSet(0, "s", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        db(0).remove(b("s"));
        db(0).setForWrite(b("s")).add(b("other"));
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void renamedKeysMembersKeepTheNameOfTheStart() {
        fillSet(0, "walked", 20);
        putStrings(10);
        fillHash(0, "not reached", 20);
        fillHash(0, "overwritten", 20);
        fillHash(0, "compact", 3);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        db(0).rename(b("walked"), b("new name"));
        db(0).set(b("new name")).remove(b("19"));
        db(0).rename(b("not reached"), b("overwritten"));
        db(0).hash(b("overwritten")).remove(b("f19"));
        db(0).rename(b("compact"), b("compact renamed"));
        db(0).hash(b("compact renamed")).remove(b("f2"));
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void movedKeysMembersKeepTheDatabaseOfTheStart() {
        fillSet(0, "walked", 20);
        putStrings(10);
        fillHash(0, "not reached", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        db(0).move(b("walked"), db(1));
        db(1).set(b("walked")).remove(b("19"));
        db(1).setForWrite(b("walked")).add(b("new"));
        db(0).move(b("not reached"), db(1));
        db(1).hash(b("not reached")).put(b("f0"), b("changed"));
        assertHandedOutAsAtTheStart(atStart);
        assertThat(sink.handedOut(1)).isEmpty();
    }

    @Test
    void flushallLeavesTheWalksToFinishOverTheFrozenTables() {
        fillSet(0, "s", 20);
        fillHash(0, "h", 20);
        fillHash(1, "h", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        databases.clear();
        fillSet(0, "s", 30);
        db(1).hashForWrite(b("h")).put(b("f0"), b("after"));
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void swapdbLeavesEachWalkUnderTheDatabaseOfTheStart() {
        fillSet(0, "s", 20);
        fillHash(1, "h", 20);
        List<Map<String, String>> atStart = startWithTheFirstWalkUnderWay();
        databases.swap(0, 1);
        db(1).set(b("s")).remove(b("19"));
        db(0).hash(b("h")).remove(b("f19"));
        assertHandedOutAsAtTheStart(atStart);
    }

    @Test
    void collectionReplacedOrConvertedIsHandedOutAsItWas() {
        fillSet(0, "replaced", 20);
        fillHash(0, "copied over", 20);
        fillHash(0, "compact", 3);
        fillSet(0, "source", 10);
        List<Map<String, String>> atStart = start();
        snapshot.step(1);
        db(0).put(b("replaced"), b("a string now"), PERSISTENT);
        db(0).copy(b("source"), db(0), b("copied over"));
        db(0).set(b("copied over")).remove(b("9"));
        fillHash(0, "compact", 8);
        assertHandedOutAsAtTheStart(atStart);
        assertThat(db(0).objectEncoding(b("compact"))).isEqualTo("hashtable");
    }

    @Test
    void abandonedSnapshotIsToldNoMoreChanges() {
        fillSet(0, "s", 20);
        startWithTheFirstWalkUnderWay();
        snapshot.stop();
        int members = sink.members();
        db(0).set(b("s")).remove(b("19"));
        db(0).setForWrite(b("s")).add(b("new"));
        assertThat(sink.members()).isEqualTo(members);

        List<Map<String, String>> atStart = start();
        db(0).set(b("s")).remove(b("18"));
        assertHandedOutAsAtTheStart(atStart);
    }

    /**
     * A seeded random mix of changes to strings, hashes and sets in two databases (members set,
     * changed and removed, keys deleted, renamed, moved, copied, overwritten, deadlines set and
     * removed, SWAPDB, FLUSHALL) interleaved with snapshot steps of a few ids: what the snapshot
     * handed out is the databases of the start, and its records replayed, then the changes,
     * give the databases of the end, as an AOF rewrite followed by its delta replays.
     */
    @Test
    void snapshotReplaysToTheStartAndWithTheLaterChangesToTheEnd() {
        long seed = Long.getLong("snapshot.seed", 20_250_601L);
        System.out.println("MemberWalkTest seed " + seed + " (override with -Dsnapshot.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 30; round++) {
            databases.clear();
            for (int i = 0; i < 2000; i++) {
                randomChange(random).accept(databases);
            }
            List<Map<String, String>> atStart = start();
            List<Consumer<Databases>> changes = new ArrayList<>();
            while (!snapshot.step(1 + random.nextInt(4))) {
                for (int i = random.nextInt(6); i > 0; i--) {
                    Consumer<Databases> change = randomChange(random);
                    change.accept(databases);
                    changes.add(change);
                }
            }
            snapshot.stop();
            sink.assertConsistent();
            databases.checkInvariants();
            assertThat(handedOut()).as("round %d", round).isEqualTo(atStart);

            Databases replayed = newDatabases();
            sink.replayOnto(replayed);
            assertThat(contents(replayed)).as("round %d, the snapshot replayed", round).isEqualTo(atStart);
            changes.forEach(change -> change.accept(replayed));
            assertThat(contents(replayed)).as("round %d, then the changes", round).isEqualTo(contents(databases));
        }
    }

    /** A change drawn at random, to apply to the live databases and later to the replayed ones. */
    private static Consumer<Databases> randomChange(SplittableRandom random) {
        int db = random.nextInt(2);
        int n = random.nextInt(4);
        byte[] hashKey = b("h" + n);
        byte[] setKey = b("s" + n);
        byte[] key = b("hsk".charAt(random.nextInt(3)) + Integer.toString(n));
        byte[] other = b("hsk".charAt(random.nextInt(3)) + Integer.toString(random.nextInt(4)));
        int dice = random.nextInt(1000);
        byte[] member = b(random.nextInt(5) == 0 ? "m" + random.nextInt(40) : Integer.toString(random.nextInt(40)));
        byte[] value = b("v" + random.nextInt(1000));
        long deadline = random.nextBoolean() ? PERSISTENT : LATER + random.nextInt(1000);
        return databases -> {
            Keyspace keyspace = databases.get(db);
            Keyspace otherDb = databases.get(1 - db);
            try {
                if (dice < 350) {
                    keyspace.hashForWrite(hashKey).put(member, value);
                } else if (dice < 450) {
                    HashValue hash = keyspace.hash(hashKey);
                    if (hash != null) {
                        hash.remove(member);
                    }
                } else if (dice < 800) {
                    keyspace.setForWrite(setKey).add(member);
                } else if (dice < 900) {
                    SetValue set = keyspace.set(setKey);
                    if (set != null) {
                        set.remove(member);
                    }
                } else if (dice < 915) {
                    keyspace.remove(key);
                } else if (dice < 935) {
                    keyspace.rename(key, other);
                } else if (dice < 950) {
                    if (!otherDb.exists(key)) {
                        keyspace.move(key, otherDb);
                    }
                } else if (dice < 960) {
                    keyspace.copy(key, otherDb, other);
                } else if (dice < 970) {
                    keyspace.put(key, value, PERSISTENT);
                } else if (dice < 990) {
                    keyspace.setDeadline(key, deadline);
                } else if (dice < 998) {
                    databases.swap(0, 1);
                } else {
                    databases.clear();
                }
            } catch (WrongTypeException e) {
                // The same on replay.
            }
        };
    }
}
