package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ValueType;
import io.kvd.server.store.ZSetValue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.ZSET;
/**
 * Sorted set commands (Redis 7.0's t_zset.c). A key with an empty sorted set does not exist:
 * {@link ZSetValue} deletes the key with its last member. Every range (by rank, score or lex) is
 * turned into ascending ranks {@code [start, end)} and read by rank, in either direction.
 */
final class SortedSetCommands {
    private static final String NAN_RESULT = "ERR resulting score is not a number (NaN)";
    private static final String XX_AND_NX = "ERR XX and NX options at the same time are not compatible";
    private static final String GT_LT_NX = "ERR GT, LT, and/or NX options at the same time are not compatible";
    private static final String INCR_SINGLE_PAIR = "ERR INCR option supports a single increment-element pair";
    private static final String NOT_A_FLOAT_RANGE = "ERR min or max is not a float";
    private static final String NOT_A_LEX_RANGE = "ERR min or max not valid string range item";
    private static final String LIMIT_NEEDS_BY = "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    private static final String WITHSCORES_BYLEX = "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
    private static final String COUNT_OUT_OF_RANGE =
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807";
    private static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";
    private static final byte[] ZPOPMIN = Args.bytes("ZPOPMIN");
    private static final byte[] ZPOPMAX = Args.bytes("ZPOPMAX");
    private static final String MUST_BE_POSITIVE = "ERR value is out of range, must be positive";

    private enum By { RANK, SCORE, LEX }

