package io.kvd.server.pubsub;

import io.kvd.server.config.KeyspaceEventTypes;
import io.kvd.server.store.Databases;

import java.nio.charset.StandardCharsets;

/**
 * Keyspace notifications (Redis's notify.c): a command that changed a key calls
 * {@link #notify} next to the change, with the class of the event ({@link KeyspaceEventTypes})
 * and its name, and the enabled classes of {@code notify-keyspace-events} decide what is
 * published: {@code __keyspace@<db>__:<key>} with the event (K), {@code __keyevent@<db>__:<event>}
 * with the key (E), through {@link PubSub#publish}, so subscribers receive them in the order the
 * changes happened. With notifications off a call costs one AND of an int.
 */
public final class KeyspaceEvents {
    private static final byte[] KEYSPACE_PREFIX = "__keyspace@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYEVENT_PREFIX = "__keyevent@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW = "new".getBytes(StandardCharsets.US_ASCII);

    private final PubSub pubSub;
    private final Databases databases;
    /** The enabled classes; 0 unless K or E is on too, since nothing would be published. */
    private int enabled;
    private boolean keyspaceChannel;
    private boolean keyeventChannel;

    public KeyspaceEvents(PubSub pubSub, Databases databases) {
        this.pubSub = pubSub;
        this.databases = databases;
    }

    /** Applies notify-keyspace-events' flags (at start and on CONFIG SET). */
    public void configure(int flags) {
        keyspaceChannel = (flags & KeyspaceEventTypes.KEYSPACE) != 0;
        keyeventChannel = (flags & KeyspaceEventTypes.KEYEVENT) != 0;
        enabled = keyspaceChannel || keyeventChannel ? flags : 0;
        // A new key is created deep in the store (Redis's dbAdd), which tells only a listener that is there.
        databases.onCreated(isEnabled(KeyspaceEventTypes.NEW)
                ? (db, key) -> publish(NEW, key, db) : null);
    }

    /** True when events of {@code type} are published. */
    public boolean isEnabled(int type) {
        return (enabled & type) != 0;
    }

    /** Redis's notifyKeyspaceEvent: {@code event} happened to {@code key} of database {@code db}. */
    public void notify(int type, String event, byte[] key, int db) {
        if ((enabled & type) != 0) {
            publish(event.getBytes(StandardCharsets.US_ASCII), key, db);
        }
    }

    private void publish(byte[] event, byte[] key, int db) {
        byte[] dbAndColon = (db + "__:").getBytes(StandardCharsets.US_ASCII);
        if (keyspaceChannel) {
            pubSub.publish(concat(KEYSPACE_PREFIX, dbAndColon, key), event);
        }
        if (keyeventChannel) {
            pubSub.publish(concat(KEYEVENT_PREFIX, dbAndColon, event), key);
        }
    }

    private static byte[] concat(byte[] a, byte[] b, byte[] c) {
        byte[] out = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }
}
