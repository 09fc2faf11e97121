package io.kvd.server.tracking;

import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.LongFunction;

/**
 * Client-side caching, Redis 7.0's tracking.c: the table of keys clients read (each with the ids
 * of the clients that may cache it), the prefixes of the clients in BCAST mode, and the
 * invalidation messages a change of a key sends them: a push in RESP3, a message on
 * {@code __redis__:invalidate} to a RESP2 client subscribed to it that another client redirects
 * to. Keys are names, whatever the database, as in Redis.
 *
 * <p>The dispatcher tells it which client runs a command ({@link #current}) and when a command
 * runs ({@link #executing}), so that an invalidation for the client running the command waits for
 * the command's reply (Redis's tracking_pending_keys); the keyspace's change hook tells it of each
 * changed key. Event loop only.
 */
public final class Tracking {
    /** A client as tracking sees it; a client implements it, tracking names nothing more of it. */
    public interface Client {
        long id();

        /** 2 or 3 (HELLO). */
        int protocol();

        /** Subscribed to anything (Redis's CLIENT_PUBSUB). */
        boolean isSubscribed();

        /**
         * Copies a message encoded as a RESP2 array into its output, as a push for RESP3, sent even
         * under CLIENT REPLY OFF (Redis's CLIENT_PUSHING).
         */
        void deliverPush(ByteBuf frame);

        /** Its tracking mode, null while tracking is off. */
        Mode trackingMode();

        void trackingMode(Mode mode);
    }

    /** CLIENT TRACKING ON's options, as given. */
    public record Options(long redirect, boolean bcast, boolean optin, boolean optout, boolean noloop,
                          List<byte[]> prefixes) {
    }

    /** A tracking client's state: its options, CLIENT CACHING's flag and whether its redirection broke. */
    public static final class Mode {
        private final long redirect;
        private final boolean bcast;
        private final boolean optin;
        private final boolean optout;
        private final boolean noloop;
        /** BCAST's prefixes in Redis's rax order; null when not in BCAST mode. */
        private final NavigableSet<byte[]> prefixes;
        private boolean caching;
        private boolean brokenRedirect;

        private Mode(Options options, NavigableSet<byte[]> prefixes, boolean caching) {
            this.redirect = options.redirect;
            this.bcast = options.bcast;
            this.optin = options.optin;
            this.optout = options.optout;
            this.noloop = options.noloop;
            this.prefixes = prefixes;
            this.caching = caching;
        }

        public long redirect() {
            return redirect;
        }

        public boolean bcast() {
            return bcast;
        }

        public boolean optin() {
            return optin;
        }

        public boolean optout() {
            return optout;
        }

        public boolean noloop() {
            return noloop;
        }

        /** CLIENT CACHING YES (OPTIN) or NO (OPTOUT) was given for the next command. */
        public boolean caching() {
            return caching;
        }

        public void caching(boolean caching) {
            this.caching = caching;
        }

        public boolean brokenRedirect() {
            return brokenRedirect;
        }

        /** BCAST's prefixes in Redis's order, empty when not in BCAST mode. */
        public Set<byte[]> prefixes() {
            return prefixes == null ? Set.of() : prefixes;
        }
    }

    /** A BCAST prefix: the keys under it changed this iteration (each with its last writer) and its clients. */
    private static final class Prefix {
        /** Key to the client that changed it last, or {@link #SERVER} (expiry, eviction). */
        TreeMap<byte[], Object> keys = new TreeMap<>(Arrays::compareUnsigned);
        final Set<Client> clients = new LinkedHashSet<>();
    }

    private static final Object SERVER = new Object();
    private static final byte[] INVALIDATE = "invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE = "message".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REDIR_BROKEN = "tracking-redir-broken".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP2 = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Keys evicted from the table per over-limit call, times the calls that stayed over it (Redis's effort). */
    private static final int EFFORT = 100;