    private SortedSetCommands() {
    }

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...] */
    static void zadd(Client client, byte[][] argv) {
        boolean nx = false, xx = false, gt = false, lt = false, ch = false, incr = false;
        int scoreAt = 2;
        for (; scoreAt < argv.length; scoreAt++) {
            byte[] option = argv[scoreAt];
            if (Args.is(option, "nx")) {
                nx = true;
            } else if (Args.is(option, "xx")) {
                xx = true;
            } else if (Args.is(option, "ch")) {
                ch = true;
            } else if (Args.is(option, "incr")) {
                incr = true;
            } else if (Args.is(option, "gt")) {
                gt = true;
            } else if (Args.is(option, "lt")) {
                lt = true;
            } else {
                break;
            }
        }
        int elements = argv.length - scoreAt;
        if (elements == 0 || elements % 2 != 0) {
            throw new CommandError(Errors.SYNTAX);
        }
        if (xx && nx) {
            throw new CommandError(XX_AND_NX);
        }
        if (gt && nx || lt && nx || gt && lt) {
            throw new CommandError(GT_LT_NX);
        }
        if (incr && elements > 2) {
            throw new CommandError(INCR_SINGLE_PAIR);
        }
        add(client, argv, scoreAt, nx, xx, gt, lt, ch, incr);
    }

    /** ZINCRBY key increment member: ZADD INCR, logged as sent (deterministic on replay). */
    static void zincrby(Client client, byte[][] argv) {
        add(client, argv, 2, false, false, false, false, false, true);
    }

    /** Redis's zaddGenericCommand after its options: every score parsed before anything changes. */
    private static void add(Client client, byte[][] argv, int scoreAt, boolean nx, boolean xx, boolean gt, boolean lt,
                            boolean ch, boolean incr) {
        int pairs = (argv.length - scoreAt) / 2;
        double[] scores = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            scores[i] = Scores.parse(argv[scoreAt + 2 * i]);
        }
        Keyspace keyspace = client.keyspace();
        ZSetValue zset = xx ? keyspace.zset(argv[1]) : keyspace.zsetForWrite(argv[1]);
        if (zset != null) {
            // Redis 7.0's zaddGenericCommand creates a skip list only for a first member too long
            // for a listpack (or a limit of 0 entries); it converts later as members come.
            zset.expect(1, argv[scoreAt + 1].length);
        }
        // Added, updated, processed (not skipped by an option); the last score, for INCR's reply.
        int[] counts = new int[3];
        double[] last = new double[1];
        if (zset != null) {
            zset.applyAll(argv, scoreAt, i -> {
                double score = scores[(i - scoreAt) / 2];
                byte[] member = argv[i + 1];
                double current = zset.score(member);
                if (Double.isNaN(current)) {
                    if (xx) {
                        return false;
                    }
                    zset.put(member, score);
                    counts[0]++;
                } else {
                    if (nx) {
                        return false;
                    }
                    if (incr) {
                        score += current;
                        if (Double.isNaN(score)) {
                            throw new CommandError(NAN_RESULT);
                        }
                    }
                    if (lt && score >= current || gt && score <= current) {
                        return false;
                    }
                    if (score != current) {
                        zset.put(member, score);
                        counts[1]++;
                    }
                }
                last[0] = score;
                counts[2]++;
                return true;
            });
        }
        if (counts[0] + counts[1] > 0) {
            client.events().notify(ZSET, incr ? "zincr" : "zadd", argv[1], client.db());
        }
        if (incr) {
            if (counts[2] > 0) {
                client.reply().doubleValue(last[0]);
            } else {
                client.reply().nullBulk();
            }
        } else {
            client.reply().integer(ch ? counts[0] + counts[1] : counts[0]);
        }
    }

    /** ZCARD key */
    static void zcard(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        client.reply().integer(zset == null ? 0 : zset.size());
    }

    /** ZSCORE key member */
    static void zscore(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        replyScore(client, zset == null ? Double.NaN : zset.score(argv[2]));
    }

    /** ZMSCORE key member [member ...]: a missing key is an empty set, so all nulls. */
    static void zmscore(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        client.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            replyScore(client, zset == null ? Double.NaN : zset.score(argv[i]));
        }
    }

    /** ZRANK key member */
    static void zrank(Client client, byte[][] argv) {
        rank(client, argv, false);
    }

    /** ZREVRANK key member */
    static void zrevrank(Client client, byte[][] argv) {
        rank(client, argv, true);
    }

    private static void rank(Client client, byte[][] argv, boolean reverse) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        int rank = zset == null ? -1 : zset.rank(argv[2]);
        if (rank < 0) {
            client.reply().nullBulk();
        } else {
            client.reply().integer(reverse ? zset.size() - 1 - rank : rank);
        }
    }

    /** ZREM key member [member ...] */
    static void zrem(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        int removed = 0;
        for (int i = 2; zset != null && i < argv.length; i++) {
            if (zset.remove(argv[i])) {
                removed++;
            }
        }
        if (removed > 0) {
            removed(client, argv[1], zset, "zrem");
        }
        client.reply().integer(removed);
    }

    /** ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES] */
    static void zrange(Client client, byte[][] argv) {
        range(client, argv, 1, null, null, null);
    }

    /** ZREVRANGE key start stop [WITHSCORES] */
    static void zrevrange(Client client, byte[][] argv) {
        range(client, argv, 1, By.RANK, true, null);
    }

    /** ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count] */
    static void zrangebyscore(Client client, byte[][] argv) {
        range(client, argv, 1, By.SCORE, false, null);
    }

    /** ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count] */
    static void zrevrangebyscore(Client client, byte[][] argv) {
        range(client, argv, 1, By.SCORE, true, null);
    }

    /** ZRANGEBYLEX key min max [LIMIT offset count] */
    static void zrangebylex(Client client, byte[][] argv) {
        range(client, argv, 1, By.LEX, false, null);
    }

    /** ZREVRANGEBYLEX key max min [LIMIT offset count] */
    static void zrevrangebylex(Client client, byte[][] argv) {
        range(client, argv, 1, By.LEX, true, null);
    }

    /** ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count] */
    static void zrangestore(Client client, byte[][] argv) {
        range(client, argv, 2, null, null, argv[1]);
    }

    /**
     * Redis's zrangeGenericCommand: options (each at most once, where the command leaves it open),
     * then the checks of their combination, then the range, then the key. A reverse range by
     * score or lex is given max first.
     */
    private static void range(Client client, byte[][] argv, int keyAt, By by, Boolean reverse, byte[] store) {
        boolean withScores = false;
        long offset = 0;
        long limit = -1;
        for (int j = keyAt + 3; j < argv.length; j++) {
            int left = argv.length - j - 1;
            if (store == null && Args.is(argv[j], "withscores")) {
                withScores = true;
            } else if (Args.is(argv[j], "limit") && left >= 2) {
                offset = Args.parseLong(argv[j + 1]);
                limit = Args.parseLong(argv[j + 2]);
                j += 2;
            } else if (reverse == null && Args.is(argv[j], "rev")) {
                reverse = true;
            } else if (by == null && Args.is(argv[j], "bylex")) {
                by = By.LEX;
            } else if (by == null && Args.is(argv[j], "byscore")) {
                by = By.SCORE;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        boolean rev = reverse != null && reverse;
        if (by == null) {
            by = By.RANK;
        }
        if (limit != -1 && by == By.RANK) {
            throw new CommandError(LIMIT_NEEDS_BY);
        }
        if (withScores && by == By.LEX) {
            throw new CommandError(WITHSCORES_BYLEX);
        }
        byte[] min = argv[keyAt + 1];
        byte[] max = argv[keyAt + 2];
        if (rev && by != By.RANK) {
            byte[] swapped = min;
            min = max;
            max = swapped;
        }
        long startRank = 0;
        long endRank = 0;
        Bound low = null;
        Bound high = null;
        if (by == By.RANK) {
            startRank = Args.parseLong(min);
            endRank = Args.parseLong(max);
        } else if (by == By.SCORE) {
            low = scoreBound(min);
            high = scoreBound(max);
        } else {
            low = lexBound(min);
            high = lexBound(max);
        }
        ZSetValue zset = client.keyspace().zset(argv[keyAt]);
        int[] ranks;
        if (zset == null) {
            ranks = new int[] {0, 0};
        } else if (by == By.RANK) {
            ranks = rankRange(zset.size(), startRank, endRank, rev);
        } else {
            ranks = by == By.SCORE ? scoreRanks(zset, low, high) : lexRanks(zset, low, high);
            ranks = page(ranks, offset, limit, rev);
        }
        if (store != null) {
            store(client, store, zset, ranks[0], ranks[1], rev, by == By.RANK);
        } else {
            replyRange(client, zset, ranks[0], ranks[1], rev, withScores);
        }
    }

    /** Redis's rank clamp ({@code start} and {@code end} inclusive, negative from the end) to ascending ranks. */
    private static int[] rankRange(int size, long start, long end, boolean reverse) {
        if (start < 0) {
            start += size;
        }
        if (end < 0) {
            end += size;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > end || start >= size) {
            return new int[] {0, 0};
        }
        if (end >= size) {
            end = size - 1;
        }
        return reverse ? new int[] {(int) (size - 1 - end), (int) (size - start)} : new int[] {(int) start, (int) end + 1};
    }

    /**
     * LIMIT on ascending ranks {@code [start, end)}, counted from the top when {@code reverse}: a
     * negative offset gives nothing, a negative count everything after the offset (as Redis's loops).
     */
    private static int[] page(int[] ranks, long offset, long limit, boolean reverse) {
        int start = ranks[0];
        int end = ranks[1];
        if (offset < 0 || offset >= end - start) {
            return new int[] {0, 0};
        }
        long count = end - start - offset;
        if (limit >= 0 && limit < count) {
            count = limit;
        }
        return reverse ? new int[] {(int) (end - offset - count), (int) (end - offset)}
                : new int[] {(int) (start + offset), (int) (start + offset + count)};
    }

    /** A range bound: a score, or a member ({@code null} member with {@code infinite} for '-' or '+'), and exclusive or not. */
    private record Bound(double score, byte[] member, int infinite, boolean exclusive) {
    }

    private static Bound scoreBound(byte[] arg) {
        boolean exclusive = arg.length > 0 && arg[0] == '(';
        double score = Scores.parseBound(arg, exclusive ? 1 : 0);
        if (Double.isNaN(score)) {
            throw new CommandError(NOT_A_FLOAT_RANGE);
        }
        return new Bound(score, null, 0, exclusive);
    }

    /** zslParseLexRangeItem: '-' or '+' alone, or '(' or '[' then the member. */
    private static Bound lexBound(byte[] arg) {
        if (arg.length == 1 && (arg[0] == '-' || arg[0] == '+')) {
            return new Bound(0, null, arg[0] == '-' ? -1 : 1, false);
        }
        if (arg.length > 0 && (arg[0] == '(' || arg[0] == '[')) {
            return new Bound(0, Arrays.copyOfRange(arg, 1, arg.length), 0, arg[0] == '(');
        }
        throw new CommandError(NOT_A_LEX_RANGE);
    }

    private static int[] scoreRanks(ZSetValue zset, Bound low, Bound high) {
        int start = zset.countBelow(low.score, low.exclusive);
        int end = zset.countBelow(high.score, !high.exclusive);
        return start < end ? new int[] {start, end} : new int[] {0, 0};
    }

    private static int[] lexRanks(ZSetValue zset, Bound low, Bound high) {
        int start = low.infinite != 0 ? (low.infinite < 0 ? 0 : zset.size()) : zset.countBelowLex(low.member, low.exclusive);
        int end = high.infinite != 0 ? (high.infinite < 0 ? 0 : zset.size()) : zset.countBelowLex(high.member, !high.exclusive);
        return start < end ? new int[] {start, end} : new int[] {0, 0};
    }

    private static void replyRange(Client client, ZSetValue zset, int start, int end, boolean reverse, boolean withScores) {
        Reply reply = client.reply();
        if (withScores) {
            reply.pairsHeader(end - start);
        } else {
            reply.arrayHeader(end - start);
        }
        for (int i = 0; i < end - start; i++) {
            int rank = reverse ? end - 1 - i : start + i;
            if (withScores) {
                reply.pairStart();
            }
            reply.bulk(zset.memberAt(rank));
            if (withScores) {
                reply.doubleValue(zset.scoreAt(rank));
            }
        }
    }

    /** ZRANGESTORE's end: the range replaces {@code dst} (an empty one deletes it); replies its size. */
    private static void store(Client client, byte[] dst, ZSetValue source, int start, int end, boolean reverse,
                              boolean byRank) {
        Keyspace keyspace = client.keyspace();
        byte[][] members = new byte[end - start][];
        double[] scores = new double[end - start];
        for (int i = 0; i < end - start; i++) {
            int rank = reverse ? end - 1 - i : start + i;
            members[i] = source.memberAt(rank);
            scores[i] = source.scoreAt(rank);
        }
        boolean replaced = keyspace.rebuild(dst, () -> {
            if (members.length > 0) {
                ZSetValue stored = keyspace.zsetForWrite(dst);
                // Redis's zrangeResultBeginStore: a skip list when a rank range's length passes the limit.
                if (byRank) {
                    stored.expect(members.length, 0);
                }
                for (int i = 0; i < members.length; i++) {
                    stored.put(members[i], scores[i]);
                }
            }
        });
        if (members.length > 0) {
            client.events().notify(ZSET, "zrangestore", dst, client.db());
        } else if (replaced) {
            client.events().notify(GENERIC, "del", dst, client.db());
        }
        client.reply().integer(members.length);
    }

    /** ZCOUNT key min max */
    static void zcount(Client client, byte[][] argv) {
        Bound low = scoreBound(argv[2]);
        Bound high = scoreBound(argv[3]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        int[] ranks = zset == null ? new int[] {0, 0} : scoreRanks(zset, low, high);
        client.reply().integer(ranks[1] - ranks[0]);
    }

    /** ZLEXCOUNT key min max */
    static void zlexcount(Client client, byte[][] argv) {
        Bound low = lexBound(argv[2]);
        Bound high = lexBound(argv[3]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        int[] ranks = zset == null ? new int[] {0, 0} : lexRanks(zset, low, high);
        client.reply().integer(ranks[1] - ranks[0]);
    }

    /** ZREMRANGEBYRANK key start stop */
    static void zremrangebyrank(Client client, byte[][] argv) {
        long start = Args.parseLong(argv[2]);
        long end = Args.parseLong(argv[3]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        removeRange(client, argv[1], zset, zset == null ? null : rankRange(zset.size(), start, end, false),
                "zremrangebyrank");
    }

    /** ZREMRANGEBYSCORE key min max */
    static void zremrangebyscore(Client client, byte[][] argv) {
        Bound low = scoreBound(argv[2]);
        Bound high = scoreBound(argv[3]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        removeRange(client, argv[1], zset, zset == null ? null : scoreRanks(zset, low, high), "zremrangebyscore");
    }

    /** ZREMRANGEBYLEX key min max */
    static void zremrangebylex(Client client, byte[][] argv) {
        Bound low = lexBound(argv[2]);
        Bound high = lexBound(argv[3]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        removeRange(client, argv[1], zset, zset == null ? null : lexRanks(zset, low, high), "zremrangebylex");
    }

    private static void removeRange(Client client, byte[] key, ZSetValue zset, int[] ranks, String event) {
        if (zset == null) {
            client.reply().integer(0);
            return;
        }
        zset.removeRange(ranks[0], ranks[1]);
        if (ranks[1] > ranks[0]) {
            removed(client, key, zset, event);
        }
        client.reply().integer(ranks[1] - ranks[0]);
    }

    /** The events of members removed from {@code zset}: {@code event}, then del if the last one went. */
    private static void removed(Client client, byte[] key, ZSetValue zset, String event) {
        client.events().notify(ZSET, event, key, client.db());
        if (zset.size() == 0) {
            client.events().notify(GENERIC, "del", key, client.db());
        }
    }

    /** ZPOPMIN key [count] */
    static void zpopmin(Client client, byte[][] argv) {
        pop(client, argv, false);
    }

    /** ZPOPMAX key [count] */
    static void zpopmax(Client client, byte[][] argv) {
        pop(client, argv, true);
    }

    /** Redis's genericZpopCommand: the count is checked before the key; logged as sent. */
    private static void pop(Client client, byte[][] argv, boolean max) {
        if (argv.length > 3) {
            throw new CommandError(Errors.SYNTAX);
        }
        long count = 1;
        if (argv.length == 3) {
            count = Args.parseLong(argv[2], MUST_BE_POSITIVE);
            if (count < 0) {
                throw new CommandError(MUST_BE_POSITIVE);
            }
        }
        ZSetValue zset = client.keyspace().zset(argv[1]);
        if (zset == null || count == 0) {
            client.reply().arrayHeader(0);
            return;
        }
        int size = zset.size();
        int popped = (int) Math.min(count, size);
        // As Redis's genericZpopCommand: RESP3 nests the pairs when a count was given.
        boolean counted = argv.length == 3;
        if (counted) {
            client.reply().pairsHeader(popped);
        } else {
            client.reply().arrayHeader(2 * popped);
        }
        int start = max ? size - popped : 0;
        for (int i = 0; i < popped; i++) {
            int rank = max ? size - 1 - i : i;
            if (counted) {
                client.reply().pairStart();
            }
            client.reply().bulk(zset.memberAt(rank));
            client.reply().doubleValue(zset.scoreAt(rank));
        }
        zset.removeRange(start, start + popped);
        removed(client, argv[1], zset, max ? "zpopmax" : "zpopmin");
    }

    /**
     * ZRANDMEMBER key [count [WITHSCORES]]: as Redis's zrandmemberWithCountCommand, a negative
     * count draws with repetition, a count of at least the size lists the whole set highest first, and
     * another draws distinct members.
     */
    static void zrandmember(Client client, byte[][] argv) {
        if (argv.length == 2) {
            ZSetValue zset = client.keyspace().zset(argv[1]);
            if (zset == null) {
                client.reply().nullBulk();
            } else {
                client.reply().bulk(zset.memberAt(zset.random(zset.size())));
            }
            return;
        }
        long count = Args.parseLong(argv[2]);
        if (count == Long.MIN_VALUE) {
            throw new CommandError(COUNT_OUT_OF_RANGE);
        }
        if (argv.length > 4 || argv.length == 4 && !Args.is(argv[3], "withscores")) {
            throw new CommandError(Errors.SYNTAX);
        }
        boolean withScores = argv.length == 4;
        if (withScores && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            throw new CommandError("ERR value is out of range");
        }
        ZSetValue zset = client.keyspace().zset(argv[1]);
        if (zset == null || count == 0) {
            client.reply().arrayHeader(0);
            return;
        }
        int size = zset.size();
        int[] ranks;
        if (count < 0 || count == 1) {
            // As SRANDMEMBER: stops once the reply passed the hard output-buffer limit, which closes the client.
            long draws = count < 0 ? -count : 1;
            long hardLimit = client.server().config().outputBufferLimit().hardBytes();
            if (withScores) {
                client.reply().pairsHeader(draws);
            } else {
                client.reply().arrayHeader(draws);
            }
            for (long i = 0; i < draws && (hardLimit == 0 || client.reply().pendingBytes() < hardLimit); i++) {
                replyMember(client, zset, zset.random(size), withScores);
            }
            return;
        }
        if (count >= size) {
            ranks = new int[size];
            // Highest first: Redis's zuiNext walks a sorted set from its tail.
            for (int i = 0; i < size; i++) {
                ranks[i] = size - 1 - i;
            }
        } else {
            ranks = distinctRanks(zset, size, (int) count);
        }
        if (withScores) {
            client.reply().pairsHeader(ranks.length);
        } else {
            client.reply().arrayHeader(ranks.length);
        }
        for (int rank : ranks) {
            replyMember(client, zset, rank, withScores);
        }
    }

    /** {@code count} distinct ranks of {@code size}, drawn at random (a partial Fisher-Yates shuffle). */
    private static int[] distinctRanks(ZSetValue zset, int size, int count) {
        HashMap<Integer, Integer> swapped = new HashMap<>();
        int[] ranks = new int[count];
        for (int i = 0; i < count; i++) {
            int j = i + zset.random(size - i);
            int atJ = swapped.getOrDefault(j, j);
            ranks[i] = atJ;
            swapped.put(j, swapped.getOrDefault(i, i));
        }
        return ranks;
    }

    private static void replyMember(Client client, ZSetValue zset, int rank, boolean withScores) {
        if (withScores) {
            client.reply().pairStart();
        }
        client.reply().bulk(zset.memberAt(rank));
        if (withScores) {
            client.reply().doubleValue(zset.scoreAt(rank));
        }
    }

    /** ZSCAN key cursor [MATCH pattern] [COUNT count] */
    static void zscan(Client client, byte[][] argv) {
        long cursor = Scan.parseCursor(argv[2]);
        ZSetValue zset = client.keyspace().zset(argv[1]);
        if (zset == null) {
            client.reply().arrayHeader(2);
            client.reply().bulk("0");
            client.reply().arrayHeader(0);
            return;
        }
        Scan.Options options = Scan.Options.parse(argv, 3, false);
        boolean compact = zset.isCompact();
        Scan.Walk walk = (at, visitor) -> zset.scan(at, (member, score) -> {
            visitor.accept(member);
            visitor.accept(Args.bytes(compact ? Scores.formatStored(score) : Scores.format(score)));
        });
        Scan.reply(client, cursor, options, walk, 2, options::matches);
    }

    /** ZUNION numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES] */
    static void zunion(Client client, byte[][] argv) {
        combine(client, argv, null, 1, Operation.UNION, false);
    }

    /** ZINTER numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES] */
    static void zinter(Client client, byte[][] argv) {
        combine(client, argv, null, 1, Operation.INTER, false);
    }

    /** ZDIFF numkeys key [key ...] [WITHSCORES] */
    static void zdiff(Client client, byte[][] argv) {
        combine(client, argv, null, 1, Operation.DIFF, false);
    }

    /** ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] */
    static void zunionstore(Client client, byte[][] argv) {
        combine(client, argv, argv[1], 2, Operation.UNION, false);
    }

    /** ZINTERSTORE destination numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] */
    static void zinterstore(Client client, byte[][] argv) {
        combine(client, argv, argv[1], 2, Operation.INTER, false);
    }

    /** ZDIFFSTORE destination numkeys key [key ...] */
    static void zdiffstore(Client client, byte[][] argv) {
        combine(client, argv, argv[1], 2, Operation.DIFF, false);
    }

    /** ZINTERCARD numkeys key [key ...] [LIMIT limit] */
    static void zintercard(Client client, byte[][] argv) {
        combine(client, argv, null, 1, Operation.INTER, true);
    }

    private enum Operation {
        UNION("zunionstore"), INTER("zinterstore"), DIFF("zdiffstore");

        final String storeEvent;

        Operation(String storeEvent) {
            this.storeEvent = storeEvent;
        }
    }

    private enum Aggregate { SUM, MIN, MAX }

    /** One input of a combination: a sorted set's members and scores, or a set's with score 1, and its weight. */
    private static final class Source {
        final Map<ByteBuffer, Double> scores = new LinkedHashMap<>();
        double weight = 1;
    }

    /**
     * Redis's zunionInterDiffGenericCommand: numkeys, then every key's type (a set counts, each
     * member scoring 1), then the options; inputs but the difference's first go smallest first,
     * which decides the order of a sum's additions.
     */
    private static void combine(Client client, byte[][] argv, byte[] store, int countAt, Operation operation,
                                boolean cardinalityOnly) {
        long numkeys = Args.parseLong(argv[countAt]);
        if (numkeys < 1) {
            throw new CommandError("ERR at least 1 input key is needed for '" + Args.utf8(argv[0]).toLowerCase() + "' command");
        }
        if (numkeys > argv.length - countAt - 1) {
            throw new CommandError(Errors.SYNTAX);
        }
        Keyspace keyspace = client.keyspace();
        Source[] sources = new Source[(int) numkeys];
        int j = countAt + 1;
        for (int i = 0; i < sources.length; i++, j++) {
            sources[i] = read(keyspace, argv[j]);
        }
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        long limit = 0;
        while (j < argv.length) {
            int remaining = argv.length - j;
            if (operation != Operation.DIFF && !cardinalityOnly && remaining >= sources.length + 1
                    && Args.is(argv[j], "weights")) {
                j++;
                for (Source source : sources) {
                    source.weight = parseWeight(argv[j++]);
                }
            } else if (operation != Operation.DIFF && !cardinalityOnly && remaining >= 2 && Args.is(argv[j], "aggregate")) {
                byte[] name = argv[j + 1];
                if (Args.is(name, "sum")) {
                    aggregate = Aggregate.SUM;
                } else if (Args.is(name, "min")) {
                    aggregate = Aggregate.MIN;
                } else if (Args.is(name, "max")) {
                    aggregate = Aggregate.MAX;
                } else {
                    throw new CommandError(Errors.SYNTAX);
                }
                j += 2;
            } else if (store == null && !cardinalityOnly && Args.is(argv[j], "withscores")) {
                withScores = true;
                j++;
            } else if (cardinalityOnly && remaining >= 2 && Args.is(argv[j], "limit")) {
                limit = Args.parseLong(argv[j + 1], LIMIT_NEGATIVE);
                if (limit < 0) {
                    throw new CommandError(LIMIT_NEGATIVE);
                }
                j += 2;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        if (operation != Operation.DIFF) {
            Arrays.sort(sources, Comparator.comparingInt(source -> source.scores.size()));
        }
        Map<ByteBuffer, Double> result = switch (operation) {
            case UNION -> union(sources, aggregate);
            case INTER -> intersection(sources, aggregate, cardinalityOnly ? limit : 0);
            case DIFF -> difference(sources);
        };
        if (cardinalityOnly) {
            client.reply().integer(result.size());
            return;
        }
        List<Map.Entry<ByteBuffer, Double>> sorted = new ArrayList<>(result.entrySet());
        sorted.sort((a, b) -> {
            // -0 equals 0 here, as in Redis's skip list: the member decides.
            double x = a.getValue();
            double y = b.getValue();
            int c = x < y ? -1 : x > y ? 1 : 0;
            return c != 0 ? c : Arrays.compareUnsigned(a.getKey().array(), b.getKey().array());
        });
        if (store != null) {
            boolean replaced = keyspace.rebuild(store, () -> {
                if (!sorted.isEmpty()) {
                    ZSetValue stored = keyspace.zsetForWrite(store);
                    // Redis builds the result as a skip list and makes it a listpack if small enough.
                    stored.expect(sorted.size(), sorted.stream().mapToInt(entry -> entry.getKey().array().length).max().orElse(0));
                    for (Map.Entry<ByteBuffer, Double> entry : sorted) {
                        stored.put(entry.getKey().array(), entry.getValue());
                    }
                }
            });
            if (!sorted.isEmpty()) {
                client.events().notify(ZSET, operation.storeEvent, store, client.db());
            } else if (replaced) {
                client.events().notify(GENERIC, "del", store, client.db());
            }
            client.reply().integer(sorted.size());
            return;
        }
        if (withScores) {
            client.reply().pairsHeader(sorted.size());
        } else {
            client.reply().arrayHeader(sorted.size());
        }
        for (Map.Entry<ByteBuffer, Double> entry : sorted) {
            if (withScores) {
                client.reply().pairStart();
            }
            client.reply().bulk(entry.getKey().array());
            if (withScores) {
                client.reply().doubleValue(entry.getValue());
            }
        }
    }

    private static Source read(Keyspace keyspace, byte[] key) {
        Source source = new Source();
        if (keyspace.type(key) == ValueType.SET) {
            keyspace.set(key).forEach(member -> source.scores.put(ByteBuffer.wrap(member), 1.0));
            return source;
        }
        // WRONGTYPE for any type but these two.
        ZSetValue zset = keyspace.zset(key);
        for (int rank = 0, size = zset == null ? 0 : zset.size(); rank < size; rank++) {
            source.scores.put(ByteBuffer.wrap(zset.memberAt(rank)), zset.scoreAt(rank));
        }
        return source;
    }

    private static double parseWeight(byte[] arg) {
        try {
            return Scores.parse(arg);
        } catch (CommandError e) {
            throw new CommandError("ERR weight value is not a float");
        }
    }

    /** A source's score times its weight; 0 where that is NaN (0 times infinity), as Redis. */
    private static double weighted(Source source, double score) {
        double value = source.weight * score;
        return Double.isNaN(value) ? 0 : value;
    }

    /** Redis's zunionInterAggregate: a sum of opposite infinities is 0. */
    private static double aggregate(Aggregate aggregate, double target, double value) {
        return switch (aggregate) {
            case SUM -> {
                double sum = target + value;
                yield Double.isNaN(sum) ? 0 : sum;
            }
            case MIN -> Math.min(target, value);
            case MAX -> Math.max(target, value);
        };
    }

    private static Map<ByteBuffer, Double> union(Source[] sources, Aggregate aggregate) {
        Map<ByteBuffer, Double> result = new HashMap<>();
        for (Source source : sources) {
            source.scores.forEach((member, score) ->
                    result.merge(member, weighted(source, score), (old, value) -> aggregate(aggregate, old, value)));
        }
        return result;
    }

    /** The members of every source; {@code limit} (0 for none) stops counting early, for ZINTERCARD. */
    private static Map<ByteBuffer, Double> intersection(Source[] sources, Aggregate aggregate, long limit) {
        Map<ByteBuffer, Double> result = new HashMap<>();
        for (Map.Entry<ByteBuffer, Double> entry : sources[0].scores.entrySet()) {
            double score = weighted(sources[0], entry.getValue());
            boolean everywhere = true;
            for (int i = 1; i < sources.length && everywhere; i++) {
                Double other = sources[i].scores.get(entry.getKey());
                if (other == null) {
                    everywhere = false;
                } else {
                    score = aggregate(aggregate, score, weighted(sources[i], other));
                }
            }
            if (everywhere) {
                result.put(entry.getKey(), score);
                if (limit > 0 && result.size() >= limit) {
                    break;
                }
            }
        }
        return result;
    }

    private static Map<ByteBuffer, Double> difference(Source[] sources) {
        Map<ByteBuffer, Double> result = new HashMap<>(sources[0].scores);
        for (int i = 1; i < sources.length; i++) {
            result.keySet().removeAll(sources[i].scores.keySet());
        }
        return result;
    }

    /**
     * ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first key holding a sorted
     * set, replying [key, [[member, score] ...]]; logged as the ZPOPMIN or ZPOPMAX that ran, as
     * Redis propagates it.
     */
    static void zmpop(Client client, byte[][] argv) {
        MultiPop request = MultiPop.parse(argv, 1, "min", "max");
        Keyspace keyspace = client.keyspace();
        for (int i = request.firstKey(); i < request.keysEnd(); i++) {
            ZSetValue zset = keyspace.zset(argv[i]);
            if (zset != null) {
                popRange(client, argv[i], zset, request.fromEnd(), request.count());
                return;
            }
        }
        client.reply().nullArray();
    }

    /**
     * ZMPOP's reply from {@code zset} under {@code key}: [key, [[member, score] ...]] of up to
     * {@code count} members; logged as the ZPOPMIN or ZPOPMAX with the count taken, as Redis propagates it.
     */
    static void popRange(Client client, byte[] key, ZSetValue zset, boolean max, long count) {
        int size = zset.size();
        int popped = (int) Math.min(count, size);
        client.reply().arrayHeader(2);
        client.reply().bulk(key);
        client.reply().arrayHeader(popped);
        for (int k = 0; k < popped; k++) {
            int rank = max ? size - 1 - k : k;
            client.reply().arrayHeader(2);
            client.reply().bulk(zset.memberAt(rank));
            client.reply().doubleValue(zset.scoreAt(rank));
        }
        int start = max ? size - popped : 0;
        zset.removeRange(start, start + popped);
        removed(client, key, zset, max ? "zpopmax" : "zpopmin");
        client.logAs(max ? ZPOPMAX : ZPOPMIN, key, Args.bytes(Integer.toString(popped)));
    }

    /** BZPOPMIN's and BZPOPMAX's reply: [key, member, score] of the lowest or highest member; logged as ZPOPMIN/ZPOPMAX key. */
    static void popWithKey(Client client, byte[] key, ZSetValue zset, boolean max) {
        int rank = max ? zset.size() - 1 : 0;
        client.reply().arrayHeader(3);
        client.reply().bulk(key);
        client.reply().bulk(zset.memberAt(rank));
        client.reply().doubleValue(zset.scoreAt(rank));
        zset.removeRange(rank, rank + 1);
        removed(client, key, zset, max ? "zpopmax" : "zpopmin");
        client.logAs(max ? ZPOPMAX : ZPOPMIN, key);
    }

    private static void replyScore(Client client, double score) {
        if (Double.isNaN(score)) {
            client.reply().nullBulk();
        } else {
            client.reply().doubleValue(score);
        }
    }
}
