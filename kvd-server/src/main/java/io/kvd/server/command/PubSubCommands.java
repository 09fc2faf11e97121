package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.client.Subcommands;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.pubsub.PubSub.Kind;
import io.kvd.server.pubsub.PubSub;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, SSUBSCRIBE, SUNSUBSCRIBE, SPUBLISH and
 * PUBSUB (Redis 7.0's pubsub.c). The registry and delivery are {@link PubSub}'s; what a subscribed
 * client may still run is the dispatcher's check ({@link CommandTable#call}).
 */
final class PubSubCommands {
    static final Subcommands SUBCOMMANDS = new Subcommands("pubsub")
            .add("channels", -2, PubSubCommands::channels,
                    "CHANNELS [<pattern>]",
                    "    Return the currently active channels matching a <pattern> (default: '*').")
            .add("numpat", 2, PubSubCommands::numpat,
                    "NUMPAT",
                    "    Return number of subscriptions to patterns.")
            .add("numsub", -2, PubSubCommands::numsub,
                    "NUMSUB [<channel> ...]",
                    "    Return the number of subscribers for the specified channels, excluding",
                    "    pattern subscriptions(default: no channels).")
            .add("shardchannels", -2, PubSubCommands::shardchannels,
                    "SHARDCHANNELS [<pattern>]",
                    "    Return the currently active shard level channels matching a <pattern> (default: '*').")
            .add("shardnumsub", -2, PubSubCommands::shardnumsub,
                    "SHARDNUMSUB [<shardchannel> ...]",
                    "    Return the number of subscribers for the specified shard level channel(s)")
            .withHelp();

    private PubSubCommands() {
    }

    /** SUBSCRIBE channel [channel ...]: one confirmation per channel, repeated ones included. */
    static void subscribe(Client client, byte[][] argv) {
        subscribeEach(client, Kind.CHANNEL, argv);
    }

    /** PSUBSCRIBE pattern [pattern ...] */
    static void psubscribe(Client client, byte[][] argv) {
        subscribeEach(client, Kind.PATTERN, argv);
    }

    /**
     * SSUBSCRIBE shardchannel [shardchannel ...]: refused inside a transaction (Redis refuses it
     * to a DENY_BLOCKING client; SUBSCRIBE and PSUBSCRIBE are let through there for compatibility).
     */
    static void ssubscribe(Client client, byte[][] argv) {
        if (client.inTransaction()) {
            throw new CommandError("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client");
        }
        subscribeEach(client, Kind.SHARD_CHANNEL, argv);
    }

    /** UNSUBSCRIBE [channel [channel ...]]: without arguments, from every channel. */
    static void unsubscribe(Client client, byte[][] argv) {
        unsubscribeEach(client, Kind.CHANNEL, argv);
    }

    /** PUNSUBSCRIBE [pattern [pattern ...]] */
    static void punsubscribe(Client client, byte[][] argv) {
        unsubscribeEach(client, Kind.PATTERN, argv);
    }

    /** SUNSUBSCRIBE [shardchannel [shardchannel ...]] */
    static void sunsubscribe(Client client, byte[][] argv) {
        unsubscribeEach(client, Kind.SHARD_CHANNEL, argv);
    }

    /** PUBLISH channel message: the number of clients that received it. */
    static void publish(Client client, byte[][] argv) {
        client.reply().integer(client.server().pubSub().publish(argv[1], argv[2]));
        propagateToReplicas(client, argv);
    }

    /** SPUBLISH shardchannel message: with cluster-enabled, on the node serving its slot (the dispatcher's check). */
    static void spublish(Client client, byte[][] argv) {
        client.reply().integer(client.server().pubSub().publishToShard(argv[1], argv[2]));
        propagateToReplicas(client, argv);
    }

    /**
     * As Redis's publishCommand outside cluster mode: the message goes to the replicas too (not to
     * the AOF), whose subscribers get it; a static cluster has no replicas to tell.
     */
    private static void propagateToReplicas(Client client, byte[][] argv) {
        if (client.server().config().cluster() == null) {
            client.server().commandLog().appendForReplicas(client.db(), argv);
        }
    }

    static void pubsub(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    private static void subscribeEach(Client client, Kind kind, byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            client.server().pubSub().subscribe(client, kind, argv[i]);
        }
    }

    private static void unsubscribeEach(Client client, Kind kind, byte[][] argv) {
        PubSub pubSub = client.server().pubSub();
        if (argv.length == 1) {
            pubSub.unsubscribeAll(client, kind);
        }
        for (int i = 1; i < argv.length; i++) {
            pubSub.unsubscribe(client, kind, argv[i]);
        }
    }

    /** PUBSUB CHANNELS [pattern] */
    private static void channels(Client client, byte[][] argv) {
        names(client, argv, Kind.CHANNEL);
    }

    /** PUBSUB SHARDCHANNELS [pattern] */
    private static void shardchannels(Client client, byte[][] argv) {
        names(client, argv, Kind.SHARD_CHANNEL);
    }

    /** PUBSUB NUMSUB [channel ...]: each channel and its subscribers, patterns not counted. */
    private static void numsub(Client client, byte[][] argv) {
        counts(client, argv, Kind.CHANNEL);
    }

    /** PUBSUB SHARDNUMSUB [shardchannel ...] */
    private static void shardnumsub(Client client, byte[][] argv) {
        counts(client, argv, Kind.SHARD_CHANNEL);
    }

    /** PUBSUB NUMPAT: patterns subscribed to, each counted once however many clients share it. */
    private static void numpat(Client client, byte[][] argv) {
        client.reply().integer(client.server().pubSub().patternCount());
    }

    /** The names with subscribers, all or those the pattern matches (Redis's stringmatchlen, as KEYS). */
    private static void names(Client client, byte[][] argv, Kind kind) {
        if (argv.length > 3) {
            // Redis's addReplySubcommandSyntaxError, naming the subcommand as it was written.
            throw new CommandError("ERR unknown subcommand or wrong number of arguments for '"
                    + Args.utf8(argv[1]) + "'. Try PUBSUB HELP.");
        }
        byte[] pattern = argv.length == 3 ? argv[2] : null;
        List<byte[]> matching = new ArrayList<>();
        for (ByteBuffer name : client.server().pubSub().names(kind)) {
            if (pattern == null || Glob.matches(pattern, name.array())) {
                matching.add(name.array());
            }
        }
        client.reply().arrayHeader(matching.size());
        matching.forEach(client.reply()::bulk);
    }

    private static void counts(Client client, byte[][] argv, Kind kind) {
        PubSub pubSub = client.server().pubSub();
        client.reply().arrayHeader((argv.length - 2) * 2);
        for (int i = 2; i < argv.length; i++) {
            client.reply().bulk(argv[i]);
            client.reply().integer(pubSub.subscriberCount(kind, argv[i]));
        }
    }
}