    private final LongFunction<Client> clients;
    private final Runnable activated;
    private final TrackingTable table = new TrackingTable();
    private long totalItems;
    private final TreeMap<byte[], Prefix> prefixes = new TreeMap<>(Arrays::compareUnsigned);
    private final Set<Client> trackingClients = new LinkedHashSet<>();
    /** Set on the first CLIENT TRACKING ON (Redis's TrackingTable allocated): keys are heard from then on. */
    private boolean active;
    /** Redis's server.current_client: the client whose command runs, or null. */
    private Client current;
    /** Commands running, nested ones included (Redis's fixed_time_expire while in call()). */
    private int executing;
    /**
     * The client running the innermost command, whose changes BCAST's NOLOOP leaves out: a
     * script's own client for its commands, so a NOLOOP client hears of its scripts' writes, as in
     * Redis; null outside commands.
     */
    private Client writer;
    /** Invalidations for the current client, sent after its command's reply; a null element is a flush's. */
    private final List<byte[]> pending = new ArrayList<>();
    /** The keys the running script's caller declared (Redis's script_caller's arguments), or null. */
    private byte[][] scriptArgv;
    private int[] scriptKeys;
    private long maxKeys = 1_000_000;
    /** Calls of {@link #limitUsedSlots} in a row that ended still over the limit. */
    private int overLimitCalls;
    private Executor loop = Runnable::run;
    private boolean broadcastScheduled;
    /** The invalidation being sent, and BCAST's message for a NOLOOP client beside its prefix's. */
    private final Message message = new Message();
    private final Message noloopMessage = new Message();

    /**
     * @param clients finds a connected client by id, null if none
     * @param activated called once, when the first client enables tracking
     */
    public Tracking(LongFunction<Client> clients, Runnable activated) {
        this.clients = clients;
        this.activated = activated;
    }

    /** The event loop, where BCAST's invalidations are sent once the iteration's commands ran. */
    public void useLoop(Executor loop) {
        this.loop = loop;
    }

