package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.HashValue;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ListValue;
import io.kvd.server.store.ValueType;
import io.kvd.server.store.WrongTypeException;
import io.kvd.server.store.ZSetValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.KEY_MISS;
import static io.kvd.server.config.KeyspaceEventTypes.LIST;

/**
 * SORT and SORT_RO (Redis 7.0's sort.c) over lists, sets and sorted sets: weights from the
 * elements or from keys a BY pattern names, GET patterns, LIMIT, ALPHA, DESC and STORE.
 */
final class SortCommand {
    private static final String BAD_SCORES = "ERR One or more scores can't be converted into double";
    private static final String BY_IN_CLUSTER = "ERR BY option of SORT denied in Cluster mode.";
    private static final String GET_IN_CLUSTER = "ERR GET option of SORT denied in Cluster mode.";
    private static final String BY_DENIED = "ERR BY option of SORT denied due to insufficient ACL permissions.";
    private static final String GET_DENIED = "ERR GET option of SORT denied due to insufficient ACL permissions.";
    private static final byte[] EMPTY = {};

    private SortCommand() {
    }

    /** SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination] */
    static void sort(Client client, byte[][] argv) {
        sort(client, argv, false);
    }

    /** SORT_RO key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] */
    static void sortRo(Client client, byte[][] argv) {
        sort(client, argv, true);
    }

    /** The options, as Redis's sortCommandGeneric reads them: the last of a repeated one wins, GETs add up. */
    private static final class Request {
        boolean desc;
        boolean alpha;
        long limitStart;
        long limitCount = -1;
        byte[] store;
        byte[] by;
        /** BY a pattern without '*': the elements keep their order (Redis's dontsort). */
        boolean dontSort;
        final List<byte[]> gets = new ArrayList<>();
    }

    /** One element and what it sorts by: a score, or with ALPHA and BY the weight's bytes (null when missing). */
    private static final class Item {
        final byte[] element;
        double score;
        byte[] weight;

        Item(byte[] element) {
            this.element = element;
        }
    }

    private static void sort(Client client, byte[][] argv, boolean readOnly) {
        Request request = parse(client, argv, readOnly);
        Keyspace keyspace = client.keyspace();
        ValueType type = keyspace.type(argv[1]);
        if (type != null && type != ValueType.LIST && type != ValueType.SET && type != ValueType.ZSET) {
            throw new WrongTypeException();
        }
        // As Redis: a set has no order of its own, so one stored or sorted for a script is sorted by its members.
        if (request.dontSort && type == ValueType.SET && (request.store != null || client.isScriptCaller())) {
            request.dontSort = false;
            request.alpha = true;
            request.by = null;
        }
        if (type == ValueType.ZSET) {
            keyspace.zset(argv[1]).convertForSort();
        }
        long size = type == null ? 0 : switch (type) {
            case LIST -> keyspace.list(argv[1]).size();
            case SET -> keyspace.set(argv[1]).size();
            default -> keyspace.zset(argv[1]).size();
        };
        // Redis's LIMIT: a negative offset is 0, a negative count is everything; then clamped into the elements.
        long start = Math.min(Math.max(request.limitStart, 0), size);
        long count = Math.min(Math.max(request.limitCount, -1), size);
        long end = count < 0 ? size - 1 : start + count - 1;
        if (start >= size) {
            start = size - 1;
            end = size - 2;
        }
        if (end >= size) {
            end = size - 1;
        }
        List<Item> items;
        if (request.dontSort && (type == ValueType.LIST || type == ValueType.ZSET)) {
            // Without sorting, a list or sorted set gives only the range asked for, in its own order.
            items = range(keyspace, argv[1], type, start, end, request.desc);
            end -= start;
            start = 0;
        } else {
            items = type == null ? new ArrayList<>() : all(keyspace, argv[1], type);
        }
        boolean badScore = false;
        if (!request.dontSort) {
            badScore = weigh(client, request, items);
            sort(items, order(request), request.by != null && (start != 0 || end != items.size() - 1), start, end);
        }
        if (badScore) {
            throw new CommandError(BAD_SCORES);
        }
        // Nothing picked can leave start at -1 (an empty collection).
        List<Item> output = end < start ? List.of() : items.subList((int) start, (int) end + 1);
        long outputs = request.gets.isEmpty() ? output.size() : (long) request.gets.size() * output.size();
        if (request.store == null) {
            reply(client, request, output, outputs);
        } else {
            store(client, request, output);
        }
    }

