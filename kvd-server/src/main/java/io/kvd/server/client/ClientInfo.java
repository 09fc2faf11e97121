package io.kvd.server.client;

import io.kvd.server.pubsub.PubSub;
import io.kvd.server.tracking.Tracking;

/** Redis's catClientInfoString: a client's CLIENT LIST line, which the ACL log records too. */
public final class ClientInfo {
    private ClientInfo() {
    }

    /**
     * One CLIENT LIST line with Redis 7.2's fields in its order. What kvd does not track per
     * connection (file descriptor, reply buffer capacities) reads -1 or 0; the memory fields are
     * {@link Client#memoryUsage}'s parts, tot-mem their sum.
     */
    public static String describe(Client c) {
        long now = c.keyspace().now();
        return "id=" + c.id()
                + " addr=" + c.connection().remoteAddress()
                + " laddr=" + c.connection().localAddress()
                + " fd=-1"
                + " name=" + c.name()
                + " age=" + (now - c.createdAtMs()) / 1000
                + " idle=" + (now - c.lastInteractionMs()) / 1000
                + " flags=" + flags(c) + " db=" + c.db()
                + " sub=" + subscriptions(c, PubSub.Kind.CHANNEL)
                + " psub=" + subscriptions(c, PubSub.Kind.PATTERN)
                + " ssub=" + subscriptions(c, PubSub.Kind.SHARD_CHANNEL)
                + " multi=" + (c.transaction() == null ? -1 : c.transaction().queued().size())
                + " qbuf=" + c.connection().queryBufferBytes()
                + " qbuf-free=" + c.connection().queryBufferReserved()
                + " argv-mem=" + c.connection().argvBytes()
                + " multi-mem=" + c.multiMemory()
                + " rbs=0 rbp=0 obl=0 oll=0 omem=" + c.outputMemory()
                + " tot-mem=" + c.memoryUsage() + " events=r"
                + " cmd=" + c.lastCommand()
                + " user=" + (c.user() == null ? "" : c.user().name())
                + " redir=" + (c.trackingMode() == null ? -1 : c.trackingMode().redirect())
                + " resp=" + c.reply().protocol()
                + " lib-name=" + c.libName()
                + " lib-ver=" + c.libVersion();
    }

    private static int subscriptions(Client c, PubSub.Kind kind) {
        return c.subscriptions() == null ? 0 : c.subscriptions().of(kind).size();
    }

    /**
     * Redis 7.0's letters, in its order: O monitoring, S a replica, M the master, P subscribed, x in
     * MULTI (EXEC included), b blocked in a blocking command, t tracking, R its redirection broken,
     * B in BCAST mode, d once a watched key changed, U on a UNIX socket, e with CLIENT NO-EVICT ON;
     * else N.
     */
    private static String flags(Client c) {
        Tracking.Mode tracking = c.trackingMode();
        String flags = (c.isMonitoring() ? "O" : c.replica() != null ? "S" : "") + (c.isMaster() ? "M" : "")
                + (c.isSubscribed() ? "P" : "") + (c.transaction() != null ? "x" : "")
                + (c.isBlocked() ? "b" : "")
                + (tracking == null ? "" : "t" + (tracking.brokenRedirect() ? "R" : "") + (tracking.bcast() ? "B" : ""))
                + (c.isWatchedKeyChanged() ? "d" : "")
                + (c.connection() != null && c.connection().isUnixSocket() ? "U" : "")
                + (c.isNoEvict() ? "e" : "");
        return flags.isEmpty() ? "N" : flags;
    }
}
