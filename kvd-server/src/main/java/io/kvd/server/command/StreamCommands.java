package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.StreamValue;
import io.kvd.server.store.ValueType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.kvd.server.config.KeyspaceEventTypes.STREAM;

/**
 * Stream commands but consumer groups' (Redis 7.0's t_stream.c): XADD XLEN XRANGE XREVRANGE
 * XDEL XTRIM XSETID XREAD XINFO STREAM; the groups are {@link StreamGroupCommands}. An id is {@code ms-seq}, two unsigned 64-bit numbers;
 * a write is logged with what it did (XADD's assigned id, a {@code ~} trim as the exact trim it
 * came to), as Redis propagates it.
 */
final class StreamCommands {
    private static final String INVALID_ID = "ERR Invalid stream ID specified as stream command argument";
    private static final String ID_TOO_SMALL =
            "ERR The ID specified in XADD is equal or smaller than the target stream top item";
    private static final String ID_ZERO = "ERR The ID specified in XADD must be greater than 0-0";
    private static final String EXHAUSTED =
            "ERR The stream has exhausted the last possible ID, unable to add more items";
    private static final String MAXLEN_AND_MINID =
            "ERR syntax error, MAXLEN and MINID options at the same time are not compatible";
    private static final String LIMIT_WITHOUT_STRATEGY =
            "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy";
    private static final String LIMIT_WITHOUT_APPROXIMATION =
            "ERR syntax error, LIMIT cannot be used without the special ~ option";
    /** XREAD's and XREADGROUP's entries per stream served after blocking without COUNT (XREAD_BLOCKED_DEFAULT_COUNT). */
    static final long BLOCKED_DEFAULT_COUNT = 1000;
    /** XINFO STREAM FULL's entries without COUNT. */
    private static final long FULL_DEFAULT_COUNT = 10;
    private static final byte[] EQUALS = {'='};

    static final Subcommands XINFO = new Subcommands("xinfo")
            .add("consumers", 4, Set.of(Command.Flag.READONLY), StreamGroupCommands::xinfoConsumers,
                    "CONSUMERS <key> <groupname>",
                    "    Show consumers of <groupname>.")
            .add("groups", 3, Set.of(Command.Flag.READONLY), StreamGroupCommands::xinfoGroups,
                    "GROUPS <key>",
                    "    Show the stream consumer groups.")
            .add("stream", -3, Set.of(Command.Flag.READONLY), StreamCommands::xinfoStream,
                    "STREAM <key> [FULL [COUNT <count>]",
                    "    Show information about the stream.")
            .withHelp();

    private StreamCommands() {
    }

    /** XADD and XTRIM's trimming: MAXLEN or MINID, exact or {@code ~}, with LIMIT (Redis's streamAddTrimArgs). */
    private static final class Trim {
        boolean byLength;
        boolean byId;
        long maxLength;
        StreamId minId;
        boolean approximate;
        long limit;
        /** Where the threshold is in argv, rewritten for the log after a {@code ~} trim. */
        int thresholdAt;
        /** XADD's id argument's position; XADD only. */
        int idAt;
        StreamId id;
        boolean seqGiven = true;
        boolean noMakeStream;

        boolean any() {
            return byLength || byId;
        }
    }

