package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kvd.server.store.Keyspace.MISSING;
import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

class KeyspaceTest {
    private static final long NOW = 1_700_000_000_000L;

    private final Keyspace keyspace = new Databases(1, 7).get(0);

    KeyspaceTest() {
        keyspace.setTime(NOW);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private Set<String> forEachKeyNames() {
        Set<String> keys = new HashSet<>();
        keyspace.forEachKey(key -> keys.add(s(key)));
        return keys;
    }

    private long scanStep(long cursor, Set<String> into) {
        return keyspace.scan(cursor, key -> into.add(s(key)));
    }

    /** Finishes a scan from {@code cursor}; true if some call found the table resizing. */
    private boolean scanToTheEndWhileResizing(long cursor, Set<String> into) {
        boolean resizing = false;
        while (cursor != 0) {
            resizing |= keyspace.resizing();
            cursor = scanStep(cursor, into);
        }
        return resizing;
    }

    private Set<String> scanAll() {
        Set<String> keys = new HashSet<>();
        long cursor = 0;
        do {
            cursor = scanStep(cursor, keys);
        } while (cursor != 0);
        return keys;
    }

    /** A key that expired a millisecond ago. */
    private void putExpired(String key) {
        keyspace.put(b(key), b("v"), NOW + 10);
        keyspace.setTime(NOW + 11);
    }

    @Test
    void putThenGetReturnsTheValue() {
        keyspace.put(b("a"), b("1"), PERSISTENT);
        assertThat(keyspace.get(b("a"))).isEqualTo(b("1"));
        assertThat(keyspace.exists(b("a"))).isTrue();
        assertThat(keyspace.size()).isEqualTo(1);
    }

    @Test
    void getOfAMissingKeyIsNull() {
        assertThat(keyspace.get(b("a"))).isNull();
        assertThat(keyspace.exists(b("a"))).isFalse();
    }

    @Test
    void putReplacesValueAndDeadline() {
        keyspace.put(b("a"), b("1"), NOW + 100);
        keyspace.put(b("a"), b("2"), PERSISTENT);
        assertThat(keyspace.get(b("a"))).isEqualTo(b("2"));
        assertThat(keyspace.deadline(b("a"))).isEqualTo(PERSISTENT);
        assertThat(keyspace.size()).isEqualTo(1);
        assertThat(keyspace.sizeWithDeadline()).isZero();
    }

    @Test
    void putKeepingDeadlineKeepsTheDeadline() {
        keyspace.put(b("a"), b("1"), NOW + 100);
        keyspace.putKeepingDeadline(b("a"), b("2"));
        assertThat(keyspace.get(b("a"))).isEqualTo(b("2"));
        assertThat(keyspace.deadline(b("a"))).isEqualTo(NOW + 100);
    }

    @Test
    void putKeepingDeadlineCreatesAPersistentKey() {
        keyspace.putKeepingDeadline(b("a"), b("1"));
        assertThat(keyspace.deadline(b("a"))).isEqualTo(PERSISTENT);
    }

    @Test
    void removeSaysWhetherTheKeyExisted() {
        keyspace.put(b("a"), b("1"), NOW + 100);
        assertThat(keyspace.remove(b("a"))).isTrue();
        assertThat(keyspace.remove(b("a"))).isFalse();
        assertThat(keyspace.size()).isZero();
        assertThat(keyspace.sizeWithDeadline()).isZero();
    }

    @Test
    void deadlineIsMissingPersistentOrTheAbsoluteTime() {
        keyspace.put(b("p"), b("1"), PERSISTENT);
        keyspace.put(b("t"), b("1"), NOW + 100);
        assertThat(keyspace.deadline(b("missing"))).isEqualTo(MISSING);
        assertThat(keyspace.deadline(b("p"))).isEqualTo(PERSISTENT);
        assertThat(keyspace.deadline(b("t"))).isEqualTo(NOW + 100);
    }

    @Test
    void setDeadlineSetsAndPersistentClears() {
        keyspace.put(b("a"), b("1"), PERSISTENT);
        assertThat(keyspace.setDeadline(b("a"), NOW + 5)).isTrue();
        assertThat(keyspace.sizeWithDeadline()).isEqualTo(1);
        assertThat(keyspace.setDeadline(b("a"), PERSISTENT)).isTrue();
        assertThat(keyspace.deadline(b("a"))).isEqualTo(PERSISTENT);
        assertThat(keyspace.sizeWithDeadline()).isZero();
    }

    @Test
    void setDeadlineOfAMissingKeyIsFalse() {
        assertThat(keyspace.setDeadline(b("a"), NOW + 5)).isFalse();
        assertThat(keyspace.size()).isZero();
    }

    @Test
    void renameMovesValueAndDeadlineAndReplacesTheTarget() {
        keyspace.put(b("from"), b("1"), NOW + 100);
        keyspace.put(b("to"), b("2"), PERSISTENT);
        assertThat(keyspace.rename(b("from"), b("to"))).isTrue();
        assertThat(keyspace.exists(b("from"))).isFalse();
        assertThat(keyspace.get(b("to"))).isEqualTo(b("1"));
        assertThat(keyspace.deadline(b("to"))).isEqualTo(NOW + 100);
        assertThat(keyspace.size()).isEqualTo(1);
        keyspace.checkInvariants();
    }

    @Test
    void renameOfAMissingKeyIsFalse() {
        keyspace.put(b("to"), b("2"), PERSISTENT);
        assertThat(keyspace.rename(b("from"), b("to"))).isFalse();
        assertThat(keyspace.get(b("to"))).isEqualTo(b("2"));
    }

    @Test
    void keyIsVisibleDuringItsDeadlineMillisecond() {
        keyspace.put(b("a"), b("1"), NOW + 10);
        keyspace.setTime(NOW + 10);
        assertThat(keyspace.get(b("a"))).isEqualTo(b("1"));
    }

    @Test
    void expiredKeyIsInvisibleToLookupsAndRemovedByThem() {
        putExpired("a");
        assertThat(keyspace.get(b("a"))).isNull();
        assertThat(keyspace.exists(b("a"))).isFalse();
        assertThat(keyspace.deadline(b("a"))).isEqualTo(MISSING);
        assertThat(keyspace.setDeadline(b("a"), PERSISTENT)).isFalse();
        assertThat(keyspace.remove(b("a"))).isFalse();
        assertThat(keyspace.rename(b("a"), b("b"))).isFalse();
        assertThat(keyspace.size()).isZero();
        assertThat(keyspace.databases().expiredKeys()).isEqualTo(1);
    }

    @Test
    void expiredKeyIsNeverARandomKey() {
        keyspace.put(b("live"), b("1"), PERSISTENT);
        putExpired("a");
        for (int i = 0; i < 100; i++) {
            assertThat(keyspace.randomKey()).isEqualTo(b("live"));
        }
    }

    @Test
    void randomKeyOfOnlyExpiredKeysIsNull() {
        putExpired("a");
        assertThat(keyspace.randomKey()).isNull();
    }

    @Test
    void expiredKeyIsSkippedByScanAndForEachKey() {
        keyspace.put(b("live"), b("1"), PERSISTENT);
        putExpired("a");
        assertThat(scanAll()).containsExactly("live");
        assertThat(forEachKeyNames()).containsExactly("live");
    }

    @Test
    void putOverAnExpiredKeyStartsFresh() {
        putExpired("a");
        keyspace.putKeepingDeadline(b("a"), b("2"));
        assertThat(keyspace.deadline(b("a"))).isEqualTo(PERSISTENT);
        assertThat(keyspace.databases().expiredKeys()).isEqualTo(1);
    }

    @Test
    void clearRemovesEverything() {
        keyspace.put(b("a"), b("1"), NOW + 100);
        keyspace.put(b("b"), b("1"), PERSISTENT);
        keyspace.clear();
        assertThat(keyspace.size()).isZero();
        assertThat(keyspace.sizeWithDeadline()).isZero();
        assertThat(keyspace.randomKey()).isNull();
        keyspace.checkInvariants();
    }

    @Test
    void randomKeyReachesEveryKey() {
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            keyspace.put(b("k" + i), b("v"), PERSISTENT);
            all.add("k" + i);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            seen.add(s(keyspace.randomKey()));
        }
        assertThat(seen).isEqualTo(all);
    }

