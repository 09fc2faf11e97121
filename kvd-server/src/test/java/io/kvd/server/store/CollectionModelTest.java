package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random operations on hashes and sets through a {@link Keyspace}, and on {@link LinkedHashMap}
 * and {@link HashSet} models side by side: every answer must agree, a listpack hash must list in
 * insertion order and an intset ascending, the structures must stay consistent, and a scan of a
 * collection running across the operations must return every member present for the whole of
 * it. Member ranges swing between large and small so collections convert, their tables grow and
 * shrink, and keys empty and come back. Seed: {@code -Dcollections.seed=N}.
 */
class CollectionModelTest {
    private static final int OPERATIONS = 300_000;
    private static final int PHASE_LENGTH = 16_000;
    /** A scan takes a step every this many operations on average, so that its collection changes a lot meanwhile. */
    private static final int OPERATIONS_PER_SCAN_STEP = 16;
    private static final int MEMBER_RANGE = 2_000;
    private static final List<String> HASHES = List.of("h0", "h1", "h2");
    /** Sets of integers (an intset until past its limit or until a string comes), then sets of strings. */
    private static final List<String> INTEGER_SETS = List.of("i0", "i1");
    private static final List<String> STRING_SETS = List.of("s0", "s1");

    private final Keyspace keyspace = new Keyspace(3);
    private final Map<String, LinkedHashMap<String, String>> hashes = new HashMap<>();
    private final Map<String, Set<String>> sets = new HashMap<>();
    /** Per key, the next member number a removal takes while shrinking: a sweep through the range. */
    private final Map<String, Integer> sweeps = new HashMap<>();
    private final List<ScanInProgress> scans = List.of(new ScanInProgress("h0"), new ScanInProgress("i0"),
            new ScanInProgress("s0"));
    private SplittableRandom random;
    private int op;
    private boolean growing;
    private int completedScans;
    private int scansAcrossGrowth;
    private int scansAcrossShrinking;

    @Test
    void hashesAndSetsAgreeWithJavaCollections() {
        long seed = Long.getLong("collections.seed", 20_240_611L);
        System.out.println("CollectionModelTest seed " + seed + " (override with -Dcollections.seed=N)");
        random = new SplittableRandom(seed);
        for (op = 0; op < OPERATIONS; op++) {
            growing = (op / PHASE_LENGTH) % 2 == 0;
            step();
            for (ScanInProgress scan : scans) {
                if (random.nextInt(OPERATIONS_PER_SCAN_STEP) == 0) {
                    scan.step();
                }
            }
            if (op % 2000 == 0) {
                assertEverythingAgrees();
            }
        }
        assertEverythingAgrees();
        System.out.println("CollectionModelTest: " + completedScans + " scans completed, " + scansAcrossGrowth
                + " across a doubling, " + scansAcrossShrinking + " across a halving");
        assertThat(completedScans).isGreaterThan(30);
        assertThat(scansAcrossGrowth).isPositive();
        assertThat(scansAcrossShrinking).isPositive();
    }

    private void step() {
        int dice = random.nextInt(7);
        if (random.nextInt(20_000) == 0) {
            deleteKey(dice < 3 ? HASHES.get(dice) : dice < 5 ? INTEGER_SETS.get(dice - 3) : STRING_SETS.get(dice - 5));
        } else if (dice < 3) {
            hashOperation(HASHES.get(dice));
        } else if (dice < 5) {
            setOperation(INTEGER_SETS.get(dice - 3), true);
        } else {
            setOperation(STRING_SETS.get(dice - 5), false);
        }
    }

    /** While growing, members come from the whole range and additions dominate; while shrinking, removals do. */
    private int memberNumber() {
        return random.nextInt(growing ? MEMBER_RANGE : MEMBER_RANGE / 16);
    }

    /** While shrinking, removals sweep the range, so the collection empties fast. */
    private int removedNumber(String key) {
        return growing ? random.nextInt(MEMBER_RANGE) : sweeps.merge(key, 1, Integer::sum) % MEMBER_RANGE;
    }

