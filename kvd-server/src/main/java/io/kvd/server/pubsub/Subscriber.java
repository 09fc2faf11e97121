package io.kvd.server.pubsub;

import io.kvd.server.protocol.Reply;
import io.netty.buffer.ByteBuf;

/**
 * A client as pub/sub sees it: where confirmations and messages go, and the subscriptions it
 * holds. A client implements it; pub/sub, below the clients, names nothing more of them.
 */
public interface Subscriber {
    /** The client's subscriptions, null while it has none. */
    PubSub.Subscriptions subscriptions();

    /** Its first subscription: an empty set of them, kept until {@link #endSubscriptions}. */
    PubSub.Subscriptions startSubscriptions();

    /** Its last subscription ended. */
    void endSubscriptions();

    /**
     * Copies a message's frame, encoded as a RESP2 array, into its output for the iteration's
     * flush: a RESP3 client gets it as a push.
     */
    void deliverPush(ByteBuf frame);

    /** Where confirmations are written. */
    Reply reply();
}
