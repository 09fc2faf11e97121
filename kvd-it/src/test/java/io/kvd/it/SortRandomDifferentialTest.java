package io.kvd.it;

import io.kvd.it.support.DifferentialRun;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * A seeded random walk of SORT, SORT_RO and LCS over lists, sets and sorted sets whose elements
 * are numbers and words, with weight keys (strings and hash fields, some missing, some no numbers)
 * and the writes that change them, each command sent to redis-server and to kvd: every reply is
 * the same, byte for byte.
 * <p>
 * Left out are the cases where Redis's order is its hash table's, not SORT's: a set of strings
 * without sorting and without STORE, and ALPHA BY over a set or sorted set (ties keep the table's
 * order). Weights that make strtod set ERANGE are left out too: Redis leaves errno set, which
 * refuses later SORTs.
 */
@ExtendWith(ServerLogsOnFailure.class)
class SortRandomDifferentialTest {
    private static final int STEPS = 3_000;
    private static final String[] ELEMENTS = {"-3", "-1", "0", "1", "2", "3", "5", "10", "12", "1.5", "-0.25", "1e2",
            "a", "b", "B", "abc", "ab", "", "x y", "0x10"};
    private static final String[] NUMBERS = {"-3", "-1", "0", "1", "2", "3", "5", "10", "12", "1.5", "-0.25", "1e2",
            "0x10", " 7", "inf", "-inf", ""};
    private static final String[] INTEGERS = {"-3", "-1", "0", "1", "2", "3", "5", "10", "12", "100"};
    private static final String[] WEIGHTS = {"-2", "0", "1", "1", "3", "7", "2.5", "-1.5", "inf", "w", "v", "", " 4"};
    private static final String[] BY = {"w_*", "h_*->f", "h_*->g", "nosort", "missing_*", "w_*->f", "h_*"};
    private static final String[] GET = {"#", "w_*", "h_*->f", "h_*->g", "nostar", "missing_*"};
    private static final String[] KEYS = {"L1", "L2", "S1", "S2", "Z1", "nokey"};

    @Test
    void aRandomWalkOfSortAndLcsGetsRedisReplies() throws IOException {
        try (DifferentialRun run = DifferentialRun.start(getClass(), 20261203L)) {
            for (int step = 0; step < STEPS; step++) {
                run.assertSameReply(next(run.random()));
            }
        }
    }

    /** One command: mostly SORT, else a write to the sorted keys or the weights, or LCS. */
    private static String[] next(SplittableRandom random) {
        int pick = random.nextInt(100);
        if (pick < 45) {
            return sort(random);
        }
        if (pick < 50) {
            return new String[] {"LRANGE", "D", "0", "-1"};
        }
        if (pick < 57) {
            return lcs(random);
        }
        String element = pickFrom(random, ELEMENTS);
        return switch (random.nextInt(10)) {
            // L1 holds numbers only, so that its numeric sorts succeed; L2 anything.
            case 0 -> random.nextBoolean()
                    ? new String[] {random.nextBoolean() ? "RPUSH" : "LPUSH", "L1", pickFrom(random, NUMBERS),
                            pickFrom(random, NUMBERS), pickFrom(random, NUMBERS)}
                    : new String[] {random.nextBoolean() ? "RPUSH" : "LPUSH", "L2", element,
                            pickFrom(random, ELEMENTS), pickFrom(random, ELEMENTS)};
            case 1 -> new String[] {"LPOP", random.nextBoolean() ? "L1" : "L2"};
            case 2 -> new String[] {"SADD", "S1", pickFrom(random, INTEGERS), pickFrom(random, INTEGERS)};
            case 3 -> new String[] {random.nextBoolean() ? "SADD" : "SREM", "S2", element};
            case 4 -> random.nextInt(4) == 0 ? new String[] {"ZREM", "Z1", element}
                    : new String[] {"ZADD", "Z1", Integer.toString(random.nextInt(-5, 6)), element};
            case 5 -> new String[] {"SET", "w_" + element,
                    random.nextInt(4) == 0 ? pickFrom(random, WEIGHTS) : pickFrom(random, NUMBERS)};
            case 6 -> new String[] {"HSET", "h_" + element, random.nextBoolean() ? "f" : "g", pickFrom(random, WEIGHTS)};
            case 7 -> new String[] {"DEL", (random.nextBoolean() ? "w_" : "h_") + element};
            case 8 -> new String[] {"DEL", pickFrom(random, KEYS)};
            default -> new String[] {"SET", "L2", "a string"};
        };
    }

    /** SORT or SORT_RO with options in a random order, outside the cases the class leaves out. */
    private static String[] sort(SplittableRandom random) {
        String key = pickFrom(random, KEYS);
        boolean readOnly = random.nextInt(4) == 0;
        boolean alpha = random.nextInt(3) == 0;
        String by = random.nextInt(3) == 0 ? pickFrom(random, BY) : null;
        boolean limit = random.nextInt(3) == 0;
        boolean store = !readOnly && random.nextInt(4) == 0;
        boolean stringSet = key.equals("S2");
        boolean weighed = by != null && by.contains("*");
        if (alpha && weighed && (key.startsWith("S") || key.startsWith("Z"))) {
            by = null;
        }
        if (stringSet && by != null && !by.contains("*") && !store) {
            by = null;
        }
        List<List<String>> options = new ArrayList<>();
        if (alpha) {
            options.add(List.of("ALPHA"));
        }
        if (by != null) {
            options.add(List.of("BY", by));
        }
        if (limit) {
            options.add(List.of("LIMIT", Integer.toString(random.nextInt(-2, 8)), Integer.toString(random.nextInt(-2, 8))));
        }
        for (int gets = random.nextInt(4) == 0 ? random.nextInt(1, 4) : 0; gets > 0; gets--) {
            options.add(List.of("GET", pickFrom(random, GET)));
        }
        if (random.nextBoolean()) {
            options.add(List.of(random.nextBoolean() ? "ASC" : "DESC"));
        }
        if (store) {
            options.add(List.of("STORE", "D"));
        }
        Collections.shuffle(options, new Random(random.nextLong()));
        List<String> args = new ArrayList<>(List.of(readOnly ? "SORT_RO" : "SORT", key));
        options.forEach(args::addAll);
        return args.toArray(new String[0]);
    }

    /** LCS of two short strings over a small alphabet, so there are many ties and runs. */
    private static String[] lcs(SplittableRandom random) {
        if (random.nextInt(3) == 0) {
            StringBuilder value = new StringBuilder();
            for (int i = random.nextInt(14); i > 0; i--) {
                value.append("abc".charAt(random.nextInt(3)));
            }
            return new String[] {"SET", random.nextBoolean() ? "A" : "B", value.toString()};
        }
        List<String> args = new ArrayList<>(List.of("LCS", random.nextBoolean() ? "A" : "B", random.nextBoolean() ? "A" : "B"));
        switch (random.nextInt(4)) {
            case 0 -> args.add("LEN");
            case 1 -> args.add("IDX");
            default -> {
            }
        }
        if (random.nextBoolean()) {
            args.addAll(List.of("MINMATCHLEN", Integer.toString(random.nextInt(-1, 4))));
        }
        if (random.nextBoolean()) {
            args.add("WITHMATCHLEN");
        }
        return args.toArray(new String[0]);
    }

    private static String pickFrom(SplittableRandom random, String[] values) {
        return values[random.nextInt(values.length)];
    }
}
