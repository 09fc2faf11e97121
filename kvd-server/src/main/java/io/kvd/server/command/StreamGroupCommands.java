package io.kvd.server.command;

import io.kvd.server.client.BlockedClients;
import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StreamGroup;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.StreamValue;
import io.kvd.server.store.ValueType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.kvd.server.config.KeyspaceEventTypes.STREAM;

/**
 * Stream consumer groups (Redis 7.0's t_stream.c): XGROUP, XREADGROUP, XACK, XPENDING, XCLAIM,
 * XAUTOCLAIM and XINFO GROUPS and CONSUMERS. XREADGROUP is logged as Redis 7.0 propagates it: an
 * XCLAIM per entry it made pending (with the group's last id), after a NOACK read the group's new
 * last id as XGROUP SETID, never itself.
 */
final class StreamGroupCommands {
    private static final String KEY_REQUIRED = "ERR The XGROUP subcommand requires the key to exist. Note that for "
            + "CREATE you may want to use the MKSTREAM option to create an empty stream automatically.";
    private static final byte[] XCLAIM = Args.bytes("XCLAIM");
    private static final byte[] XGROUP = Args.bytes("XGROUP");
    private static final byte[] SETID = Args.bytes("SETID");
    private static final byte[] CREATECONSUMER = Args.bytes("CREATECONSUMER");
    private static final byte[] ENTRIESREAD = Args.bytes("ENTRIESREAD");
    private static final byte[] ZERO = Args.bytes("0");
    private static final byte[] TIME = Args.bytes("TIME");
    private static final byte[] RETRYCOUNT = Args.bytes("RETRYCOUNT");
    private static final byte[] FORCE = Args.bytes("FORCE");
    private static final byte[] JUSTID = Args.bytes("JUSTID");
    private static final byte[] LASTID = Args.bytes("LASTID");
    /** XAUTOCLAIM's COUNT bound: Redis's LONG_MAX / max(sizeof(streamID), attempts factor 10). */
    private static final long AUTOCLAIM_MAX_COUNT = Long.MAX_VALUE / 16;

    static final Subcommands XGROUP_SUBCOMMANDS = new Subcommands("xgroup")
            .add("create", -5, Set.of(Command.Flag.WRITE, Command.Flag.DENYOOM), StreamGroupCommands::xgroup,
                    "CREATE <key> <groupname> <id|$> [option]",
                    "    Create a new consumer group. Options are:",
                    "    * MKSTREAM",
                    "      Create the empty stream if it does not exist.",
                    "    * ENTRIESREAD entries_read",
                    "      Set the group's entries_read counter (internal use).")
            .add("createconsumer", 5, Set.of(Command.Flag.WRITE, Command.Flag.DENYOOM), StreamGroupCommands::xgroup,
                    "CREATECONSUMER <key> <groupname> <consumer>",
                    "    Create a new consumer in the specified group.")
            .add("delconsumer", 5, Set.of(Command.Flag.WRITE), StreamGroupCommands::xgroup,
                    "DELCONSUMER <key> <groupname> <consumer>",
                    "    Remove the specified consumer.")
            .add("destroy", 4, Set.of(Command.Flag.WRITE), StreamGroupCommands::xgroup,
                    "DESTROY <key> <groupname>",
                    "    Remove the specified group.")
            .add("setid", -5, Set.of(Command.Flag.WRITE), StreamGroupCommands::xgroup,
                    "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
                    "    Set the current group ID and entries_read counter.")
            .withHelp();

    private StreamGroupCommands() {
    }

    static void xgroupContainer(Client client, byte[][] argv) {
        XGROUP_SUBCOMMANDS.dispatch(client, argv);
    }

    private static CommandError subcommandSyntax(byte[][] argv) {
        return new CommandError("ERR unknown subcommand or wrong number of arguments for '" + Args.utf8(argv[1])
                + "'. Try XGROUP HELP.");
    }

