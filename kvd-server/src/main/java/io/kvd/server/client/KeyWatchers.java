package io.kvd.server.client;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.kvd.server.tracking.Tracking;

/**
 * The keyspaces' one change listener, shared by WATCH ({@link WatchedKeys}), the clients
 * blocked on keys ({@link BlockedClients}) and client-side caching ({@link Tracking}, Redis's
 * signalModifiedKey calling trackingInvalidateKey). It is registered only while one of them has
 * anything to hear (tracking: once a client enabled it), so a server where nobody watches,
 * blocks or tracks pays one null check per change.
 */
final class KeyWatchers implements Databases.KeyWatcher {
    private final Databases databases;
    private final WatchedKeys watched;
    private final BlockedClients blocked;
    private final Tracking tracking;

    KeyWatchers(Databases databases, Tracking tracking) {
        this.databases = databases;
        this.tracking = tracking;
        this.watched = new WatchedKeys(databases, this);
        this.blocked = new BlockedClients(databases, this);
    }

    WatchedKeys watched() {
        return watched;
    }

    BlockedClients blocked() {
        return blocked;
    }

    /** Registers with the keyspaces while WATCH, a blocked client or tracking listens, else unregisters. */
    void listenersChanged() {
        databases.watchKeys(watched.isEmpty() && blocked.isEmpty() && !tracking.isActive() ? null : this);
    }

    @Override
    public void modified(int db, byte[] key) {
        if (!watched.isEmpty()) {
            watched.modified(db, key);
        }
        if (!blocked.isEmpty()) {
            blocked.modified(db, key);
        }
        if (tracking.isActive()) {
            tracking.keyModified(key);
        }
    }

    @Override
    public void removedByServer(int db, byte[] key) {
        if (!watched.isEmpty()) {
            watched.modified(db, key);
        }
        if (!blocked.isEmpty()) {
            blocked.modified(db, key);
        }
        if (tracking.isActive()) {
            tracking.keyRemovedByServer(key);
        }
    }

    @Override
    public void readyForBlocked(int db, byte[] key) {
        if (!blocked.isEmpty()) {
            blocked.modified(db, key);
        }
    }

    @Override
    public void replacing(Keyspace emptied, Keyspace replacedWith) {
        if (!watched.isEmpty()) {
            watched.replacing(emptied, replacedWith);
        }
        if (!blocked.isEmpty()) {
            blocked.replacing(emptied, replacedWith);
        }
    }
}
