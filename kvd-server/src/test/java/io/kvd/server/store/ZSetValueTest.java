package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ZSetValue} on both encodings, and against a model: a TreeSet of (score, member) with a
 * HashMap of member to score, through random adds, score changes, removals and range removals
 * that take sets across the listpack limit. Seed: {@code -Dzsets.seed=N}.
 */
class ZSetValueTest {
    private final EncodingLimits limits = new EncodingLimits();
    private final Keyspace keyspace = new Databases(1, 7, limits).get(0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private List<String> byRank(ZSetValue zset) {
        List<String> members = new ArrayList<>();
        for (int rank = 0; rank < zset.size(); rank++) {
            members.add(s(zset.memberAt(rank)) + "=" + zset.scoreAt(rank));
        }
        return members;
    }

    @Test
    void membersAreOrderedByScoreThenBytesInBothEncodings() {
        for (int maxEntries : new int[] {128, 0}) {
            limits.setZsetMaxListpackEntries(maxEntries);
            keyspace.remove(b("z"));
            ZSetValue zset = keyspace.zsetForWrite(b("z"));
            zset.put(b("b"), 2);
            zset.put(b("a"), 2);
            zset.put(b("\u00ff"), 1);
            zset.put(b("c"), Double.NEGATIVE_INFINITY);
            zset.put(b("d"), Double.POSITIVE_INFINITY);

            assertThat(byRank(keyspace.zset(b("z")))).as("max entries " + maxEntries)
                    .containsExactly("c=-Infinity", "\u00ff=1.0", "a=2.0", "b=2.0", "d=Infinity");
            assertThat(keyspace.objectEncoding(b("z"))).isEqualTo(maxEntries == 0 ? "skiplist" : "listpack");
        }
    }

    @Test
    void walkFromVisitsInRankOrderFromTheFirstScoreAtLeastMinUntilTheVisitorStops() {
        SplittableRandom random = new SplittableRandom(20261203L);
        for (int maxEntries : new int[] {128, 0}) {
            limits.setZsetMaxListpackEntries(maxEntries);
            keyspace.remove(b("w"));
            ZSetValue zset = keyspace.zsetForWrite(b("w"));
            for (int i = 0; i < 100; i++) {
                zset.put(b("m" + i), random.nextInt(40));
            }
            ZSetValue read = keyspace.zset(b("w"));
            for (double min : new double[] {-1, 0, 7, 7.5, 39, 40}) {
                List<String> expected = new ArrayList<>();
                for (int rank = read.countBelow(min, false); rank < read.size() && expected.size() < 30; rank++) {
                    expected.add(s(read.memberAt(rank)) + "=" + read.scoreAt(rank));
                }
                List<String> visited = new ArrayList<>();
                read.walkFrom(min, visit -> {
                    visited.add(s(visit.member()) + "=" + visit.score());
                    return visited.size() < 30;
                });
                assertThat(visited).as("max entries %d, min %s", maxEntries, min).isEqualTo(expected);
            }
        }
    }

    @Test
    void aListpackKeepsEveryScoreExactlyWhateverBytesItTakes() {
        double[] scores = {0, -0.0, 1, -1, 127, 128, -128, -129, 255, 65536, -(1L << 40), (1L << 55) - 1,
                -(1L << 55), 1L << 55, 1L << 62, 0x1p63, -0x1p63, 1.5, -2.25, 1e-300, Double.MAX_VALUE,
                Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        ZSetValue zset = keyspace.zsetForWrite(b("z"));
        for (int i = 0; i < scores.length; i++) {
            zset.put(b("m" + i), scores[i]);
        }

        ZSetValue reread = keyspace.zset(b("z"));
        assertThat(keyspace.objectEncoding(b("z"))).isEqualTo("listpack");
        assertThat(reread.size()).isEqualTo(scores.length);
        for (int i = 0; i < scores.length; i++) {
            // A listpack reads minus zero back as 0, as Redis's does.
            assertThat(reread.score(b("m" + i))).as("m" + i).isEqualTo(scores[i] == 0 ? 0.0 : scores[i]);
        }
        for (int rank = 1; rank < reread.size(); rank++) {
            assertThat(reread.scoreAt(rank)).isGreaterThanOrEqualTo(reread.scoreAt(rank - 1));
        }
    }

    @Test
    void aListpackBecomesASkipListPastEitherLimitAndStaysOne() {
        limits.setZsetMaxListpackEntries(2);
        ZSetValue zset = keyspace.zsetForWrite(b("z"));
        zset.put(b("a"), 1);
        zset.put(b("b"), 2);
        assertThat(keyspace.objectEncoding(b("z"))).isEqualTo("listpack");
        zset.put(b("c"), 3);
        assertThat(keyspace.objectEncoding(b("z"))).isEqualTo("skiplist");
        keyspace.zset(b("z")).remove(b("c"));
        assertThat(keyspace.objectEncoding(b("z"))).isEqualTo("skiplist");

        limits.setZsetMaxListpackEntries(128);
        limits.setZsetMaxListpackValue(3);
        keyspace.zsetForWrite(b("y")).put(b("long"), 1);
        assertThat(keyspace.objectEncoding(b("y"))).isEqualTo("skiplist");
    }

    @Test
    void aListpackStoresMinusZeroAsZeroWhereASkipListKeepsItsSign() {
        keyspace.zsetForWrite(b("small")).put(b("m"), -0.0);
        limits.setZsetMaxListpackEntries(0);
        keyspace.zsetForWrite(b("large")).put(b("m"), -0.0);

        assertThat(1 / keyspace.zset(b("small")).score(b("m"))).isPositive();
        assertThat(1 / keyspace.zset(b("large")).score(b("m"))).isNegative();
    }

    @Test
    void removingTheLastMemberDeletesTheKey() {
        keyspace.zsetForWrite(b("z")).put(b("a"), 1);
        assertThat(keyspace.zset(b("z")).remove(b("a"))).isTrue();
        assertThat(keyspace.exists(b("z"))).isFalse();
    }

    @Test
    void matchesATreeSetModel() {
        long seed = Long.getLong("zsets.seed", 20_261_203L);
        System.out.println("ZSetValueTest seed " + seed + " (override with -Dzsets.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        limits.setZsetMaxListpackEntries(24);
        Map<String, Double> scores = new HashMap<>();
        Comparator<String> order = Comparator.<String>comparingDouble(scores::get)
                .thenComparing((x, y) -> java.util.Arrays.compareUnsigned(b(x), b(y)));
        TreeSet<String> model = new TreeSet<>(order);
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            String member = "m" + random.nextInt(60);
            ZSetValue zset = keyspace.zsetForWrite(b("z"));
            if (op < 5) {
                // Few distinct scores, so ties are ordered by member bytes.
                double score = random.nextInt(8) - 3 + (random.nextBoolean() ? 0.5 : 0);
                boolean isNew = !scores.containsKey(member);
                if (!isNew) {
                    model.remove(member);
                }
                scores.put(member, score);
                model.add(member);
                assertThat(zset.put(b(member), score)).as("put at step " + step).isEqualTo(isNew);
            } else if (op < 8) {
                boolean present = scores.containsKey(member);
                if (present) {
                    model.remove(member);
                    scores.remove(member);
                }
                assertThat(zset.remove(b(member))).as("remove at step " + step).isEqualTo(present);
            } else if (op == 8 && !model.isEmpty()) {
                int from = random.nextInt(model.size());
                int to = from + random.nextInt(Math.min(4, model.size() - from) + 1);
                List<String> ranked = new ArrayList<>(model);
                for (String removed : ranked.subList(from, to)) {
                    model.remove(removed);
                    scores.remove(removed);
                }
                zset.removeRange(from, to);
            } else if (!model.isEmpty()) {
                double bound = random.nextInt(8) - 3;
                long below = model.stream().filter(m -> scores.get(m) < bound).count();
                long atMost = model.stream().filter(m -> scores.get(m) <= bound).count();
                assertThat(zset.countBelow(bound, false)).as("count below at step " + step).isEqualTo((int) below);
                assertThat(zset.countBelow(bound, true)).as("count at most at step " + step).isEqualTo((int) atMost);
            }
            if (model.isEmpty()) {
                assertThat(keyspace.exists(b("z"))).as("emptied at step " + step).isFalse();
                continue;
            }
            ZSetValue read = keyspace.zset(b("z"));
            List<String> expected = new ArrayList<>();
            model.forEach(m -> expected.add(m + "=" + scores.get(m)));
            assertThat(byRank(read)).as("members at step " + step).isEqualTo(expected);
            assertThat(read.rank(b(member))).isEqualTo(scores.containsKey(member) ? model.headSet(member).size() : -1);
            if (step % 500 == 0) {
                keyspace.checkInvariants();
            }
        }
    }
}
