package io.kvd.server.store;

import io.kvd.server.latency.LatencyMonitor;

import java.util.function.Consumer;

/**
 * The numbered databases SELECT chooses between (Redis's server.db array), and what they share:
 * the clock deadlines are compared with, the change counter the AOF's propagation reads (Redis's
 * server.dirty), the expired-keys count and the listener told of each expired key, and the
 * latency monitor that samples expiry. Event loop only.
 */
public final class Databases {
    /** Told of each key removed because its deadline passed, with its database. */
    public interface ExpiryListener {
        void expired(int db, byte[] key);
    }

    /** Told of each key created (Redis's dbAdd), with its database, while someone listens. */
    public interface CreationListener {
        void created(int db, byte[] key);
    }

    /**
     * Told of each key a change touches while someone WATCHes keys (Redis's signalModifiedKey and
     * touchAllWatchedKeysInDb); the keyspaces only test for null when nobody does.
     */
    public interface KeyWatcher {
        /** {@code key} of database {@code db} was written or deleted by a command (called after the change). */
        void modified(int db, byte[] key);

        /** {@code key} of database {@code db} expired or was evicted: removed by no client (called after). */
        void removedByServer(int db, byte[] key);

        /**
         * {@code key} of database {@code db} changed in a way blocked clients may care for but WATCH
         * does not (Redis's signalKeyAsReady alone: a stream's consumer group destroyed).
         */
        void readyForBlocked(int db, byte[] key);

        /**
         * Before FLUSHDB or FLUSHALL empties {@code emptied} ({@code replacedWith} null), or SWAPDB
         * gives it {@code replacedWith}'s contents.
         */
        void replacing(Keyspace emptied, Keyspace replacedWith);
    }

    private final Keyspace[] keyspaces;
    private final EncodingLimits limits;
    long now;
    long changes;
    private long snapshotsStarted;
    private long latestSnapshotStartMicros;
    long expiredKeys;
    /** Whether lookups now are a read command's, counted as hits or misses (Redis's lookupKeyRead). */
    boolean countingReads;
    /** A replica's keys expire by its primary's DELs (Redis's expireIfNeeded on a replica). */
    boolean primaryExpires;
    /** The primary's stream runs a command: keys past their deadline are still there for it. */
    boolean obeyingPrimary;
    /** A client pause runs: a read leaves a key past its deadline in place ({@link #pauseExpiry}). */
    boolean expiryPaused;
    long keyspaceHits;
    long keyspaceMisses;
    ExpiryListener expiryListener = (db, key) -> { };
    /** Samples "expire-del" and "expire-cycle"; the server's once it sets it, an off one until then. */
    LatencyMonitor latency = new LatencyMonitor();
    /** Null while nobody listens (keyspace notifications of new keys off). */
    CreationListener creationListener;
    /** Null while no key is watched. */
    KeyWatcher keyWatcher;
    /** How lookups stamp keys for eviction (LRU clock or LFU counter). */
    final KeyAccess access = new KeyAccess();

    public Databases(int count, long seed) {
        this(count, seed, new EncodingLimits());
    }

    public Databases(int count, long seed, EncodingLimits limits) {
        this.limits = limits;
        this.keyspaces = new Keyspace[count];
        for (int i = 0; i < count; i++) {
            keyspaces[i] = new Keyspace(this, i, seed + i);
        }
    }

    public int count() {
        return keyspaces.length;
    }

    /** Database {@code index}, which must be in [0, count). */
    public Keyspace get(int index) {
        return keyspaces[index];
    }

    public EncodingLimits limits() {
        return limits;
    }

    /** Sets the time every deadline is compared with until the next call. */
    public void setTime(long nowMs) {
        this.now = nowMs;
        access.setTime(nowMs);
    }

    /** The keys' access stamps: what the eviction policy configures and reads. */
    public KeyAccess access() {
        return access;
    }

    /**
     * Bytes the keys and values of every database hold in the store: the sum of MEMORY USAGE
     * over every key (a list's or stream's nodes sampled as MEMORY USAGE's default), kept as the
     * store changes, so reading it costs a measure per large collection changed since the last
     * read, never a walk over keys. What maxmemory bounds (docs/configuration.md).
     */
    public long usedMemory() {
        long bytes = 0;
        for (Keyspace keyspace : keyspaces) {
            bytes += keyspace.usedMemory();
        }
        return bytes;
    }

    public long now() {
        return now;
    }

    /** Changes made through the keyspaces' APIs (not expiry), in every database (Redis's server.dirty). */
    public long changes() {
        return changes;
    }

    /** Keys removed because their deadline passed, lazily or actively, since start. */
    public long expiredKeys() {
        return expiredKeys;
    }

    /**
     * Whether the lookups from now on count as INFO's keyspace hits and misses: on while a
     * read-only command runs, as Redis counts its lookupKeyRead and not its lookupKeyWrite.
     * Returns the previous setting, for a command that runs others (EXEC, a script) to restore.
     */
    public boolean countReads(boolean counting) {
        boolean previous = countingReads;
        countingReads = counting;
        return previous;
    }