    private static CommandError noGroup(byte[] key, byte[] group) {
        return new CommandError("NOGROUP No such consumer group '" + Args.utf8(group) + "' for key name '"
                + Args.utf8(key) + "'");
    }

    /** Redis's xgroupCommand: options first, then the key, then the group, then the subcommand's own checks. */
    private static void xgroup(Client client, byte[][] argv) {
        String subcommand = Args.utf8(argv[1]).toLowerCase(Locale.ROOT);
        boolean create = subcommand.equals("create");
        boolean makeStream = false;
        long entriesRead = StreamGroup.INVALID_ENTRIES_READ;
        if (create || subcommand.equals("setid")) {
            for (int i = 5; i < argv.length; ) {
                if (create && Args.is(argv[i], "mkstream")) {
                    makeStream = true;
                    i++;
                } else if (Args.is(argv[i], "entriesread") && i + 1 < argv.length) {
                    entriesRead = Args.parseLong(argv[i + 1]);
                    if (entriesRead < 0 && entriesRead != StreamGroup.INVALID_ENTRIES_READ) {
                        throw new CommandError("ERR value for ENTRIESREAD must be positive or -1");
                    }
                    i += 2;
                } else {
                    throw subcommandSyntax(argv);
                }
            }
        }
        Keyspace keyspace = client.keyspace();
        byte[] key = argv[2];
        byte[] groupName = argv[3];
        StreamValue stream = makeStream ? keyspace.streamForWrite(key) : keyspace.stream(key);
        if (stream == null) {
            throw new CommandError(KEY_REQUIRED);
        }
        StreamGroup group = stream.group(groupName);
        if (group == null && !create && !subcommand.equals("destroy")) {
            throw noGroup(key, groupName);
        }
        switch (subcommand) {
            case "create" -> {
                if (argv.length > 8) {
                    throw subcommandSyntax(argv);
                }
                StreamId id = isDollar(argv[4]) ? stream.lastId() : StreamCommands.parseId(argv[4], 0, true, null);
                if (!stream.createGroup(groupName, id, entriesRead)) {
                    throw new CommandError("BUSYGROUP Consumer Group name already exists");
                }
                client.reply().ok();
                client.events().notify(STREAM, "xgroup-create", key, client.db());
                client.logAlso(argv);
            }
            case "setid" -> {
                if (argv.length != 5 && argv.length != 7) {
                    throw subcommandSyntax(argv);
                }
                StreamId id = isDollar(argv[4]) ? stream.lastId() : StreamCommands.parseId(argv[4], 0, false, null);
                stream.setGroupId(group, id, entriesRead);
                client.reply().ok();
                client.events().notify(STREAM, "xgroup-setid", key, client.db());
                client.logAlso(argv);
            }
            case "destroy" -> {
                if (stream.destroyGroup(groupName)) {
                    client.reply().integer(1);
                    client.events().notify(STREAM, "xgroup-destroy", key, client.db());
                    client.logAlso(argv);
                } else {
                    client.reply().integer(0);
                }
            }
            case "createconsumer" -> {
                boolean created = stream.createConsumer(group, argv[4]) != null;
                client.reply().integer(created ? 1 : 0);
                if (created) {
                    client.events().notify(STREAM, "xgroup-createconsumer", key, client.db());
                    client.logAlso(argv);
                }
            }
            default -> {
                long pending = stream.deleteConsumer(group, argv[4]);
                client.reply().integer(Math.max(pending, 0));
                if (pending >= 0) {
                    client.events().notify(STREAM, "xgroup-delconsumer", key, client.db());
                    client.logAlso(argv);
                }
            }
        }
    }

    private static boolean isDollar(byte[] arg) {
        return arg.length == 1 && arg[0] == '$';
    }

    private static boolean isGreater(byte[] arg) {
        return arg.length == 1 && arg[0] == '>';
    }

