package io.kvd.server.store;

/**
 * A point-in-time copy of the keyspace, taken without stopping it (Java has no fork): entries are
 * visited in ascending id order in small {@link #step steps} between commands, and the keyspace
 * calls {@link #beforeChange} before it changes or removes an entry the traversal has not
 * reached, so that entry's old contents are handed out first. Every entry live at the start is
 * therefore handed out exactly once, as it was at the start; entries created afterwards never are
 * (they are marked handled at birth, which also covers an id freed and reused). Changes made
 * after the start are the caller's to record (the AOF's rewrite buffer).
 *
 * <p>Ids at or past the end of the slab at the start were all born later, so the traversal stops
 * there. Bucket moves of the hash table's incremental rehash do not change ids and need no care.
 * A FLUSHALL replaces the slab and detaches the snapshot, which goes on over the old slab, now
 * frozen. Keys already expired when visited are skipped, as Redis's rewrite skips them: any later
 * access would have removed them anyway. Event loop only, like the keyspace.
 */
public final class KeyspaceSnapshot {
    /**
     * Receives each entry of the snapshot: one live key as it was at the start; {@code deadline} is
     * {@link Keyspace#PERSISTENT} or absolute ms. A collection handed out must be read before the
     * call returns: it may be about to change.
     */
    public interface Sink {
        void string(int db, byte[] key, byte[] value, long deadline);

        void hash(int db, byte[] key, HashValue hash, long deadline);

        void set(int db, byte[] key, SetValue set, long deadline);
    }

    private final Keyspace keyspace;
    private final EntrySlab slab;
    private final DeadlineIndex deadlines;
    private final MemberTables tables;
    private final Sink sink;
    /** The database the entries were in at the start, whatever SWAPDB did since. */
    private final int db;
    private final int end;
    /** One bit per id below {@link #end}: already handed out, or born after the start. */
    private final long[] handled;
    private int cursor = 1;

    KeyspaceSnapshot(Keyspace keyspace, EntrySlab slab, DeadlineIndex deadlines, MemberTables tables, Sink sink) {
        this.keyspace = keyspace;
        this.slab = slab;
        this.deadlines = deadlines;
        this.tables = tables;
        this.db = keyspace.index();
        this.sink = sink;
        this.end = slab.idLimit();
        this.handled = new long[(end >>> 6) + 1];
    }

    /** Looks at up to {@code maxIds} more ids, handing out their entries; true once all were handed out. */
    public boolean step(int maxIds) {
        for (int stop = (int) Math.min(end, (long) cursor + maxIds); cursor < stop; cursor++) {
            if (!isHandled(cursor)) {
                emit(cursor);
            }
        }
        return done();
    }

    public boolean done() {
        return cursor >= end;
    }

    /** The entry {@code id} is about to change or go: hand out its old contents if not done yet. */
    void beforeChange(int id) {
        if (id >= cursor && id < end && !isHandled(id)) {
            markHandled(id);
            emit(id);
        }
    }

    /** A new entry got {@code id}: it is not part of the snapshot. */
    void created(int id) {
        if (id < end) {
            markHandled(id);
        }
    }

    private void emit(int id) {
        if (!slab.isLive(id)) {
            return;
        }
        int slot = slab.deadlineSlot(id);
        long deadline = slot == 0 ? Keyspace.PERSISTENT : deadlines.deadline(slot);
        if (slot == 0 || deadline >= keyspace.now()) {
            emit(slab.key(id), Encoding.ofTag(slab.tag(id)), slab.value(id), deadline);
        }
    }

    /** Hands out one entry, read from this snapshot's slab and tables: after a FLUSHALL, not the keyspace's. */
    private void emit(byte[] key, Encoding encoding, byte[] bytes, long deadline) {
        MemberTable table = encoding.table ? tables.get(bytes) : null;
        byte[] compact = encoding.table ? null : bytes;
        switch (encoding.type) {
            case STRING -> sink.string(db, key, bytes, deadline);
            case HASH -> sink.hash(db, key, new HashValue(keyspace, key, 0, encoding, compact, table), deadline);
            case SET -> sink.set(db, key, new SetValue(keyspace, key, 0, encoding, compact, table), deadline);
        }
    }

    private boolean isHandled(int id) {
        return (handled[id >>> 6] & (1L << id)) != 0;
    }

    private void markHandled(int id) {
        handled[id >>> 6] |= 1L << id;
    }
}