    /**
     * Redis's choice of sort: with BY and a LIMIT that leaves some elements out, its partial
     * quicksort (whose order of equal weights differs); else glibc's qsort, a stable merge sort.
     */
    private static void sort(List<Item> items, Comparator<Item> order, boolean partial, long start, long end) {
        if (!partial) {
            items.sort(order);
            return;
        }
        PartialQuicksort.sort(items, order, (int) start, (int) end);
    }

    private static Request parse(Client client, byte[][] argv, boolean readOnly) {
        Request request = new Request();
        boolean cluster = client.server().config().cluster() != null;
        // As Redis: BY and GET patterns name keys no key spec shows, so they need every key readable.
        boolean readsEveryKey = client.user() == null || client.user().mayReadEveryKey();
        for (int j = 2; j < argv.length; j++) {
            int left = argv.length - j - 1;
            byte[] option = argv[j];
            if (Args.is(option, "asc")) {
                request.desc = false;
            } else if (Args.is(option, "desc")) {
                request.desc = true;
            } else if (Args.is(option, "alpha")) {
                request.alpha = true;
            } else if (Args.is(option, "limit") && left >= 2) {
                request.limitStart = Args.parseLong(argv[j + 1]);
                request.limitCount = Args.parseLong(argv[j + 2]);
                j += 2;
            } else if (!readOnly && Args.is(option, "store") && left >= 1) {
                request.store = argv[++j];
            } else if (Args.is(option, "by") && left >= 1) {
                request.by = argv[++j];
                // As Redis: once a BY without '*' was seen, a later BY with one does not sort either.
                if (star(request.by) < 0) {
                    request.dontSort = true;
                } else if (cluster) {
                    // The keys a pattern names may live in other slots.
                    throw new CommandError(BY_IN_CLUSTER);
                } else if (!readsEveryKey) {
                    throw new CommandError(BY_DENIED);
                }
            } else if (Args.is(option, "get") && left >= 1) {
                if (cluster) {
                    throw new CommandError(GET_IN_CLUSTER);
                }
                if (!readsEveryKey) {
                    throw new CommandError(GET_DENIED);
                }
                request.gets.add(argv[++j]);
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        return request;
    }

    /** Elements {@code start} to {@code end} of a list or sorted set, from the tail when {@code desc}. */
    private static List<Item> range(Keyspace keyspace, byte[] key, ValueType type, long start, long end,
                                    boolean desc) {
        List<Item> items = new ArrayList<>();
        if (end < start) {
            return items;
        }
        int wanted = (int) (end - start + 1);
        if (type == ValueType.LIST) {
            ListValue list = keyspace.list(key);
            list.walk(desc ? list.size() - start - 1 : start, desc, (bytes, offset, length) -> {
                items.add(new Item(Arrays.copyOfRange(bytes, offset, offset + length)));
                return items.size() < wanted;
            });
        } else {
            ZSetValue zset = keyspace.zset(key);
            for (int i = 0; i < wanted; i++) {
                long rank = desc ? zset.size() - 1 - start - i : start + i;
                items.add(new Item(zset.memberAt((int) rank)));
            }
        }
        return items;
    }

    /** Every element of the collection: a list's in order, a set's in its table's, a sorted set's by rank. */
    private static List<Item> all(Keyspace keyspace, byte[] key, ValueType type) {
        List<Item> items = new ArrayList<>();
        switch (type) {
            case LIST -> keyspace.list(key).forEach(element -> items.add(new Item(element)));
            case SET -> keyspace.set(key).forEach(member -> items.add(new Item(member)));
            default -> {
                ZSetValue zset = keyspace.zset(key);
                for (int rank = 0; rank < zset.size(); rank++) {
                    items.add(new Item(zset.memberAt(rank)));
                }
            }
        }
        return items;
    }

    /**
     * Loads what each element sorts by; true if a numeric weight is no number. A missing BY key
     * weighs 0 (or, with ALPHA, sorts first).
     */
    private static boolean weigh(Client client, Request request, List<Item> items) {
        boolean bad = false;
        for (Item item : items) {
            byte[] weight = request.by == null ? item.element : lookup(client, request.by, item.element);
            if (weight == null) {
                continue;
            }
            if (request.alpha) {
                if (request.by != null) {
                    item.weight = weight;
                }
            } else {
                double score = Scores.parseSortWeight(weight);
                if (Double.isNaN(score)) {
                    bad = true;
                } else {
                    item.score = score;
                }
            }
        }
        return bad;
    }

    /**
     * Redis's sortCompare: scores, equal ones by their elements' bytes; with ALPHA, the elements
     * or their weights as strcoll orders them (byte order up to a NUL under the C and C.UTF-8
     * locales), but by all their bytes when the result is stored.
     */
    private static Comparator<Item> order(Request request) {
        Comparator<byte[]> strings = request.store != null ? Arrays::compareUnsigned : SortCommand::strcmp;
        Comparator<Item> order;
        if (!request.alpha) {
            order = (a, b) -> a.score > b.score ? 1 : a.score < b.score ? -1
                    : Arrays.compareUnsigned(a.element, b.element);
        } else if (request.by != null) {
            order = (a, b) -> a.weight == null || b.weight == null
                    ? (a.weight == b.weight ? 0 : a.weight == null ? -1 : 1) : strings.compare(a.weight, b.weight);
        } else {
            order = (a, b) -> strings.compare(a.element, b.element);
        }
        // Redis negates the comparison for DESC: equal weights stay equal.
        return request.desc ? order.reversed() : order;
    }

    /** C's strcmp of two strings that end at their first NUL byte, if any. */
    private static int strcmp(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, cLength(a), b, 0, cLength(b));
    }

    private static int cLength(byte[] s) {
        for (int i = 0; i < s.length; i++) {
            if (s[i] == 0) {
                return i;
            }
        }
        return s.length;
    }

    /** The position of a pattern's first '*', or -1 (C's strchr: none after a NUL byte). */
    private static int star(byte[] pattern) {
        int end = cLength(pattern);
        for (int i = 0; i < end; i++) {
            if (pattern[i] == '*') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Redis's lookupKeyByPattern: "#" is the element itself; else the first '*' is replaced by
     * the element and names a string key, or with "->field" after the '*' a hash's field. Null
     * for a pattern without '*', a missing key or field, or a key of another type.
     */
    private static byte[] lookup(Client client, byte[] pattern, byte[] element) {
        if (pattern.length > 0 && pattern[0] == '#' && cLength(pattern) == 1) {
            return element;
        }
        int star = star(pattern);
        if (star < 0) {
            return null;
        }
        int end = cLength(pattern);
        int arrow = -1;
        for (int i = star + 1; i + 1 < end; i++) {
            if (pattern[i] == '-' && pattern[i + 1] == '>') {
                arrow = i;
                break;
            }
        }
        // An arrow at the pattern's end names no field.
        boolean hashField = arrow >= 0 && arrow + 2 < end;
        int fieldLength = hashField ? pattern.length - arrow - 2 : 0;
        int suffixLength = pattern.length - star - 1 - (hashField ? fieldLength + 2 : 0);
        byte[] key = new byte[star + element.length + suffixLength];
        System.arraycopy(pattern, 0, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(pattern, star + 1, key, star + element.length, suffixLength);
        Keyspace keyspace = client.keyspace();
        ValueType type = keyspace.type(key);
        if (type == null) {
            client.events().notify(KEY_MISS, "keymiss", key, client.db());
            return null;
        }
        if (hashField) {
            if (type != ValueType.HASH) {
                return null;
            }
            HashValue hash = keyspace.hash(key);
            return hash.get(Arrays.copyOfRange(pattern, arrow + 2, pattern.length));
        }
        return type == ValueType.STRING ? keyspace.get(key) : null;
    }

    private static void reply(Client client, Request request, List<Item> output, long outputs) {
        Reply reply = client.reply();
        reply.arrayHeader(outputs);
        for (Item item : output) {
            if (request.gets.isEmpty()) {
                reply.bulk(item.element);
            }
            for (byte[] get : request.gets) {
                reply.bulk(lookup(client, get, item.element));
            }
        }
    }

    /**
     * STORE: the destination, whatever it held, becomes a list of the output (a missing GET an
     * empty string), without a TTL; no output deletes it. Logged as sent, as Redis propagates it.
     */
    private static void store(Client client, Request request, List<Item> output) {
        List<byte[]> elements = new ArrayList<>();
        for (Item item : output) {
            if (request.gets.isEmpty()) {
                elements.add(item.element);
            }
            for (byte[] get : request.gets) {
                byte[] value = lookup(client, get, item.element);
                elements.add(value == null ? EMPTY : value);
            }
        }
        Keyspace keyspace = client.keyspace();
        byte[] destination = request.store;
        if (!elements.isEmpty()) {
            byte[][] pushed = elements.toArray(new byte[0][]);
            keyspace.rebuild(destination, () -> keyspace.listForWrite(destination).pushAll(pushed, 0, false));
            client.events().notify(LIST, "sortstore", destination, client.db());
        } else if (keyspace.remove(destination)) {
            client.events().notify(GENERIC, "del", destination, client.db());
        }
        client.reply().integer(elements.size());
    }
}
