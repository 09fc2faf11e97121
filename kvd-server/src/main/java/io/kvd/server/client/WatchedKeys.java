package io.kvd.server.client;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * WATCH's bookkeeping, as Redis 7.0's multi.c: the clients watching each (database, key), and
 * each client's watches. It hears the keyspaces' changes through {@link KeyWatchers} while the map
 * holds anything.
 */
public final class WatchedKeys {
    /** One client watching one key. {@code expired}: the key was already past its deadline when watched. */
    static final class Watch {
        final Client client;
        final int db;
        final byte[] key;
        boolean expired;

        Watch(Client client, int db, byte[] key, boolean expired) {
            this.client = client;
            this.db = db;
            this.key = key;
            this.expired = expired;
        }
    }

    private final Databases databases;
    private final KeyWatchers listeners;
    private final Map<DbKey, List<Watch>> watchers = new HashMap<>();

    WatchedKeys(Databases databases, KeyWatchers listeners) {
        this.databases = databases;
        this.listeners = listeners;
    }

    /** WATCH of one key in the client's database; watching it again changes nothing. */
    public void watch(Client client, byte[] key) {
        int db = client.db();
        for (Watch w : client.watches()) {
            if (w.db == db && Arrays.equals(w.key, key)) {
                return;
            }
        }
        byte[] copy = key.clone();
        Watch watch = new Watch(client, db, copy, databases.get(db).isExpired(copy));
        watchers.computeIfAbsent(new DbKey(db, copy), k -> new ArrayList<>(1)).add(watch);
        client.watches().add(watch);
        listeners.listenersChanged();
    }

    /** True when no client watches anything (and the keyspaces tell nobody of their changes). */
    public boolean isEmpty() {
        return watchers.isEmpty();
    }

    /** UNWATCH, EXEC, DISCARD, a closed connection: the client watches nothing any more. */
    public void unwatchAll(Client client) {
        List<Watch> watches = client.watches();
        if (watches.isEmpty()) {
            return;
        }
        for (Watch w : watches) {
            DbKey dbKey = new DbKey(w.db, w.key);
            List<Watch> clients = watchers.get(dbKey);
            clients.remove(w);
            if (clients.isEmpty()) {
                watchers.remove(dbKey);
            }
        }
        watches.clear();
        if (watchers.isEmpty()) {
            listeners.listenersChanged();
        }
    }

    /**
     * Redis's isWatchedKeyExpired: a watched key, live when watched, whose deadline has passed
     * since, though nothing removed it yet, counts as changed at EXEC.
     */
    public boolean anyExpired(Client client) {
        for (Watch w : client.watches()) {
            if (!w.expired && databases.get(w.db).isExpired(w.key)) {
                return true;
            }
        }
        return false;
    }

    /** Redis 7.0's touchWatchedKey. */
    public void modified(int db, byte[] key) {
        List<Watch> clients = watchers.get(new DbKey(db, key));
        if (clients == null) {
            return;
        }
        for (Watch w : List.copyOf(clients)) {
            if (w.expired) {
                if (!databases.get(db).holds(key)) {
                    // An expired key was removed: nothing the watcher saw changed.
                    w.expired = false;
                    continue;
                }
                // Redis stops at the first such watcher (a break out of its loop); so does kvd.
                break;
            }
            w.client.watchedKeyChanged();
            // Dirty already: its watches can go now (Redis does the same).
            unwatchAll(w.client);
        }
    }

    /** Redis 7.0's touchAllWatchedKeysInDb: a key that exists before the flush or swap, or after a swap, changed. */
    public void replacing(Keyspace emptied, Keyspace replacedWith) {
        for (Map.Entry<DbKey, List<Watch>> entry : watchers.entrySet()) {
            byte[] key = entry.getKey().key();
            if (entry.getKey().db() != emptied.index()) {
                continue;
            }
            boolean existsInEmptied = emptied.holds(key);
            boolean existsInReplacement = replacedWith != null && replacedWith.holds(key);
            if (!existsInEmptied && !existsInReplacement) {
                continue;
            }
            for (Watch w : entry.getValue()) {
                if (w.expired) {
                    if (!existsInReplacement) {
                        w.expired = false;
                        continue;
                    } else if (replacedWith.isExpired(key)) {
                        continue;
                    }
                } else if (!existsInEmptied && replacedWith.isExpired(key)) {
                    // A missing key replaced by an expired one: still missing to the watcher.
                    w.expired = true;
                    continue;
                }
                w.client.watchedKeyChanged();
            }
        }
    }
}
