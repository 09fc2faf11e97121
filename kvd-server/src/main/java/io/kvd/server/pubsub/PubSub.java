package io.kvd.server.pubsub;

import io.kvd.codec.RespWriter;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pub/sub registry (Redis 7.0's pubsub.c): the subscribers of every channel, pattern and shard
 * channel, each in subscription order, and each client's own subscriptions (on its {@link Subscriber}).
 * A channel, pattern or shard channel is in the registry only while someone subscribes to it.
 *
 * <p>Publishing encodes a message's frame once per channel (and once per matching pattern) and
 * copies those bytes into every subscriber's reply buffer; the subscriber's connection is queued
 * for the iteration's one flush, so a message to 1,000
 * subscribers is 1,000 small copies and, at the iteration's end, one write per subscriber.
 * Nothing here waits for a subscriber: one that does not read grows its own output until its
 * output-buffer limit (class pubsub) closes it.
 */
public final class PubSub {
    /** The three kinds of subscription, with the words of their frames. */
    public enum Kind {
        CHANNEL("subscribe", "unsubscribe", "message"),
        PATTERN("psubscribe", "punsubscribe", "pmessage"),
        SHARD_CHANNEL("ssubscribe", "sunsubscribe", "smessage");

        final byte[] subscribe;
        final byte[] unsubscribe;
        final byte[] message;

        Kind(String subscribe, String unsubscribe, String message) {
            this.subscribe = subscribe.getBytes(StandardCharsets.US_ASCII);
            this.unsubscribe = unsubscribe.getBytes(StandardCharsets.US_ASCII);
            this.message = message.getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * One client's subscriptions, each kind in subscription order. (Redis keeps channels in dicts,
     * so its UNSUBSCRIBE without arguments answers in hash order; kvd answers in subscription order.)
     */
    public static final class Subscriptions {
        private final List<Set<ByteBuffer>> byKind =
                List.of(new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>());

        public Set<ByteBuffer> of(Kind kind) {
            return byKind.get(kind.ordinal());
        }

        /**
         * The count a confirmation frame carries: channels and patterns together, shard channels
         * on their own (Redis's clientSubscriptionsCount and clientShardSubscriptionsCount).
         */
        int count(Kind kind) {
            return kind == Kind.SHARD_CHANNEL ? of(kind).size() : of(Kind.CHANNEL).size() + of(Kind.PATTERN).size();
        }

        boolean isEmpty() {
            return byKind.stream().allMatch(Set::isEmpty);
        }

        /** Channels, patterns and shard channels together. */
        public int count() {
            return of(Kind.CHANNEL).size() + of(Kind.PATTERN).size() + of(Kind.SHARD_CHANNEL).size();
        }
    }

    /** The scratch frame's size; one grown past {@link #LARGEST_KEPT_FRAME} by a large message is let go. */
    private static final int FRAME_BYTES = 256;
    private static final int LARGEST_KEPT_FRAME = 64 * 1024;

    private final Map<ByteBuffer, Set<Subscriber>> channels = new HashMap<>();
    /** In first-subscription order: publishing walks every pattern, and delivers in this order. */
    private final Map<ByteBuffer, Set<Subscriber>> patterns = new LinkedHashMap<>();
    private final Map<ByteBuffer, Set<Subscriber>> shardChannels = new HashMap<>();
    /** Where one frame is encoded before it is copied to each subscriber; reused, so publishing allocates nothing. */
    private ByteBuf frame = Unpooled.buffer(FRAME_BYTES);
    /** Clients subscribed to anything. */
    private int subscribers;

    /**
     * PUBLISH: sends {@code message} to the channel's subscribers, then to the subscribers of every
     * matching pattern; returns how many frames were sent (a client subscribed to the channel and
     * to two matching patterns counts three times, as in Redis). For the server's own messages
     * (keyspace notifications) as well as the command.
     */
    public int publish(byte[] channel, byte[] message) {
        int receivers = deliver(channels.get(ByteBuffer.wrap(channel)), Kind.CHANNEL, null, channel, message);
        for (Map.Entry<ByteBuffer, Set<Subscriber>> entry : patterns.entrySet()) {
            byte[] pattern = entry.getKey().array();
            if (Glob.matches(pattern, channel)) {
                receivers += deliver(entry.getValue(), Kind.PATTERN, pattern, channel, message);
            }
        }
        return receivers;
    }

    /** SPUBLISH: sends {@code message} to the shard channel's subscribers; returns how many. */
    public int publishToShard(byte[] shardChannel, byte[] message) {
        return deliver(shardChannels.get(ByteBuffer.wrap(shardChannel)), Kind.SHARD_CHANNEL, null, shardChannel, message);
    }

    private int deliver(Set<Subscriber> clients, Kind kind, byte[] pattern, byte[] channel, byte[] message) {
        if (clients == null) {
            return 0;
        }
        frame.clear();
        RespWriter.writeArrayHeader(frame, pattern == null ? 3 : 4);
        RespWriter.writeBulk(frame, kind.message);
        if (pattern != null) {
            RespWriter.writeBulk(frame, pattern);
        }
        RespWriter.writeBulk(frame, channel);
        RespWriter.writeBulk(frame, message);
        for (Subscriber client : clients) {
            client.deliverPush(frame);
        }
        if (frame.capacity() > LARGEST_KEPT_FRAME) {
            frame = Unpooled.buffer(FRAME_BYTES);
        }
        return clients.size();
    }

    /** (P|S)SUBSCRIBE of one name: subscribes unless already subscribed, and confirms either way. */
    public void subscribe(Subscriber client, Kind kind, byte[] name) {
        Subscriptions subscriptions = client.subscriptions();
        if (subscriptions == null) {
            subscriptions = client.startSubscriptions();
            subscribers++;
        }
        ByteBuffer key = ByteBuffer.wrap(name.clone());
        if (subscriptions.of(kind).add(key)) {
            registry(kind).computeIfAbsent(key, k -> new LinkedHashSet<>()).add(client);
        }
        confirm(client, kind.subscribe, name, subscriptions.count(kind));
    }

    /** (P|S)UNSUBSCRIBE of one name: confirmed even when the client was not subscribed to it. */
    public void unsubscribe(Subscriber client, Kind kind, byte[] name) {
        remove(client, kind, ByteBuffer.wrap(name));
        Subscriptions subscriptions = client.subscriptions();
        confirm(client, kind.unsubscribe, name, subscriptions == null ? 0 : subscriptions.count(kind));
        endIfEmpty(client);
    }

    /**
     * (P|S)UNSUBSCRIBE without arguments: every name of that kind, confirmed one by one; with none,
     * one confirmation with a null name (Redis's pubsubUnsubscribeAllChannels).
     */
    public void unsubscribeAll(Subscriber client, Kind kind) {
        Subscriptions subscriptions = client.subscriptions();
        if (subscriptions == null || subscriptions.of(kind).isEmpty()) {
            confirm(client, kind.unsubscribe, null, subscriptions == null ? 0 : subscriptions.count(kind));
            return;
        }
        for (ByteBuffer key : new ArrayList<>(subscriptions.of(kind))) {
            remove(client, kind, key);
            confirm(client, kind.unsubscribe, key.array(), subscriptions.count(kind));
        }
        endIfEmpty(client);
    }

    /** A closed connection or RESET: the client leaves every channel, pattern and shard channel, unconfirmed. */
    public void forget(Subscriber client) {
        Subscriptions subscriptions = client.subscriptions();
        if (subscriptions == null) {
            return;
        }
        for (Kind kind : Kind.values()) {
            for (ByteBuffer key : new ArrayList<>(subscriptions.of(kind))) {
                remove(client, kind, key);
            }
        }
        endIfEmpty(client);
    }

    private void remove(Subscriber client, Kind kind, ByteBuffer key) {
        Subscriptions subscriptions = client.subscriptions();
        if (subscriptions == null || !subscriptions.of(kind).remove(key)) {
            return;
        }
        Map<ByteBuffer, Set<Subscriber>> registry = registry(kind);
        Set<Subscriber> clients = registry.get(key);
        clients.remove(client);
        if (clients.isEmpty()) {
            registry.remove(key);
        }
    }

    private void endIfEmpty(Subscriber client) {
        Subscriptions subscriptions = client.subscriptions();
        if (subscriptions != null && subscriptions.isEmpty()) {
            client.endSubscriptions();
            subscribers--;
        }
    }

    /** A (un)subscription's confirmation: sent even under CLIENT REPLY OFF, as Redis's CLIENT_PUSHING sends it. */
    private static void confirm(Subscriber client, byte[] kind, byte[] name, int count) {
        Reply reply = client.reply();
        boolean muted = reply.isMuted();
        reply.mute(false);
        reply.pushHeader(3);
        reply.bulk(kind);
        reply.bulk(name);
        reply.integer(count);
        reply.mute(muted);
    }

    /** PUBSUB CHANNELS and SHARDCHANNELS: the names with subscribers (in no particular order, as Redis). */
    public Collection<ByteBuffer> names(Kind kind) {
        return registry(kind).keySet();
    }

    /** PUBSUB NUMSUB and SHARDNUMSUB: the subscribers of one channel or shard channel. */
    public int subscriberCount(Kind kind, byte[] name) {
        Set<Subscriber> clients = registry(kind).get(ByteBuffer.wrap(name));
        return clients == null ? 0 : clients.size();
    }

    /** Channels with subscribers (INFO's pubsub_channels). */
    public int channelCount() {
        return channels.size();
    }

    /** Patterns with subscribers, each counted once (PUBSUB NUMPAT, INFO's pubsub_patterns). */
    public int patternCount() {
        return patterns.size();
    }

    /** Shard channels with subscribers (INFO's pubsubshard_channels). */
    public int shardChannelCount() {
        return shardChannels.size();
    }

    /** True while some client is subscribed to anything: only then can the pubsub output limit close one. */
    public boolean hasSubscribers() {
        return subscribers > 0;
    }

    private Map<ByteBuffer, Set<Subscriber>> registry(Kind kind) {
        return switch (kind) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD_CHANNEL -> shardChannels;
        };
    }
}
