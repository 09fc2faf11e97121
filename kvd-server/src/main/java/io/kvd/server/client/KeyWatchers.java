package io.kvd.server.client;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;

/**
 * The keyspaces' one change listener, shared by WATCH ({@link WatchedKeys}) and the clients
 * blocked on keys ({@link BlockedClients}). It is registered only while either has anything to
 * hear, so a server where nobody watches or blocks pays one null check per change.
 */
final class KeyWatchers implements Databases.KeyWatcher {
    private final Databases databases;
    private final WatchedKeys watched;
    private final BlockedClients blocked;

    KeyWatchers(Databases databases) {
        this.databases = databases;
        this.watched = new WatchedKeys(databases, this);
        this.blocked = new BlockedClients(databases, this);
    }

    WatchedKeys watched() {
        return watched;
    }

    BlockedClients blocked() {
        return blocked;
    }

    /** Registers with the keyspaces while WATCH or a blocked client listens, else unregisters. */
    void listenersChanged() {
        databases.watchKeys(watched.isEmpty() && blocked.isEmpty() ? null : this);
    }

    @Override
    public void modified(int db, byte[] key) {
        if (!watched.isEmpty()) {
            watched.modified(db, key);
        }
        if (!blocked.isEmpty()) {
            blocked.modified(db, key);
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