    /** tracking-table-max-keys: 0 for no limit. */
    public void maxKeys(long maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** Whether keys changes must be told ({@link #keyModified}): true once tracking was ever enabled. */
    public boolean isActive() {
        return active;
    }

    /** INFO's tracking_clients. */
    public int clientCount() {
        return trackingClients.size();
    }

    /** INFO's tracking_total_keys. */
    public long totalKeys() {
        return table.size();
    }

    /** INFO's tracking_total_items: client ids across the table. */
    public long totalItems() {
        return totalItems;
    }

    /** INFO's tracking_total_prefixes. */
    public long totalPrefixes() {
        return prefixes.size();
    }

    /**
     * Redis's checkPrefixCollisionsOrReply for {@code given} against each other and the client's
     * prefixes: the error for the first overlap, null if none. As Redis 7.0, an overlap between
     * two given prefixes other than the first is answered and tracking is enabled all the same
     * ({@link Collision#enables}).
     */
    public Collision prefixCollision(Client client, List<byte[]> given) {
        Mode mode = client.trackingMode();
        for (int i = 0; i < given.size(); i++) {
            byte[] prefix = given.get(i);
            if (mode != null && mode.prefixes != null) {
                for (byte[] existing : mode.prefixes) {
                    if (overlap(existing, prefix)) {
                        return new Collision("ERR Prefix '" + text(prefix) + "' overlaps with an existing prefix '"
                                + text(existing) + "'. Prefixes for a single client must not overlap.", false);
                    }
                }
            }
            for (int j = i + 1; j < given.size(); j++) {
                if (overlap(prefix, given.get(j))) {
                    return new Collision("ERR Prefix '" + text(prefix) + "' overlaps with another provided prefix '"
                            + text(given.get(j)) + "'. Prefixes for a single client must not overlap.", i > 0);
                }
            }
        }
        return null;
    }

    /** A prefix collision's error, and whether Redis goes on to enable tracking after answering it. */
    public record Collision(String error, boolean enables) {
    }

    private static boolean overlap(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        return Arrays.equals(a, 0, n, b, 0, n);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Redis's enableTracking: CLIENT TRACKING ON, options checked. Enabling again keeps CLIENT
     * CACHING's flag and adds BCAST prefixes to those the client has.
     */
    public void enable(Client client, Options options) {
        Mode old = client.trackingMode();
        NavigableSet<byte[]> clientPrefixes = null;
        if (options.bcast) {
            clientPrefixes = old != null && old.prefixes != null ? old.prefixes : new TreeSet<>(Arrays::compareUnsigned);
            if (options.prefixes.isEmpty()) {
                subscribe(client, clientPrefixes, new byte[0]);
            }
            for (byte[] prefix : options.prefixes) {
                subscribe(client, clientPrefixes, prefix);
            }
        }
        client.trackingMode(new Mode(options, clientPrefixes, old != null && old.caching));
        trackingClients.add(client);
        if (!active) {
            active = true;
            activated.run();
        }
    }

    private void subscribe(Client client, NavigableSet<byte[]> clientPrefixes, byte[] prefix) {
        if (prefixes.computeIfAbsent(prefix, p -> new Prefix()).clients.add(client)) {
            clientPrefixes.add(prefix);
        }
    }

    /**
     * Redis's disableTracking: CLIENT TRACKING OFF, RESET, a closed connection. The client's ids
     * stay in the table until their keys change (Redis removes them lazily too).
     */
    public void disable(Client client) {
        Mode mode = client.trackingMode();
        if (mode == null) {
            return;
        }
        if (mode.prefixes != null) {
            for (byte[] prefix : mode.prefixes) {
                Prefix state = prefixes.get(prefix);
                state.clients.remove(client);
                if (state.clients.isEmpty()) {
                    prefixes.remove(prefix);
                }
            }
        }
        client.trackingMode(null);
        trackingClients.remove(client);
    }

    /** Redis's processCommandAndResetClient: {@code client} runs a command; returns the one that did before. */
    public Client current(Client client) {
        Client previous = current;
        current = client;
        return previous;
    }

    /** The client whose command runs, or null. */
    public Client current() {
        return current;
    }

    /** {@code client} starts running a command (Redis's call()); returns the client that ran the enclosing one. */
    public Client executing(Client client) {
        executing++;
        Client enclosing = writer;
        writer = client;
        return enclosing;
    }

    /**
     * A command ended, {@code enclosing} what {@link #executing} returned; once the outermost one
     * did (EXEC's, a script's), the invalidations its client caused for itself follow its reply
     * (Redis's trackingHandlePendingKeyInvalidations).
     */
    public void executed(Client enclosing) {
        writer = enclosing;
        if (--executing > 0 || pending.isEmpty()) {
            return;
        }
        Client client = current;
        for (byte[] key : pending) {
            if (client != null && client.trackingMode() != null) {
                send(client, key == null ? nullMessage(client) : keyMessage(key));
            }
        }
        pending.clear();
    }

    /**
     * Redis's trackingRememberKeys: after a read-only command, the keys at {@code positions} of
     * {@code argv} may be in {@code client}'s cache, unless it is in BCAST mode, in OPTIN mode
     * without CLIENT CACHING YES or in OPTOUT mode with CLIENT CACHING NO.
     */
    public void rememberKeys(Client client, byte[][] argv, int[] positions) {
        Mode mode = client.trackingMode();
        if (mode == null || mode.bcast || positions.length == 0
                || mode.optin && !mode.caching || mode.optout && mode.caching) {
            return;
        }
        long id = client.id();
        for (int position : positions) {
            if (table.add(argv[position], id)) {
                totalItems++;
            }
        }
    }

    /** A script starts for the current client, which tracks, with the keys at {@code positions} declared; null when it ended. */
    public void scriptDeclares(byte[][] argv, int[] positions) {
        this.scriptArgv = argv;
        this.scriptKeys = positions;
    }

    /** The running script ran a read-only command: its caller may cache the keys it declared (as Redis 7.0). */
    public void scriptRead() {
        if (scriptArgv != null && current != null) {
            rememberKeys(current, scriptArgv, scriptKeys);
        }
    }

    /** Redis's trackingInvalidateKey from signalModifiedKey: the running command changed {@code key}. */
    public void keyModified(byte[] key) {
        invalidate(key, writer == null ? SERVER : writer, true);
    }

    /** An expired or evicted key: changed by no client, so NOLOOP's BCAST filter keeps it. */
    public void keyRemovedByServer(byte[] key) {
        invalidate(key, SERVER, true);
    }

    private void invalidate(byte[] key, Object writer, boolean bcast) {
        if (bcast && !prefixes.isEmpty()) {
            rememberToBroadcast(key, writer);
        }
        int slot = table.find(key);
        if (slot < 0) {
            return;
        }
        int count = table.idCount(slot);
        totalItems -= count;
        boolean encoded = false;
        for (int i = 0; i < count; i++) {
            Client target = clients.apply(table.id(slot, i));
            Mode mode = target == null ? null : target.trackingMode();
            if (mode == null || mode.bcast || mode.noloop && target == current) {
                continue;
            }
            if (target == current && executing > 0) {
                pending.add(key);
            } else {
                if (!encoded) {
                    keyMessage(key);
                    encoded = true;
                }
                send(target, message);
            }
        }
        table.remove(slot);
    }

    private void rememberToBroadcast(byte[] key, Object writer) {
        for (Map.Entry<byte[], Prefix> entry : prefixes.entrySet()) {
            byte[] prefix = entry.getKey();
            if (prefix.length <= key.length && Arrays.equals(prefix, 0, prefix.length, key, 0, prefix.length)) {
                entry.getValue().keys.put(key, writer);
                if (!broadcastScheduled) {
                    broadcastScheduled = true;
                    loop.execute(this::broadcast);
                }
            }
        }
    }

    /**
     * Redis's trackingBroadcastInvalidationMessages, after the iteration's commands: each prefix
     * sends the keys changed under it, in one message, to each of its clients (a NOLOOP client
     * without the keys it changed itself, and nothing if that leaves none).
     */
    void broadcast() {
        broadcastScheduled = false;
        for (Prefix prefix : prefixes.values()) {
            if (prefix.keys.isEmpty()) {
                continue;
            }
            keysMessage(prefix.keys, null, message);
            for (Client client : prefix.clients) {
                if (!client.trackingMode().noloop) {
                    send(client, message);
                } else if (keysMessage(prefix.keys, client, noloopMessage)) {
                    send(client, noloopMessage);
                }
            }
            prefix.keys = new TreeMap<>(Arrays::compareUnsigned);
        }
    }

    /** Encodes into {@code message} the array of the keys not last changed by {@code excluded}; false if that leaves none. */
    private static boolean keysMessage(Map<byte[], Object> keys, Client excluded, Message message) {
        int count = 0;
        for (Object writer : keys.values()) {
            if (writer != excluded) {
                count++;
            }
        }
        if (count == 0) {
            return false;
        }
        ByteBuf out = message.start();
        RespWriter.writeArrayHeader(out, count);
        keys.forEach((key, writer) -> {
            if (writer != excluded) {
                RespWriter.writeBulk(out, key);
            }
        });
        return true;
    }

    private Message keyMessage(byte[] key) {
        ByteBuf out = message.start();
        RespWriter.writeArrayHeader(out, 1);
        RespWriter.writeBulk(out, key);
        return message;
    }

    /** A flush's "every key": the null of the tracking client's protocol, even when it redirects elsewhere. */
    private Message nullMessage(Client client) {
        message.start().writeBytes(client.protocol() > 2 ? NULL_RESP3 : NULL_RESP2);
        return message;
    }

    /**
     * An invalidation's value (an encoded array of keys, or a null) and the frames that carry it,
     * each encoded once however many clients it goes to. A client copies a frame into its output,
     * so the buffers serve one invalidation after another and sending one allocates nothing.
     */
    private static final class Message {
        /** Larger buffers, left by a large key, are let go of once their message was sent. */
        private static final int KEPT_CAPACITY = 64 * 1024;
        private final ByteBuf value = Unpooled.buffer(64);
        private final ByteBuf push = Unpooled.buffer(64);
        private final ByteBuf pubsub = Unpooled.buffer(96);
        private boolean pushEncoded;
        private boolean pubsubEncoded;

        /** Empties the message; its value is to be written into the buffer returned. */
        ByteBuf start() {
            pushEncoded = false;
            pubsubEncoded = false;
            return emptied(value);
        }

        /** The push, as the RESP2 array {@link Client#deliverPush} takes: {@code invalidate value}. */
        ByteBuf push() {
            if (!pushEncoded) {
                RespWriter.writeArrayHeader(emptied(push), 2);
                RespWriter.writeBulk(push, INVALIDATE);
                push.writeBytes(value, value.readerIndex(), value.readableBytes());
                pushEncoded = true;
            }
            return push;
        }

        /** The pub/sub message on {@code __redis__:invalidate}, for a RESP2 client redirected to. */
        ByteBuf pubsub() {
            if (!pubsubEncoded) {
                RespWriter.writeArrayHeader(emptied(pubsub), 3);
                RespWriter.writeBulk(pubsub, MESSAGE);
                RespWriter.writeBulk(pubsub, CHANNEL);
                pubsub.writeBytes(value, value.readerIndex(), value.readableBytes());
                pubsubEncoded = true;
            }
            return pubsub;
        }

        private static ByteBuf emptied(ByteBuf buffer) {
            buffer.clear();
            if (buffer.capacity() > KEPT_CAPACITY) {
                buffer.capacity(KEPT_CAPACITY);
            }
            return buffer;
        }
    }

    /**
     * Redis's sendTrackingMessage: the invalidation to the client, or to the client it redirects
     * to: a push in RESP3, a pub/sub message to a RESP2 client subscribed (to anything), nothing
     * otherwise. When the client redirected to is gone, a RESP3 client is told so instead.
     */
    private void send(Client client, Message message) {
        Mode mode = client.trackingMode();
        Client target = client;
        boolean redirected = mode.redirect != 0;
        if (redirected) {
            target = clients.apply(mode.redirect);
            if (target == null) {
                mode.brokenRedirect = true;
                if (client.protocol() > 2) {
                    ByteBuf frame = Unpooled.buffer(48);
                    RespWriter.writeArrayHeader(frame, 2);
                    RespWriter.writeBulk(frame, REDIR_BROKEN);
                    RespWriter.writeInteger(frame, mode.redirect);
                    client.deliverPush(frame);
                }
                return;
            }
        }
        if (target.protocol() > 2) {
            target.deliverPush(message.push());
        } else if (redirected && target.isSubscribed()) {
            target.deliverPush(message.pubsub());
        }
    }

    /**
     * Redis's trackingInvalidateKeysOnFlush (FLUSHDB, FLUSHALL): every tracking client is told
     * that every key is invalid (the current client after its reply), and the table is emptied.
     */
    public void flushed() {
        for (Client client : List.copyOf(trackingClients)) {
            if (client == current) {
                pending.add(null);
            } else {
                send(client, nullMessage(client));
            }
        }
        table.clear();
        totalItems = 0;
    }

    /**
     * Redis's trackingLimitUsedSlots, before each command and from the cron: while the table holds
     * more keys than tracking-table-max-keys, its keys are invalidated as if changed, in the
     * table's sweep order (Redis picks them at random), at most 100 per call times the calls in a
     * row that ended over the limit.
     */
    public void limitUsedSlots() {
        if (maxKeys == 0 || table.size() <= maxKeys) {
            overLimitCalls = 0;
            return;
        }
        int effort = EFFORT * (overLimitCalls + 1);
        while (effort-- > 0) {
            invalidate(table.key(table.nextToEvict()), SERVER, false);
            if (table.size() <= maxKeys) {
                overLimitCalls = 0;
                return;
            }
        }
        overLimitCalls++;
    }
}