    private boolean removes() {
        return random.nextInt(100) < (growing ? 15 : 70);
    }

    private void hashOperation(String key) {
        LinkedHashMap<String, String> model = hashes.computeIfAbsent(key, k -> new LinkedHashMap<>());
        int dice = random.nextInt(100);
        if (removes()) {
            String field = "f" + removedNumber(key);
            assertThat(keyspace.hashForWrite(b(key)).remove(b(field))).isEqualTo(model.remove(field) != null);
            forgetIfRemoved(key, field, model.containsKey(field));
        } else if (dice < 60) {
            String field = random.nextInt(3000) == 0 ? "long field ".repeat(7) : "f" + memberNumber();
            String value = random.nextInt(3000) == 0 ? "long value ".repeat(7) : "v" + op;
            assertThat(keyspace.hashForWrite(b(key)).put(b(field), b(value))).isEqualTo(model.put(field, value) == null);
        } else if (dice < 85) {
            String field = "f" + memberNumber();
            HashValue hash = keyspace.hash(b(key));
            assertThat(hash == null ? null : s(hash.get(b(field)))).isEqualTo(model.get(field));
            assertThat(hash != null && hash.contains(b(field))).isEqualTo(model.containsKey(field));
            assertThat(hash == null ? 0 : hash.size()).isEqualTo(model.size());
        } else {
            HashValue hash = keyspace.hash(b(key));
            assertThat(hash == null).isEqualTo(model.isEmpty());
            if (hash != null) {
                byte[][] entry = hash.randomEntry();
                assertThat(model.get(s(entry[0]))).isEqualTo(s(entry[1]));
            }
        }
    }

    private void setOperation(String key, boolean integers) {
        Set<String> model = sets.computeIfAbsent(key, k -> new HashSet<>());
        int dice = random.nextInt(100);
        if (removes()) {
            String member = member(integers, removedNumber(key));
            assertThat(keyspace.setForWrite(b(key)).remove(b(member))).isEqualTo(model.remove(member));
            forgetIfRemoved(key, member, false);
        } else if (dice < 60) {
            String member = random.nextInt(4000) == 0 ? (integers ? "not a number" : "long member ".repeat(6))
                    : member(integers, memberNumber());
            assertThat(keyspace.setForWrite(b(key)).add(b(member))).isEqualTo(model.add(member));
        } else if (dice < 85) {
            String member = member(integers, memberNumber());
            SetValue set = keyspace.set(b(key));
            assertThat(set != null && set.contains(b(member))).isEqualTo(model.contains(member));
            assertThat(set == null ? 0 : set.size()).isEqualTo(model.size());
        } else {
            SetValue set = keyspace.set(b(key));
            assertThat(set == null).isEqualTo(model.isEmpty());
            if (set != null) {
                assertThat(model).contains(s(set.randomMember()));
            }
        }
    }

    /** Integers around zero, so an intset holds negatives too; strings of varied length. */
    private static String member(boolean integers, int n) {
        return integers ? Integer.toString(n - MEMBER_RANGE / 4) : "m" + n + "-".repeat(n % 13);
    }

    private void deleteKey(String key) {
        assertThat(keyspace.remove(b(key))).isEqualTo(!modelMembers(key).isEmpty());
        hashes.remove(key);
        sets.remove(key);
        for (ScanInProgress scan : scans) {
            if (scan.key.equals(key)) {
                scan.abandon();
            }
        }
    }

    private void forgetIfRemoved(String key, String member, boolean stillThere) {
        if (!stillThere) {
            for (ScanInProgress scan : scans) {
                if (scan.key.equals(key)) {
                    scan.removed(member);
                }
            }
        }
    }

    /** The model's members of {@code key}, live (not a copy). */
    private Set<String> modelMembers(String key) {
        return HASHES.contains(key) ? hashes.computeIfAbsent(key, k -> new LinkedHashMap<>()).keySet()
                : sets.computeIfAbsent(key, k -> new HashSet<>());
    }