    /** XREADGROUP GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id [id ...] */
    static void xreadgroup(Client client, byte[][] argv) {
        StreamCommands.ReadOptions options = new StreamCommands.ReadOptions(client, argv, true);
        long timeout = options.timeout;
        long count = options.count;
        int streamsAt = options.streamsAt;
        byte[] groupName = options.group;
        byte[] consumerName = options.consumer;
        boolean noAck = options.noAck;
        if (groupName == null) {
            throw new CommandError("ERR Missing GROUP option for XREADGROUP");
        }
        int streams = (argv.length - streamsAt) / 2;
        byte[][] keys = Arrays.copyOfRange(argv, streamsAt, streamsAt + streams);
        // Null for '>': new entries; otherwise the consumer's pending entries after it.
        StreamId[] after = new StreamId[streams];
        Keyspace keyspace = client.keyspace();
        for (int i = 0; i < streams; i++) {
            byte[] idArg = argv[streamsAt + streams + i];
            StreamValue stream = keyspace.stream(keys[i]);
            if (stream == null || stream.group(groupName) == null) {
                throw new CommandError("NOGROUP No such key '" + Args.utf8(keys[i]) + "' or consumer group '"
                        + Args.utf8(groupName) + "' in XREADGROUP with GROUP option");
            }
            if (isDollar(idArg)) {
                throw new CommandError("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read "
                        + "the history of this consumer by specifying a proper ID, or use the > ID to get new "
                        + "messages. The $ ID would just return an empty result set.");
            } else if (!isGreater(idArg)) {
                StreamId id = StreamCommands.parseId(idArg, 0, true, null);
                // Redis marks '>' with the largest id: given, it reads as '>'.
                after[i] = id.equals(StreamId.MAX) ? null : id;
            }
        }
        client.neverLogItself();
        List<byte[]> servedKeys = new ArrayList<>();
        List<List<StreamValue.Delivered>> served = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            StreamValue stream = keyspace.stream(keys[i]);
            StreamGroup group = stream.group(groupName);
            boolean history = after[i] != null;
            StreamId last = stream.edge(false);
            if (!history && (last == null || last.compareTo(group.lastId()) <= 0)) {
                continue;
            }
            StreamGroup.Consumer consumer = consumer(client, stream, group, keys[i], groupName, consumerName, noAck);
            long limit = count == 0 ? Long.MAX_VALUE : count;
            servedKeys.add(keys[i]);
            if (history) {
                served.add(stream.deliverPending(consumer, after[i].next(), limit));
            } else {
                served.add(deliverNew(client, stream, group, consumer, keys[i], groupName, limit, noAck));
            }
        }
        Reply reply = client.reply();
        if (!served.isEmpty()) {
            reply.namedHeader(served.size());
            for (int s = 0; s < served.size(); s++) {
                reply.namedStart();
                reply.bulk(servedKeys.get(s));
                replyDelivered(reply, served.get(s));
            }
            return;
        }
        if (timeout == -1 || !client.mayBlock()) {
            reply.nullArray();
            return;
        }
        long deadline = timeout == 0 ? 0 : keyspace.now() + Math.min(timeout, Long.MAX_VALUE - keyspace.now());
        long servedCount = count == 0 ? StreamCommands.BLOCKED_DEFAULT_COUNT : count;
        byte[] blockedGroup = groupName.clone();
        byte[] blockedConsumer = consumerName.clone();
        boolean blockedNoAck = noAck;
        client.server().blockedClients().block(client, keys, ValueType.STREAM, deadline,
                new BlockedClients.Servant() {
                    @Override
                    public boolean serve(Client waiter, byte[] key) {
                        return serveBlocked(waiter, key, blockedGroup, blockedConsumer, blockedNoAck, servedCount);
                    }

                    @Override
                    public boolean keyGone(Client waiter, byte[] key) {
                        waiter.reply().error("UNBLOCKED the stream key no longer exists");
                        return true;
                    }
                });
    }

    /** Redis's serveClientsBlockedOnStreamKey for a group: entries past the group's last id, or NOGROUP. */
    private static boolean serveBlocked(Client waiter, byte[] key, byte[] groupName, byte[] consumerName,
                                        boolean noAck, long count) {
        StreamValue stream = waiter.keyspace().stream(key);
        StreamGroup group = stream.group(groupName);
        if (group == null) {
            waiter.reply().error("NOGROUP the consumer group this client was blocked on no longer exists");
            return true;
        }
        if (stream.lastId().compareTo(group.lastId()) <= 0) {
            return false;
        }
        waiter.neverLogItself();
        StreamGroup.Consumer consumer = consumer(waiter, stream, group, key, groupName, consumerName, noAck);
        waiter.reply().namedHeader(1);
        waiter.reply().namedStart();
        waiter.reply().bulk(key);
        replyDelivered(waiter.reply(), deliverNew(waiter, stream, group, consumer, key, groupName, count, noAck));
        return true;
    }

    /**
     * The consumer, seen now, or created: with NOACK no XCLAIM will create it where the log is
     * replayed, so its creation is logged (Redis's streamPropagateConsumerCreation).
     */
    private static StreamGroup.Consumer consumer(Client client, StreamValue stream, StreamGroup group, byte[] key,
                                                 byte[] groupName, byte[] consumerName, boolean noAck) {
        StreamGroup.Consumer consumer = stream.seeConsumer(group, consumerName);
        if (consumer == null) {
            consumer = stream.createConsumer(group, consumerName);
            client.events().notify(STREAM, "xgroup-createconsumer", key, client.db());
            if (noAck) {
                client.logAlso(XGROUP, CREATECONSUMER, key, groupName, consumerName);
            }
        }
        return consumer;
    }

    /** Delivers new entries and logs an XCLAIM for each made pending, then the group's id; returns them. */
    private static List<StreamValue.Delivered> deliverNew(Client client, StreamValue stream, StreamGroup group,
                                   StreamGroup.Consumer consumer, byte[] key, byte[] groupName, long count,
                                   boolean noAck) {
        List<StreamValue.Delivered> delivered = stream.deliverNew(group, consumer, count, noAck);
        // Built only for a log that keeps them: with neither the AOF nor replicas they would be dropped.
        boolean logging = client.server().commandLog().isRecording();
        for (StreamValue.Delivered entry : delivered) {
            if (entry.pending() != null) {
                if (logging) {
                    client.logAlso(claimRecord(key, groupName, entry.id(), entry.pending(), entry.groupLastId()));
                } else {
                    client.neverLogItself();
                }
            }
        }
        // Redis 7.0 logs the group's id only after a NOACK read; the XCLAIMs' LASTID carries it otherwise.
        if (noAck && !delivered.isEmpty()) {
            client.logAlso(XGROUP, SETID, key, groupName, group.lastId().toBytes(), ENTRIESREAD,
                    Args.bytes(Long.toString(group.entriesRead())));
        }
        return delivered;
    }

    /** Redis's streamPropagateXCLAIM: an XCLAIM that sets the pending entry as it is, whatever was there. */
    static byte[][] claimRecord(byte[] key, byte[] groupName, StreamId id, StreamGroup.Pending pending,
                                StreamId lastId) {
        return new byte[][] {XCLAIM, key, groupName, pending.consumer().name(), ZERO, id.toBytes(), TIME,
                Args.bytes(Long.toString(pending.deliveryTime())), RETRYCOUNT,
                Args.bytes(Long.toString(pending.deliveryCount())), FORCE, JUSTID, LASTID, lastId.toBytes()};
    }

    /** Entries as XRANGE replies them; a deleted one (history only) as its id and a null array. */
    private static void replyDelivered(Reply reply, List<StreamValue.Delivered> delivered) {
        reply.arrayHeader(delivered.size());
        for (StreamValue.Delivered entry : delivered) {
            if (entry.fieldsAndValues() == null) {
                reply.arrayHeader(2);
                reply.bulk(entry.id().toBytes());
                reply.nullArray();
            } else {
                StreamCommands.replyEntry(reply, entry.id(), entry.fieldsAndValues());
            }
        }
    }

    /** XACK key group id [id ...]: every id is checked before any is acknowledged. */
    static void xack(Client client, byte[][] argv) {
        StreamValue stream = client.keyspace().stream(argv[1]);
        StreamGroup group = stream == null ? null : stream.group(argv[2]);
        if (group == null) {
            client.reply().integer(0);
            return;
        }
        StreamId[] ids = new StreamId[argv.length - 3];
        for (int j = 3; j < argv.length; j++) {
            ids[j - 3] = StreamCommands.parseId(argv[j], 0, true, null);
        }
        client.reply().integer(stream.acknowledge(group, ids));
    }

    /** XPENDING key group [[IDLE min-idle-time] start end count [consumer]] */
    static void xpending(Client client, byte[][] argv) {
        boolean summary = argv.length == 3;
        if (!summary && (argv.length < 6 || argv.length > 9)) {
            throw new CommandError(Errors.SYNTAX);
        }
        long minIdle = 0;
        long count = 0;
        StreamId start = null;
        StreamId end = null;
        byte[] consumerName = null;
        if (!summary) {
            int startAt = 3;
            if (Args.is(argv[3], "idle")) {
                minIdle = Args.parseLong(argv[4]);
                if (argv.length < 8) {
                    throw new CommandError(Errors.SYNTAX);
                }
                startAt += 2;
            }
            count = Math.max(0, Args.parseLong(argv[startAt + 2]));
            start = StreamCommands.intervalStart(argv[startAt]);
            end = StreamCommands.intervalEnd(argv[startAt + 1]);
            if (startAt + 3 < argv.length) {
                consumerName = argv[startAt + 3];
            }
        }
        StreamValue stream = client.keyspace().stream(argv[1]);
        StreamGroup group = existingGroup(stream, argv);
        Reply reply = client.reply();
        Map<StreamId, StreamGroup.Pending> pending = group.pending();
        if (summary) {
            reply.arrayHeader(4);
            reply.integer(pending.size());
            if (pending.isEmpty()) {
                reply.nullBulk();
                reply.nullBulk();
                reply.nullArray();
                return;
            }
            reply.bulk(group.pending().firstKey().toBytes());
            reply.bulk(group.pending().lastKey().toBytes());
            int consumers = 0;
            for (StreamGroup.Consumer consumer : group.consumers()) {
                consumers += consumer.pending().isEmpty() ? 0 : 1;
            }
            reply.arrayHeader(consumers);
            for (StreamGroup.Consumer consumer : group.consumers()) {
                if (!consumer.pending().isEmpty()) {
                    reply.arrayHeader(2);
                    reply.bulk(consumer.name());
                    reply.bulk(Long.toString(consumer.pending().size()));
                }
            }
            return;
        }
        var entries = group.pending();
        if (consumerName != null) {
            StreamGroup.Consumer consumer = group.consumer(consumerName);
            if (consumer == null) {
                reply.arrayHeader(0);
                return;
            }
            entries = consumer.pending();
        }
        long now = client.keyspace().now();
        List<Map.Entry<StreamId, StreamGroup.Pending>> listed = new ArrayList<>();
        if (start.compareTo(end) <= 0) {
            for (var entry : entries.subMap(start, true, end, true).entrySet()) {
                if (listed.size() >= count) {
                    break;
                }
                if (minIdle == 0 || now - entry.getValue().deliveryTime() >= minIdle) {
                    listed.add(entry);
                }
            }
        }
        reply.arrayHeader(listed.size());
        for (var entry : listed) {
            reply.arrayHeader(4);
            reply.bulk(entry.getKey().toBytes());
            reply.bulk(entry.getValue().consumer().name());
            reply.integer(Math.max(0, now - entry.getValue().deliveryTime()));
            reply.integer(entry.getValue().deliveryCount());
        }
    }

    private static CommandError noKeyOrGroup(byte[] key, byte[] group) {
        return new CommandError("NOGROUP No such key '" + Args.utf8(key) + "' or consumer group '"
                + Args.utf8(group) + "'");
    }

    /** The group {@code argv[2]} of the stream {@code argv[1]}, which must both exist. */
    private static StreamGroup existingGroup(StreamValue stream, byte[][] argv) {
        StreamGroup group = stream == null ? null : stream.group(argv[2]);
        if (group == null) {
            throw noKeyOrGroup(argv[1], argv[2]);
        }
        return group;
    }

    /** The consumer {@code name}, seen now, or created as Redis's streamCreateConsumer. */
    private static StreamGroup.Consumer claimer(Client client, StreamValue stream, StreamGroup group, byte[] key,
                                                byte[] name) {
        StreamGroup.Consumer consumer = stream.seeConsumer(group, name);
        if (consumer == null) {
            consumer = stream.createConsumer(group, name);
            client.events().notify(STREAM, "xgroup-createconsumer", key, client.db());
        }
        return consumer;
    }

    /** A claimed entry's reply: its id alone (JUSTID) or the entry. */
    private static void replyClaimed(Reply reply, StreamValue stream, StreamId id, boolean justId) {
        if (justId) {
            reply.bulk(id.toBytes());
            return;
        }
        StreamCommands.replyEntry(reply, id, stream.entryFields(id));
    }

    /**
     * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-time-milliseconds]
     * [RETRYCOUNT count] [FORCE] [JUSTID] [LASTID lastid]: the ids are those that parse, the
     * options what follows them. Logged as an XCLAIM per entry claimed or dropped, as Redis's.
     */
    static void xclaim(Client client, byte[][] argv) {
        StreamValue stream = client.keyspace().stream(argv[1]);
        StreamGroup group = existingGroup(stream, argv);
        long minIdle = Math.max(0, Args.parseLong(argv[4], "ERR Invalid min-idle-time argument for XCLAIM"));
        int idsEnd = 5;
        while (idsEnd < argv.length && isStrictId(argv[idsEnd])) {
            idsEnd++;
        }
        long now = client.keyspace().now();
        long deliveryTime = -1;
        long retryCount = -1;
        boolean force = false;
        boolean justId = false;
        StreamId lastId = StreamId.MIN;
        for (int j = idsEnd; j < argv.length; j++) {
            boolean more = j + 1 < argv.length;
            if (Args.is(argv[j], "force")) {
                force = true;
            } else if (Args.is(argv[j], "justid")) {
                justId = true;
            } else if (Args.is(argv[j], "idle") && more) {
                deliveryTime = now - Args.parseLong(argv[++j], "ERR Invalid IDLE option argument for XCLAIM");
            } else if (Args.is(argv[j], "time") && more) {
                deliveryTime = Args.parseLong(argv[++j], "ERR Invalid TIME option argument for XCLAIM");
            } else if (Args.is(argv[j], "retrycount") && more) {
                retryCount = Args.parseLong(argv[++j], "ERR Invalid RETRYCOUNT option argument for XCLAIM");
            } else if (Args.is(argv[j], "lastid") && more) {
                lastId = StreamCommands.parseId(argv[++j], 0, true, null);
            } else {
                throw new CommandError("ERR Unrecognized XCLAIM option '" + Args.utf8(argv[j]) + "'");
            }
        }
        client.neverLogItself();
        boolean logGroupId = stream.raiseGroupId(group, lastId);
        // A time not given, before 1970 or ahead of the clock is now: clients may compute it on their own clock.
        if (deliveryTime < 0 || deliveryTime > now) {
            deliveryTime = now;
        }
        StreamGroup.Consumer consumer = null;
        List<StreamId> claimed = new ArrayList<>();
        for (int j = 5; j < idsEnd; j++) {
            StreamId id = StreamCommands.parseId(argv[j], 0, true, null);
            StreamGroup.Pending pending = group.pending().get(id);
            if (!stream.contains(id)) {
                if (pending != null) {
                    client.logAlso(claimRecord(argv[1], argv[2], id, pending, group.lastId()));
                    logGroupId = false;
                    stream.dropPending(group, id);
                }
                continue;
            }
            if (pending == null && !force) {
                continue;
            }
            if (pending != null && minIdle != 0 && now - pending.deliveryTime() < minIdle) {
                continue;
            }
            if (consumer == null) {
                consumer = claimer(client, stream, group, argv[1], argv[3]);
            }
            pending = stream.claim(group, id, consumer, deliveryTime, retryCount, justId);
            claimed.add(id);
            client.logAlso(claimRecord(argv[1], argv[2], id, pending, group.lastId()));
            logGroupId = false;
        }
        if (logGroupId) {
            client.logAlso(XGROUP, SETID, argv[1], argv[2], group.lastId().toBytes(), ENTRIESREAD,
                    Args.bytes(Long.toString(group.entriesRead())));
        }
        Reply reply = client.reply();
        reply.arrayHeader(claimed.size());
        for (StreamId id : claimed) {
            replyClaimed(reply, stream, id, justId);
        }
    }

    private static boolean isStrictId(byte[] arg) {
        try {
            StreamCommands.parseId(arg, 0, true, null);
            return true;
        } catch (CommandError e) {
            return false;
        }
    }

    /**
     * XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]: claims up to
     * COUNT (100) entries idle long enough from {@code start}, looking at no more than ten times
     * that; replies with the next start (0-0 at the end), the claimed and the deleted ids dropped.
     */
    static void xautoclaim(Client client, byte[][] argv) {
        long minIdle = Math.max(0, Args.parseLong(argv[4], "ERR Invalid min-idle-time argument for XAUTOCLAIM"));
        StreamId start = StreamCommands.intervalStart(argv[5]);
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < argv.length; j++) {
            if (Args.is(argv[j], "count") && j + 1 < argv.length) {
                Long given = Args.toLong(argv[++j]);
                if (given == null || given < 1 || given > AUTOCLAIM_MAX_COUNT) {
                    throw new CommandError("ERR COUNT must be > 0");
                }
                count = given;
            } else if (Args.is(argv[j], "justid")) {
                justId = true;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        StreamValue stream = client.keyspace().stream(argv[1]);
        StreamGroup group = existingGroup(stream, argv);
        client.neverLogItself();
        long now = client.keyspace().now();
        long attempts = count * 10;
        StreamGroup.Consumer consumer = null;
        List<StreamId> claimed = new ArrayList<>();
        List<StreamId> deleted = new ArrayList<>();
        StreamId next = group.pending().ceilingKey(start);
        while (attempts-- > 0 && count > 0 && next != null) {
            StreamId id = next;
            next = group.pending().higherKey(id);
            StreamGroup.Pending pending = group.pending().get(id);
            if (!stream.contains(id)) {
                client.logAlso(claimRecord(argv[1], argv[2], id, pending, group.lastId()));
                stream.dropPending(group, id);
                deleted.add(id);
                count--;
                continue;
            }
            if (minIdle != 0 && now - pending.deliveryTime() < minIdle) {
                continue;
            }
            if (consumer == null) {
                consumer = claimer(client, stream, group, argv[1], argv[3]);
            }
            pending = stream.claim(group, id, consumer, now, -1, justId);
            claimed.add(id);
            count--;
            client.logAlso(claimRecord(argv[1], argv[2], id, pending, group.lastId()));
        }
        Reply reply = client.reply();
        reply.arrayHeader(3);
        reply.bulk((next == null ? StreamId.MIN : next).toBytes());
        reply.arrayHeader(claimed.size());
        for (StreamId id : claimed) {
            replyClaimed(reply, stream, id, justId);
        }
        reply.arrayHeader(deleted.size());
        for (StreamId id : deleted) {
            reply.bulk(id.toBytes());
        }
    }

    /** XINFO GROUPS key */
    static void xinfoGroups(Client client, byte[][] argv) {
        StreamValue stream = StreamCommands.xinfoStreamOf(client, argv[2]);
        Reply reply = client.reply();
        reply.arrayHeader(stream.groupCount());
        for (StreamGroup group : stream.groups()) {
            reply.mapHeader(6);
            reply.bulk("name");
            reply.bulk(group.name());
            reply.bulk("consumers");
            reply.integer(group.consumers().size());
            reply.bulk("pending");
            reply.integer(group.pending().size());
            reply.bulk("last-delivered-id");
            reply.bulk(group.lastId().toBytes());
            replyEntriesReadAndLag(reply, stream, group);
        }
    }

    private static void replyEntriesReadAndLag(Reply reply, StreamValue stream, StreamGroup group) {
        reply.bulk("entries-read");
        if (group.entriesRead() == StreamGroup.INVALID_ENTRIES_READ) {
            reply.nullBulk();
        } else {
            reply.integer(group.entriesRead());
        }
        reply.bulk("lag");
        Long lag = stream.lag(group);
        if (lag == null) {
            reply.nullBulk();
        } else {
            reply.integer(lag);
        }
    }

    /** XINFO CONSUMERS key group */
    static void xinfoConsumers(Client client, byte[][] argv) {
        StreamValue stream = StreamCommands.xinfoStreamOf(client, argv[2]);
        StreamGroup group = stream.group(argv[3]);
        if (group == null) {
            throw noGroup(argv[2], argv[3]);
        }
        long now = client.keyspace().now();
        Reply reply = client.reply();
        reply.arrayHeader(group.consumers().size());
        for (StreamGroup.Consumer consumer : group.consumers()) {
            reply.mapHeader(3);
            reply.bulk("name");
            reply.bulk(consumer.name());
            reply.bulk("pending");
            reply.integer(consumer.pending().size());
            reply.bulk("idle");
            reply.integer(Math.max(0, now - consumer.seenTime()));
        }
    }

    /** XINFO STREAM FULL's groups: each with up to {@code count} pending entries per group and per consumer. */
    static void replyFullGroups(Reply reply, StreamValue stream, long count) {
        reply.arrayHeader(stream.groupCount());
        for (StreamGroup group : stream.groups()) {
            reply.mapHeader(7);
            reply.bulk("name");
            reply.bulk(group.name());
            reply.bulk("last-delivered-id");
            reply.bulk(group.lastId().toBytes());
            replyEntriesReadAndLag(reply, stream, group);
            reply.bulk("pel-count");
            reply.integer(group.pending().size());
            reply.bulk("pending");
            int pendingReplied = (int) Math.min(count, group.pending().size());
            reply.arrayHeader(pendingReplied);
            for (var entry : group.pending().entrySet()) {
                if (pendingReplied-- == 0) {
                    break;
                }
                reply.arrayHeader(4);
                reply.bulk(entry.getKey().toBytes());
                reply.bulk(entry.getValue().consumer().name());
                reply.integer(entry.getValue().deliveryTime());
                reply.integer(entry.getValue().deliveryCount());
            }
            reply.bulk("consumers");
            reply.arrayHeader(group.consumers().size());
            for (StreamGroup.Consumer consumer : group.consumers()) {
                reply.mapHeader(4);
                reply.bulk("name");
                reply.bulk(consumer.name());
                reply.bulk("seen-time");
                reply.integer(consumer.seenTime());
                reply.bulk("pel-count");
                reply.integer(consumer.pending().size());
                reply.bulk("pending");
                int consumerReplied = (int) Math.min(count, consumer.pending().size());
                reply.arrayHeader(consumerReplied);
                for (var entry : consumer.pending().entrySet()) {
                    if (consumerReplied-- == 0) {
                        break;
                    }
                    reply.arrayHeader(3);
                    reply.bulk(entry.getKey().toBytes());
                    reply.integer(entry.getValue().deliveryTime());
                    reply.integer(entry.getValue().deliveryCount());
                }
            }
        }
    }
}