    /**
     * On a replica, as Redis's expireIfNeeded: a key past its deadline is left for the primary's
     * DEL; a read sees it missing, the primary's stream sees it present, and only a client's write
     * (on a writable replica) removes it.
     */
    public void expireByPrimary(boolean replica) {
        primaryExpires = replica;
    }

    /** The primary's stream is running a command (true) or has run it (false). */
    public void obeyPrimary(boolean obeying) {
        obeyingPrimary = obeying;
    }

    /**
     * While clients are paused, as Redis's expireIfNeeded under checkClientPauseTimeoutAndReturnIfPaused:
     * a read sees a key past its deadline missing and leaves it, so the paused dataset (and the
     * stream a replica must catch up with before a failover) does not change; the key goes when
     * the pause has ended.
     */
    public void pauseExpiry(boolean paused) {
        expiryPaused = paused;
    }

    /** INFO's keyspace_hits: lookups of read commands that found a live key, since start or RESETSTAT. */
    public long keyspaceHits() {
        return keyspaceHits;
    }

    /** INFO's keyspace_misses: lookups of read commands that found no live key. */
    public long keyspaceMisses() {
        return keyspaceMisses;
    }

    /** CONFIG RESETSTAT: counts expired keys, hits and misses from zero again. */
    public void resetStats() {
        expiredKeys = 0;
        keyspaceHits = 0;
        keyspaceMisses = 0;
    }

    public void onExpired(ExpiryListener listener) {
        this.expiryListener = listener;
    }

    /** The latency monitor expiry samples into. */
    public LatencyMonitor latencyMonitor() {
        return latency;
    }

    /** The server's latency monitor, which samples each expired key's removal and each expiry cycle. */
    public void useLatencyMonitor(LatencyMonitor latency) {
        this.latency = latency;
    }

    /** Tells {@code listener} of every key created from now on; null stops it. */
    public void onCreated(CreationListener listener) {
        this.creationListener = listener;
    }

    /** Tells {@code watcher} of every key changed from now on; null stops it (nobody watches). */
    public void watchKeys(KeyWatcher watcher) {
        this.keyWatcher = watcher;
    }

    /** Keys in every database. */
    public long size() {
        long keys = 0;
        for (Keyspace keyspace : keyspaces) {
            keys += keyspace.size();
        }
        return keys;
    }

    /** FLUSHALL */
    public void clear() {
        for (Keyspace keyspace : keyspaces) {
            keyspace.clear();
        }
    }

    /**
     * A replica's diskless load succeeded: every database takes the contents of the one of
     * {@code loaded} (which must have as many), as FLUSHALL then the load would leave them.
     */
    public void replaceWith(Databases loaded) {
        for (int i = 0; i < keyspaces.length; i++) {
            keyspaces[i].takeContents(loaded.keyspaces[i]);
        }
    }

    /** SWAPDB: the two databases trade contents; clients stay on their numbers, as in Redis. */
    public void swap(int a, int b) {
        changes++;
        if (keyWatcher != null) {
            keyWatcher.replacing(keyspaces[a], keyspaces[b]);
            keyWatcher.replacing(keyspaces[b], keyspaces[a]);
        }
        keyspaces[a].swapContents(keyspaces[b]);
    }

    /**
     * Starts a point-in-time snapshot of every database that hands each live entry to
     * {@code sink} as it is now, while the databases keep changing, a collection's members in
     * batches of up to {@code membersPerBatch}; {@link DatabasesSnapshot#stop} it when done. One
     * at a time.
     */
    public DatabasesSnapshot startSnapshot(int membersPerBatch, KeyspaceSnapshot.Sink sink) {
        long started = System.nanoTime();
        DatabasesSnapshot snapshot = new DatabasesSnapshot(this, membersPerBatch, sink);
        snapshotsStarted++;
        latestSnapshotStartMicros = (System.nanoTime() - started) / 1000;
        return snapshot;
    }

    /** Snapshots started since start (INFO's total_forks: kvd's counterpart of Redis's child processes). */
    public long snapshotsStarted() {
        return snapshotsStarted;
    }

    /** What starting the latest snapshot cost the loop, in microseconds (INFO's latest_fork_usec). */
    public long latestSnapshotStartMicros() {
        return latestSnapshotStartMicros;
    }

    /** Whether a snapshot is running: a second one cannot start until it stops. */
    public boolean snapshotRunning() {
        for (Keyspace keyspace : keyspaces) {
            if (keyspace.snapshotRunning()) {
                return true;
            }
        }
        return false;
    }

    /** Calls {@code visitor} with each database, in order. */
    public void forEach(Consumer<Keyspace> visitor) {
        for (Keyspace keyspace : keyspaces) {
            visitor.accept(keyspace);
        }
    }

    /** Every database's {@link Keyspace#checkInvariants}. */
    public void checkInvariants() {
        forEach(Keyspace::checkInvariants);
    }
}