    @Test
    void scanReturnsEveryKeyOfAStableTable() {
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            keyspace.put(b("k" + i), b("v"), PERSISTENT);
            all.add("k" + i);
        }
        assertThat(scanAll()).isEqualTo(all);
    }

    @Test
    void scanReturnsKeysPresentThroughoutWhileTheTableGrows() {
        Set<String> stable = putStable(200);
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int churn = 0;
        do {
            cursor = scanStep(cursor, seen);
            // Bounded: a table that keeps growing faster than the cursor advances is never done.
            for (int i = 0; i < 300 && churn < 30_000; i++) {
                keyspace.put(b("churn" + churn++), b("v"), PERSISTENT);
            }
        } while (cursor != 0);
        assertThat(keyspace.size()).isGreaterThan(10_000);
        assertThat(seen).containsAll(stable);
        keyspace.checkInvariants();
    }

    @Test
    void scanReturnsKeysPresentThroughoutWhileTheTableShrinks() {
        Set<String> stable = putStable(200);
        int churn = 100_000;
        for (int i = 0; i < churn; i++) {
            keyspace.put(b("churn" + i), b("v"), PERSISTENT);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        do {
            cursor = scanStep(cursor, seen);
            for (int i = 0; i < 500 && churn > 0; i++) {
                keyspace.remove(b("churn" + --churn));
            }
        } while (cursor != 0);
        assertThat(churn).isZero();
        assertThat(seen).containsAll(stable);
        keyspace.checkInvariants();
    }

    @Test
    void scanReturnsKeysPresentThroughoutWhileTheTableGrowsAndShrinks() {
        Set<String> stable = putStable(500);
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int step = 0;
        do {
            cursor = scanStep(cursor, seen);
            // Alternate bursts: grow the table several times over, then empty it back.
            boolean growing = (step++ / 3) % 2 == 0;
            for (int i = 0; i < 4000; i++) {
                if (growing) {
                    keyspace.put(b("churn" + i), b("v"), PERSISTENT);
                } else {
                    keyspace.remove(b("churn" + i));
                }
            }
        } while (cursor != 0);
        assertThat(seen).containsAll(stable);
        keyspace.checkInvariants();
    }

    @Test
    void aResizeMovesOnlyAFewBucketsPerOperation() {
        putStable(1 << 16);
        assertThat(keyspace.resizing()).isFalse();
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        assertThat(keyspace.resizing()).isTrue();
        for (int i = 0; i < 100; i++) {
            keyspace.get(b("stable" + i));
        }
        assertThat(keyspace.resizing()).isTrue();
        keyspace.checkInvariants();
    }

    @Test
    void forEachKeyVisitsEveryKeyOnceWhileItsVisitorsLookupsWouldMoveBuckets() {
        putStable(1 << 16);
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        assertThat(keyspace.resizing()).isTrue();
        Map<String, Integer> visits = new HashMap<>();
        keyspace.forEachKey(key -> {
            visits.merge(s(key), 1, Integer::sum);
            keyspace.get(key);
        });
        assertThat(visits).hasSize((1 << 16) + 1);
        assertThat(visits.values()).containsOnly(1);
        keyspace.checkInvariants();
    }

    @Test
    void prefetchChangesNothingWhileResizing() {
        putStable(1 << 16);
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        byte[][] keys = {b("stable1"), b("missing"), b("one more"), b("stable65535")};
        keyspace.prefetch(keys, keys.length);
        assertThat(keyspace.resizing()).isTrue();
        assertThat(keyspace.size()).isEqualTo((1 << 16) + 1);
        assertThat(s(keyspace.get(b("stable1")))).isEqualTo("v");
        assertThat(keyspace.get(b("missing"))).isNull();
        keyspace.checkInvariants();
    }

    @Test
    void rehashStepFinishesAResizeOnAnIdleKeyspace() {
        putStable(1 << 16);
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        keyspace.rehashStep(Long.MAX_VALUE);
        assertThat(keyspace.resizing()).isFalse();
        keyspace.checkInvariants();
    }

    @Test
    void aReservedTableNeverResizesWhileFillingUpToTheReservation() {
        keyspace.reserve(1 << 14);
        keyspace.rehashStep(Long.MAX_VALUE);
        for (int i = 0; i < 1 << 14; i++) {
            keyspace.put(b("key" + i), b("v"), PERSISTENT);
            assertThat(keyspace.resizing()).isFalse();
        }
        keyspace.checkInvariants();
    }

    @Test
    void aReservedTableStaysBigWhileSparseAndShrinksOnceReleased() {
        keyspace.reserve(1 << 14);
        keyspace.rehashStep(Long.MAX_VALUE);
        putStable(10);
        assertThat(keyspace.resizing()).isFalse();
        keyspace.checkInvariants();
        keyspace.reserve(0);
        assertThat(keyspace.resizing()).isTrue();
        keyspace.rehashStep(Long.MAX_VALUE);
        keyspace.checkInvariants();
        assertThat(forEachKeyNames()).hasSize(10);
    }

    @Test
    void lookupsFindKeysInBothTablesWhileGrowing() {
        Set<String> stable = putStable(1 << 14);
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        assertThat(keyspace.resizing()).isTrue();
        keyspace.checkInvariants();
        for (String key : stable) {
            assertThat(keyspace.get(b(key))).isEqualTo(b("v"));
        }
    }

    @Test
    void lookupsFindKeysInBothTablesWhileShrinking() {
        Set<String> stable = putStable(1 << 14);
        for (int i = 1000; i < 1 << 14; i++) {
            keyspace.remove(b("stable" + i));
        }
        assertThat(keyspace.resizing()).isTrue();
        keyspace.checkInvariants();
        for (int i = 0; i < 1000; i++) {
            assertThat(keyspace.get(b("stable" + i))).isEqualTo(b("v"));
        }
        assertThat(keyspace.size()).isEqualTo(1000);
    }

    @Test
    void scanReturnsEveryKeyWhenAGrowthStartsAndRunsInTheMiddleOfIt() {
        Set<String> stable = putStable(1 << 12);
        Set<String> seen = new HashSet<>();
        long cursor = scanStep(0, seen);
        for (int i = 0; i < 100; i++) {
            cursor = scanStep(cursor, seen);
        }
        keyspace.put(b("one more"), b("v"), PERSISTENT);
        assertThat(scanToTheEndWhileResizing(cursor, seen)).isTrue();
        assertThat(seen).containsAll(stable);
    }

    @Test
    void scanReturnsEveryKeyWhenAShrinkStartsAndRunsInTheMiddleOfIt() {
        Set<String> stable = putStable(1 << 9);
        for (int i = 0; i < 1 << 14; i++) {
            keyspace.put(b("churn" + i), b("v"), PERSISTENT);
        }
        keyspace.rehashStep(Long.MAX_VALUE);
        Set<String> seen = new HashSet<>();
        long cursor = scanStep(0, seen);
        for (int i = 0; i < 1000; i++) {
            cursor = scanStep(cursor, seen);
        }
        for (int i = 0; !keyspace.resizing(); i++) {
            keyspace.remove(b("churn" + i));
        }
        assertThat(scanToTheEndWhileResizing(cursor, seen)).isTrue();
        assertThat(seen).containsAll(stable);
    }

    @Test
    void overwritingWithAValueOfAnotherLengthKeepsKeyAndDeadline() {
        keyspace.put(b("a"), b("short"), NOW + 100);
        keyspace.putKeepingDeadline(b("a"), b("a much longer value"));
        keyspace.putKeepingDeadline(b("a"), b("x"));
        assertThat(keyspace.get(b("a"))).isEqualTo(b("x"));
        assertThat(keyspace.deadline(b("a"))).isEqualTo(NOW + 100);
        keyspace.checkInvariants();
    }

    @Test
    void keysLongerThanOneLengthByteRoundTrip() {
        String longKey = "k".repeat(70_000);
        keyspace.put(b(longKey), b("v"), PERSISTENT);
        assertThat(keyspace.get(b(longKey))).isEqualTo(b("v"));
        assertThat(keyspace.randomKey()).isEqualTo(b(longKey));
        keyspace.checkInvariants();
    }

    @Test
    void getReturnsACopyTheCallerMayChange() {
        keyspace.put(b("a"), b("1"), PERSISTENT);
        keyspace.get(b("a"))[0] = '2';
        assertThat(keyspace.get(b("a"))).isEqualTo(b("1"));
    }

    private Set<String> putStable(int count) {
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < count; i++) {
            keyspace.put(b("stable" + i), b("v"), PERSISTENT);
            stable.add("stable" + i);
        }
        return stable;
    }

    @Test
    void expireSampleDrawsUniformlyAmongKeysWithADeadline() {
        int withDeadline = 10;
        for (int i = 0; i < 1000; i++) {
            keyspace.put(b("persistent" + i), b("v"), PERSISTENT);
        }
        // Key i has a TTL of i+1 ms, so a one-key sample's TTL tells which key was drawn.
        for (int i = 0; i < withDeadline; i++) {
            keyspace.put(b("ttl" + i), b("v"), NOW + i + 1);
        }
        int draws = 100_000;
        int[] drawn = new int[withDeadline];
        long[] ttlSum = new long[2];
        for (int i = 0; i < draws; i++) {
            long before = ttlSum[0];
            assertThat(keyspace.expireSample(1, ttlSum)).isZero();
            drawn[(int) (ttlSum[0] - before) - 1]++;
        }
        assertThat(ttlSum[1]).isEqualTo(draws);
        int expected = draws / withDeadline;
        for (int count : drawn) {
            assertThat(count).isBetween(expected * 95 / 100, expected * 105 / 100);
        }
    }

    @Test
    void expireSampleRemovesExpiredKeysOnly() {
        for (int i = 0; i < 100; i++) {
            keyspace.put(b("expired" + i), b("v"), NOW + 5);
            keyspace.put(b("live" + i), b("v"), NOW + 1000);
            keyspace.put(b("persistent" + i), b("v"), PERSISTENT);
        }
        keyspace.setTime(NOW + 6);
        long removed = 0;
        long[] ttlSum = new long[2];
        for (int i = 0; i < 1000; i++) {
            removed += keyspace.expireSample(20, ttlSum);
        }
        assertThat(removed).isEqualTo(100);
        assertThat(keyspace.size()).isEqualTo(200);
        assertThat(keyspace.sizeWithDeadline()).isEqualTo(100);
        assertThat(keyspace.databases().expiredKeys()).isEqualTo(100);
        for (int i = 0; i < 100; i++) {
            assertThat(keyspace.exists(b("live" + i))).isTrue();
        }
        keyspace.checkInvariants();
    }

    @Test
    void expireSampleOfNoKeysWithADeadlineDoesNothing() {
        keyspace.put(b("a"), b("v"), PERSISTENT);
        long[] ttlSum = new long[2];
        assertThat(keyspace.expireSample(20, ttlSum)).isZero();
        assertThat(ttlSum).containsExactly(0, 0);
    }

    @Test
    void tableGrowsAndShrinksKeepingItsInvariants() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            byte[] key = b("k" + i);
            keys.add(key);
            keyspace.put(key, b("v"), i % 2 == 0 ? PERSISTENT : NOW + i);
        }
        keyspace.checkInvariants();
        for (byte[] key : keys) {
            keyspace.remove(key);
        }
        keyspace.checkInvariants();
        assertThat(keyspace.size()).isZero();
    }
}