    /** Redis's streamParseAddOrTrimArgsOrReply. */
    private static Trim parseTrim(Client client, byte[][] argv, boolean xadd) {
        Trim trim = new Trim();
        boolean limitGiven = false;
        int i = 2;
        for (; i < argv.length; i++) {
            int more = argv.length - 1 - i;
            byte[] option = argv[i];
            if (xadd && option.length == 1 && option[0] == '*') {
                break;
            } else if ((Args.is(option, "maxlen") || Args.is(option, "minid")) && more > 0) {
                if (trim.any()) {
                    throw new CommandError(MAXLEN_AND_MINID);
                }
                boolean byLength = Args.is(option, "maxlen");
                trim.approximate = false;
                byte[] next = argv[i + 1];
                if (more >= 2 && next.length == 1 && (next[0] == '~' || next[0] == '=')) {
                    trim.approximate = next[0] == '~';
                    i++;
                }
                if (byLength) {
                    trim.maxLength = Args.parseLong(argv[i + 1]);
                    if (trim.maxLength < 0) {
                        throw new CommandError("ERR The MAXLEN argument must be >= 0.");
                    }
                    trim.byLength = true;
                } else {
                    trim.minId = parseId(argv[i + 1], 0, true, null);
                    trim.byId = true;
                }
                i++;
                trim.thresholdAt = i;
            } else if (Args.is(option, "limit") && more > 0) {
                trim.limit = Args.parseLong(argv[i + 1]);
                if (trim.limit < 0) {
                    throw new CommandError("ERR The LIMIT argument must be >= 0.");
                }
                limitGiven = true;
                i++;
            } else if (xadd && Args.is(option, "nomkstream")) {
                trim.noMakeStream = true;
            } else if (xadd) {
                boolean[] seqGiven = {true};
                trim.id = parseId(option, 0, true, seqGiven);
                trim.seqGiven = seqGiven[0];
                break;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        trim.idAt = i;
        if (trim.limit != 0 && !trim.any()) {
            throw new CommandError(LIMIT_WITHOUT_STRATEGY);
        }
        if (!xadd && !trim.any()) {
            throw new CommandError("ERR syntax error, XTRIM must be called with a trimming strategy");
        }
        if (client.isReplayingAof()) {
            // The log holds the exact trim a `~` came to, with its LIMIT still named.
            trim.limit = 0;
        } else if (limitGiven) {
            if (!trim.approximate) {
                throw new CommandError(LIMIT_WITHOUT_APPROXIMATION);
            }
        } else {
            trim.limit = trim.approximate ? 100 * client.keyspace().limits().streamNodeMaxEntries() : 0;
        }
        return trim;
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...] */
    static void xadd(Client client, byte[][] argv) {
        Trim trim = parseTrim(client, argv, true);
        int fieldsAt = trim.idAt + 1;
        int pairs = argv.length - fieldsAt;
        if (pairs < 2 || pairs % 2 == 1) {
            throw new CommandError(Errors.wrongArity("xadd"));
        }
        if (trim.id != null && trim.seqGiven && trim.id.isZero()) {
            throw new CommandError(ID_ZERO);
        }
        Keyspace keyspace = client.keyspace();
        StreamValue stream = trim.noMakeStream ? keyspace.stream(argv[1]) : keyspace.streamForWrite(argv[1]);
        if (stream == null) {
            client.reply().nullBulk();
            return;
        }
        if (stream.lastId().equals(StreamId.MAX)) {
            throw new CommandError(EXHAUSTED);
        }
        StreamId id = stream.nextId(trim.id, trim.seqGiven);
        if (id == null) {
            throw new CommandError(ID_TOO_SMALL);
        }
        stream.add(id, argv, fieldsAt);
        byte[] idBytes = id.toBytes();
        client.reply().bulk(idBytes);
        client.events().notify(STREAM, "xadd", argv[1], client.db());
        byte[][] record = argv.clone();
        if (trim.any()) {
            if (stream.trim(trim.maxLength, trim.byId ? trim.minId : null, trim.approximate, trim.limit) > 0) {
                client.events().notify(STREAM, "xtrim", argv[1], client.db());
            }
            if (trim.approximate) {
                exactTrimRecord(record, trim, stream);
            }
        }
        record[trim.idAt] = idBytes;
        client.logAs(record);
    }

    /** Redis's streamRewriteApproxSpecifier and streamRewriteTrimArgument: {@code ~ n} is logged as {@code = what it left}. */
    private static void exactTrimRecord(byte[][] record, Trim trim, StreamValue stream) {
        record[trim.thresholdAt - 1] = EQUALS;
        if (trim.byLength) {
            record[trim.thresholdAt] = Args.bytes(Long.toString(stream.length()));
        } else {
            StreamId first = stream.edge(true);
            record[trim.thresholdAt] = (first == null ? StreamId.MAX : first).toBytes();
        }
    }

    /** XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count] */
    static void xtrim(Client client, byte[][] argv) {
        Trim trim = parseTrim(client, argv, false);
        StreamValue stream = client.keyspace().stream(argv[1]);
        if (stream == null) {
            client.reply().integer(0);
            return;
        }
        long removed = stream.trim(trim.maxLength, trim.byId ? trim.minId : null, trim.approximate, trim.limit);
        if (removed > 0) {
            client.events().notify(STREAM, "xtrim", argv[1], client.db());
            if (trim.approximate) {
                byte[][] record = argv.clone();
                exactTrimRecord(record, trim, stream);
                client.logAs(record);
            }
        }
        client.reply().integer(removed);
    }

    /** XLEN key */
    static void xlen(Client client, byte[][] argv) {
        StreamValue stream = client.keyspace().stream(argv[1]);
        client.reply().integer(stream == null ? 0 : stream.length());
    }

    /** XRANGE key start end [COUNT count] */
    static void xrange(Client client, byte[][] argv) {
        range(client, argv, false);
    }

    /** XREVRANGE key end start [COUNT count] */
    static void xrevrange(Client client, byte[][] argv) {
        range(client, argv, true);
    }

    /** Redis's xrangeGenericCommand: {@code (} excludes a bound, an id without seq is its ms's first or last. */
    private static void range(Client client, byte[][] argv, boolean reverse) {
        byte[] startArg = reverse ? argv[3] : argv[2];
        byte[] endArg = reverse ? argv[2] : argv[3];
        StreamId start = intervalStart(startArg);
        StreamId end = intervalEnd(endArg);
        long count = -1;
        for (int j = 4; j < argv.length; j++) {
            if (Args.is(argv[j], "count") && j + 1 < argv.length) {
                count = Math.max(0, Args.parseLong(argv[++j]));
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        StreamValue stream = client.keyspace().stream(argv[1]);
        if (stream == null) {
            client.reply().arrayHeader(0);
        } else if (count == 0) {
            client.reply().nullArray();
        } else {
            replyEntries(client, stream, start, end, reverse, count < 0 ? Long.MAX_VALUE : count);
        }
    }

    private static boolean isExclusive(byte[] arg) {
        return arg.length > 1 && arg[0] == '(';
    }

    /** Redis's streamParseIntervalIDOrReply: a {@code (}-prefixed bound is strict (no {@code -} or {@code +}). */
    private static StreamId intervalBound(byte[] arg, long missingSeq) {
        return isExclusive(arg) ? parseId(Arrays.copyOfRange(arg, 1, arg.length), missingSeq, true, null)
                : parseId(arg, missingSeq, false, null);
    }

    /** The entries of {@code [start, end]}, at most {@code count}, as an array of [id, [field, value, ...]]. */
    private static void replyEntries(Client client, StreamValue stream, StreamId start, StreamId end, boolean reverse,
                                     long count) {
        List<StreamId> ids = new ArrayList<>();
        List<byte[][]> entries = new ArrayList<>();
        stream.range(start, end, reverse, (id, fieldsAndValues) -> {
            ids.add(id);
            entries.add(fieldsAndValues);
            return ids.size() < count;
        });
        Reply reply = client.reply();
        reply.arrayHeader(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            replyEntry(reply, ids.get(i), entries.get(i));
        }
    }

    static void replyEntry(Reply reply, StreamId id, byte[][] fieldsAndValues) {
        reply.arrayHeader(2);
        reply.bulk(id.toBytes());
        reply.arrayHeader(fieldsAndValues.length);
        for (byte[] element : fieldsAndValues) {
            reply.bulk(element);
        }
    }

    /** XDEL key id [id ...]: every id is checked before any goes. */
    static void xdel(Client client, byte[][] argv) {
        StreamValue stream = client.keyspace().stream(argv[1]);
        if (stream == null) {
            client.reply().integer(0);
            return;
        }
        StreamId[] ids = new StreamId[argv.length - 2];
        for (int j = 2; j < argv.length; j++) {
            ids[j - 2] = parseId(argv[j], 0, true, null);
        }
        int deleted = stream.delete(ids);
        if (deleted > 0) {
            client.events().notify(STREAM, "xdel", argv[1], client.db());
        }
        client.reply().integer(deleted);
    }

    /** XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id] */
    static void xsetid(Client client, byte[][] argv) {
        StreamId id = parseId(argv[2], 0, true, null);
        long entriesAdded = -1;
        StreamId maxDeletedId = StreamId.MIN;
        for (int i = 3; i < argv.length; i += 2) {
            boolean more = i + 1 < argv.length;
            if (Args.is(argv[i], "entriesadded") && more) {
                entriesAdded = Args.parseLong(argv[i + 1]);
                if (entriesAdded < 0) {
                    throw new CommandError("ERR entries_added must be positive");
                }
            } else if (Args.is(argv[i], "maxdeletedid") && more) {
                maxDeletedId = parseId(argv[i + 1], 0, true, null);
                if (id.compareTo(maxDeletedId) < 0) {
                    throw new CommandError(
                            "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
                }
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        StreamValue stream = client.keyspace().stream(argv[1]);
        if (stream == null) {
            throw new CommandError(Errors.NO_SUCH_KEY);
        }
        if (stream.length() > 0) {
            if (id.compareTo(stream.edge(false)) < 0) {
                throw new CommandError("ERR The ID specified in XSETID is smaller than the target stream top item");
            }
            if (entriesAdded != -1 && stream.length() > entriesAdded) {
                throw new CommandError(
                        "ERR The entries_added specified in XSETID is smaller than the target stream length");
            }
        }
        stream.setId(id, entriesAdded, maxDeletedId);
        client.events().notify(STREAM, "xsetid", argv[1], client.db());
        client.reply().ok();
    }

    /** XREAD's and XREADGROUP's options (Redis's xreadCommand parses both), up to STREAMS. */
    static final class ReadOptions {
        long timeout = -1;
        long count;
        /** Where the keys start, after STREAMS. */
        int streamsAt;
        byte[] group;
        byte[] consumer;
        boolean noAck;

        /** Parses {@code argv}; GROUP and NOACK only for XREADGROUP ({@code grouped}). */
        ReadOptions(Client client, byte[][] argv, boolean grouped) {
            for (int i = 1; i < argv.length; i++) {
                int more = argv.length - 1 - i;
                byte[] option = argv[i];
                if (Args.is(option, "block") && more > 0) {
                    if (client.isScriptCaller()) {
                        throw new CommandError("ERR " + Args.utf8(argv[0])
                                + " command is not allowed with BLOCK option from scripts");
                    }
                    timeout = Args.parseLong(argv[++i], "ERR timeout is not an integer or out of range");
                    if (timeout < 0) {
                        throw new CommandError("ERR timeout is negative");
                    }
                } else if (Args.is(option, "count") && more > 0) {
                    count = Math.max(0, Args.parseLong(argv[++i]));
                } else if (Args.is(option, "streams") && more > 0) {
                    streamsAt = i + 1;
                    if ((argv.length - streamsAt) % 2 != 0) {
                        throw new CommandError("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' "
                                + "must be specified.");
                    }
                    break;
                } else if (Args.is(option, "group") && more >= 2) {
                    if (!grouped) {
                        throw new CommandError(
                                "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
                    }
                    group = argv[++i];
                    consumer = argv[++i];
                } else if (Args.is(option, "noack")) {
                    if (!grouped) {
                        throw new CommandError(
                                "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
                    }
                    noAck = true;
                } else {
                    throw new CommandError(Errors.SYNTAX);
                }
            }
            if (streamsAt == 0) {
                throw new CommandError(Errors.SYNTAX);
            }
        }
    }

    /** XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...] */
    static void xread(Client client, byte[][] argv) {
        ReadOptions options = new ReadOptions(client, argv, false);
        long timeout = options.timeout;
        long count = options.count;
        int streamsAt = options.streamsAt;
        int streams = (argv.length - streamsAt) / 2;
        byte[][] keys = Arrays.copyOfRange(argv, streamsAt, streamsAt + streams);
        StreamId[] after = new StreamId[streams];
        Keyspace keyspace = client.keyspace();
        for (int i = 0; i < streams; i++) {
            byte[] idArg = argv[streamsAt + streams + i];
            StreamValue stream = keyspace.stream(keys[i]);
            if (idArg.length == 1 && idArg[0] == '$') {
                after[i] = stream == null ? StreamId.MIN : stream.lastId();
            } else if (idArg.length == 1 && idArg[0] == '>') {
                throw new CommandError("ERR The > ID can be specified only when calling XREADGROUP using the GROUP "
                        + "<group> <consumer> option.");
            } else {
                after[i] = parseId(idArg, 0, true, null);
            }
        }
        if (readNow(client, keys, after, count)) {
            return;
        }
        if (timeout == -1 || !client.mayBlock()) {
            client.reply().nullArray();
            return;
        }
        long deadline = timeout == 0 ? 0 : keyspace.now() + Math.min(timeout, Long.MAX_VALUE - keyspace.now());
        long servedCount = count == 0 ? BLOCKED_DEFAULT_COUNT : count;
        client.server().blockedClients().block(client, keys, ValueType.STREAM, deadline, (waiter, key) -> {
            StreamValue stream = waiter.keyspace().stream(key);
            int i = 0;
            while (!Arrays.equals(keys[i], key)) {
                i++;
            }
            // As Redis's serveClientsBlockedOnStreamKey: served once the last id passed the one read after.
            if (stream == null || stream.lastId().compareTo(after[i]) <= 0) {
                return false;
            }
            waiter.reply().namedHeader(1);
            replyStream(waiter, key, stream, after[i], servedCount);
            return true;
        });
    }

    /** Replies with the streams that have entries after their id, if any has; false if none has. */
    private static boolean readNow(Client client, byte[][] keys, StreamId[] after, long count) {
        List<Integer> ready = new ArrayList<>();
        List<StreamValue> values = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            StreamValue stream = client.keyspace().stream(keys[i]);
            if (stream != null && stream.length() > 0 && stream.edge(false).compareTo(after[i]) > 0) {
                ready.add(i);
                values.add(stream);
            }
        }
        if (ready.isEmpty()) {
            return false;
        }
        client.reply().namedHeader(ready.size());
        for (int r = 0; r < ready.size(); r++) {
            int i = ready.get(r);
            replyStream(client, keys[i], values.get(r), after[i], count == 0 ? Long.MAX_VALUE : count);
        }
        return true;
    }

    private static void replyStream(Client client, byte[] key, StreamValue stream, StreamId after, long count) {
        client.reply().namedStart();
        client.reply().bulk(key);
        StreamId start = after.next();
        if (start == null) {
            client.reply().arrayHeader(0);
        } else {
            replyEntries(client, stream, start, StreamId.MAX, false, count);
        }
    }

    static void xinfo(Client client, byte[][] argv) {
        XINFO.dispatch(client, argv);
    }

    /** XINFO STREAM key [FULL [COUNT count]] */
    private static void xinfoStream(Client client, byte[][] argv) {
        StreamValue stream = xinfoStreamOf(client, argv[2]);
        boolean full = false;
        long count = FULL_DEFAULT_COUNT;
        if (argv.length > 3) {
            if (argv.length > 6 || !Args.is(argv[3], "full") || argv.length > 4 && (argv.length != 6
                    || !Args.is(argv[4], "count"))) {
                throw new CommandError("ERR unknown subcommand or wrong number of arguments for '"
                        + Args.utf8(argv[1]) + "'. Try " + Args.utf8(argv[0]).toUpperCase(Locale.ROOT) + " HELP.");
            }
            if (argv.length == 6) {
                count = Args.parseLong(argv[5]);
                if (count < 0) {
                    count = FULL_DEFAULT_COUNT;
                }
            }
            full = true;
        }
        Reply reply = client.reply();
        reply.mapHeader(full ? 9 : 10);
        reply.bulk("length");
        reply.integer(stream.length());
        reply.bulk("radix-tree-keys");
        reply.integer(stream.nodeCount());
        reply.bulk("radix-tree-nodes");
        reply.integer(stream.radixTreeNodes());
        reply.bulk("last-generated-id");
        reply.bulk(stream.lastId().toBytes());
        reply.bulk("max-deleted-entry-id");
        reply.bulk(stream.maxDeletedId().toBytes());
        reply.bulk("entries-added");
        reply.integer(stream.entriesAdded());
        reply.bulk("recorded-first-entry-id");
        reply.bulk(stream.recordedFirstId().toBytes());
        if (full) {
            reply.bulk("entries");
            replyEntries(client, stream, StreamId.MIN, StreamId.MAX, false, count == 0 ? Long.MAX_VALUE : count);
            reply.bulk("groups");
            StreamGroupCommands.replyFullGroups(reply, stream, count == 0 ? Long.MAX_VALUE : count);
            return;
        }
        reply.bulk("groups");
        reply.integer(stream.groupCount());
        for (boolean first : new boolean[] {true, false}) {
            reply.bulk(first ? "first-entry" : "last-entry");
            StreamId edge = stream.edge(first);
            if (edge == null) {
                reply.nullBulk();
            } else {
                stream.range(edge, edge, false, (id, fieldsAndValues) -> {
                    replyEntry(reply, id, fieldsAndValues);
                    return false;
                });
            }
        }
    }

    /** XINFO's stream: every subcommand but HELP names one that must exist. */
    static StreamValue xinfoStreamOf(Client client, byte[] key) {
        StreamValue stream = client.keyspace().stream(key);
        if (stream == null) {
            throw new CommandError(Errors.NO_SUCH_KEY);
        }
        return stream;
    }

    /** A range's start as XRANGE reads it: {@code (} excludes it, an id without seq is its ms's first. */
    static StreamId intervalStart(byte[] arg) {
        StreamId start = intervalBound(arg, 0);
        if (isExclusive(arg)) {
            start = start.next();
            if (start == null) {
                throw new CommandError("ERR invalid start ID for the interval");
            }
        }
        return start;
    }

    /** A range's end as XRANGE reads it: {@code (} excludes it, an id without seq is its ms's last. */
    static StreamId intervalEnd(byte[] arg) {
        StreamId end = intervalBound(arg, -1);
        if (isExclusive(arg)) {
            end = end.previous();
            if (end == null) {
                throw new CommandError("ERR invalid end ID for the interval");
            }
        }
        return end;
    }

    /**
     * Redis's streamGenericParseIDOrReply: {@code ms-seq}, or {@code ms} with {@code missingSeq};
     * {@code -} and {@code +} the smallest and largest ids unless {@code strict}; with
     * {@code seqGiven}, {@code ms-*} too, which sets it false.
     */
    static StreamId parseId(byte[] arg, long missingSeq, boolean strict, boolean[] seqGiven) {
        if (arg.length > 127) {
            throw new CommandError(INVALID_ID);
        }
        if (arg.length == 1 && (arg[0] == '-' || arg[0] == '+')) {
            if (strict) {
                throw new CommandError(INVALID_ID);
            }
            return arg[0] == '-' ? StreamId.MIN : StreamId.MAX;
        }
        int dash = 0;
        while (dash < arg.length && arg[dash] != '-') {
            dash++;
        }
        Long ms = unsigned(Arrays.copyOfRange(arg, 0, dash));
        if (ms == null) {
            throw new CommandError(INVALID_ID);
        }
        if (dash == arg.length) {
            return new StreamId(ms, missingSeq);
        }
        if (seqGiven != null && arg.length == dash + 2 && arg[dash + 1] == '*') {
            seqGiven[0] = false;
            return new StreamId(ms, 0);
        }
        Long seq = unsigned(Arrays.copyOfRange(arg, dash + 1, arg.length));
        if (seq == null) {
            throw new CommandError(INVALID_ID);
        }
        return new StreamId(ms, seq);
    }

    /**
     * Redis's string2ull: a long as string2ll reads it if not negative, else what strtoull reads
     * (leading spaces, a sign, leading zeros, up to 2^64 - 1); null if neither reads it whole.
     */
    private static Long unsigned(byte[] s) {
        Long value = Args.toLong(s);
        if (value != null) {
            return value < 0 ? null : value;
        }
        int at = 0;
        while (at < s.length && (s[at] == ' ' || s[at] >= '\t' && s[at] <= '\r')) {
            at++;
        }
        boolean negative = false;
        if (at < s.length && (s[at] == '+' || s[at] == '-')) {
            negative = s[at] == '-';
            at++;
        }
        if (at == s.length) {
            return null;
        }
        long result = 0;
        for (; at < s.length; at++) {
            int digit = s[at] - '0';
            if (digit < 0 || digit > 9 || Long.compareUnsigned(result, Long.divideUnsigned(-1L - digit, 10)) > 0) {
                return null;
            }
            result = result * 10 + digit;
        }
        return negative ? -result : result;
    }
}