    private void assertEverythingAgrees() {
        keyspace.checkInvariants();
        for (String key : HASHES) {
            LinkedHashMap<String, String> model = hashes.getOrDefault(key, new LinkedHashMap<>());
            HashValue hash = keyspace.hash(b(key));
            assertThat(hash == null).isEqualTo(model.isEmpty());
            if (hash != null) {
                List<String> pairs = new ArrayList<>();
                hash.forEach((f, v) -> pairs.add(s(f) + "=" + s(v)));
                List<String> expected = new ArrayList<>();
                model.forEach((f, v) -> expected.add(f + "=" + v));
                if (hash.encoding().equals("listpack")) {
                    assertThat(pairs).as("listpack order").isEqualTo(expected);
                } else {
                    assertThat(sorted(pairs)).isEqualTo(sorted(expected));
                }
            }
        }
        for (String key : sets.keySet()) {
            Set<String> model = sets.get(key);
            SetValue set = keyspace.set(b(key));
            assertThat(set == null).isEqualTo(model.isEmpty());
            if (set != null) {
                List<String> members = new ArrayList<>();
                set.forEach(member -> members.add(s(member)));
                if (set.encoding().equals("intset")) {
                    List<String> ascending = new ArrayList<>(model);
                    ascending.sort((x, y) -> Long.compare(Long.parseLong(x), Long.parseLong(y)));
                    assertThat(members).as("intset order").isEqualTo(ascending);
                } else {
                    assertThat(sorted(members)).isEqualTo(sorted(model));
                }
            }
        }
    }

    /** One collection's scan, a call per operation; checked when its cursor returns to 0. */
    private final class ScanInProgress {
        final String key;
        private boolean running;
        private long cursor;
        private final Set<String> atStart = new HashSet<>();
        private final Set<String> removedMeanwhile = new HashSet<>();
        private final Set<String> seen = new HashSet<>();
        private int calls;
        private int sizeAtStart;
        private int smallest;
        private int largest;

        ScanInProgress(String key) {
            this.key = key;
        }

        void step() {
            Set<String> present = modelMembers(key);
            if (present.isEmpty()) {
                // Every member went, so none was present throughout; a new collection gets a new scan.
                running = false;
                return;
            }
            if (!running) {
                running = true;
                cursor = 0;
                atStart.clear();
                atStart.addAll(present);
                removedMeanwhile.clear();
                seen.clear();
                calls = 0;
                sizeAtStart = smallest = largest = present.size();
            }
            smallest = Math.min(smallest, present.size());
            largest = Math.max(largest, present.size());
            calls++;
            if (HASHES.contains(key)) {
                cursor = keyspace.hash(b(key)).scan(cursor, (field, value) -> visit(present, s(field)));
            } else {
                cursor = keyspace.set(b(key)).scan(cursor, member -> visit(present, s(member)));
            }
            if (cursor == 0) {
                Set<String> missed = new HashSet<>(atStart);
                missed.removeAll(removedMeanwhile);
                missed.removeAll(seen);
                assertThat(missed).as("members of " + key + " present for the whole scan but not visited").isEmpty();
                running = false;
                completedScans++;
                // Several calls: a table's scan, which the sizes say went across a resize.
                if (calls > 1 && largest >= 2 * sizeAtStart) {
                    scansAcrossGrowth++;
                }
                if (calls > 1 && smallest * 2 <= sizeAtStart) {
                    scansAcrossShrinking++;
                }
            }
        }

        private void visit(Set<String> present, String member) {
            assertThat(present.contains(member)).as("a scan visits only present members: " + member).isTrue();
            seen.add(member);
        }

        void removed(String member) {
            removedMeanwhile.add(member);
        }

        void abandon() {
            running = false;
        }
    }

    private static List<String> sorted(Collection<String> strings) {
        List<String> sorted = new ArrayList<>(strings);
        Collections.sort(sorted);
        return sorted;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
