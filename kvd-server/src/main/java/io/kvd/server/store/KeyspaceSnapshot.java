package io.kvd.server.store;

import java.util.ArrayDeque;
import java.util.Collection;

/**
 * A point-in-time copy of the keyspace, taken without stopping it (Java has no fork): entries are
 * visited in ascending id order in small {@link #step steps} between commands, and the keyspace
 * calls {@link #beforeChange} before it changes or removes an entry the traversal has not
 * reached, so that entry's old contents are handed out first ({@link IdWalk}). Every entry live
 * at the start is therefore handed out exactly once, as it was at the start; entries created
 * afterwards never are. Changes made after the start are the caller's to record (the AOF's
 * rewrite buffer).
 *
 * <p>A large collection (a {@link MemberTable}) is copied the same way one level down, by a
 * {@link MemberWalk} over its members started when the entry is handed out; those walks are
 * stepped first, out of the same budget, and the snapshot is done when the last one is. Bucket
 * moves of the hash tables' incremental rehash do not change ids and need no care. A FLUSHALL
 * replaces the slab and detaches the snapshot, which goes on over the old slab and tables, now
 * frozen. Keys already expired when visited are skipped, as Redis's rewrite skips them: any later
 * access would have removed them anyway. Event loop only, like the keyspace.
 */
public final class KeyspaceSnapshot {
    /**
     * Receives each entry of the snapshot: one live key as it was at the start; {@code deadline} is
     * {@link Keyspace#PERSISTENT} or absolute ms. A collection comes as its members, in batches
     * ({@link #members}) that may be interleaved with other keys' records, then {@link #membersEnd}.
     */
    public interface Sink {
        void string(int db, byte[] key, byte[] value, long deadline);

        /**
         * Some members of the hash, set, list or sorted set {@code key}: {@code elements[0, length)}
         * are a set's members, a list's elements in order, a hash's fields each followed by its
         * value, or a sorted set's members each followed by its score's 8 bytes
         * ({@link ZSetValue#decodeScore}). The array is reused once the call returns.
         */
        void members(int db, byte[] key, ValueType type, byte[][] elements, int length);

        /** Every member of the collection {@code key} was handed out; {@code deadline} is its deadline. */
        void membersEnd(int db, byte[] key, long deadline);

        /** One live entry of the stream {@code key}, in order: its id, its fields each followed by its value. */
        void streamEntry(int db, byte[] key, StreamId id, byte[][] fieldsAndValues);

        /**
         * Every live entry of the stream {@code key} was handed out: its length, last id, entries
         * added and largest deleted id, its consumer groups (copies, by name) and its deadline.
         */
        void streamEnd(int db, byte[] key, long length, StreamId lastId, long entriesAdded, StreamId maxDeletedId,
                       Collection<StreamGroup> groups, long deadline);
    }

    /** A large collection's copy in progress, stepped out of the snapshot's budget. */
    interface CollectionWalk {
        /** Looks at up to {@code maxIds} more members; true once all were handed out, the walk then ended. */
        boolean step(int maxIds);

        /** Stops being told of the collection's changes (finished, or the snapshot abandoned). */
        void stop();
    }

    private final Keyspace keyspace;
    private final EntrySlab slab;
    private final DeadlineIndex deadlines;
    private final MemberTables tables;
    private final int membersPerBatch;
    private final Sink sink;
    /** The database the entries were in at the start, whatever SWAPDB did since. */
    private final int db;
    private final IdWalk ids;
    /** The large collections handed out whose members are not all handed out yet, stepped in turn. */
    private final ArrayDeque<CollectionWalk> walks = new ArrayDeque<>();

    KeyspaceSnapshot(Keyspace keyspace, EntrySlab slab, DeadlineIndex deadlines, MemberTables tables,
                     int membersPerBatch, Sink sink) {
        this.keyspace = keyspace;
        this.slab = slab;
        this.deadlines = deadlines;
        this.tables = tables;
        this.membersPerBatch = membersPerBatch;
        this.db = keyspace.index();
        this.sink = sink;
        this.ids = new IdWalk(slab.idLimit(), this::emit);
    }

    /**
     * Looks at up to {@code maxIds} more ids: members of the collection being walked, or else
     * entries, handing out what they hold; true once all were handed out.
     */
    public boolean step(int maxIds) {
        CollectionWalk walk = walks.peek();
        if (walk == null) {
            ids.step(maxIds);
        } else if (walk.step(maxIds)) {
            walks.poll();
        }
        return done();
    }

    public boolean done() {
        return ids.done() && walks.isEmpty();
    }

    /** The entry {@code id} is about to change or go: hand out its old contents if not done yet. */
    void beforeChange(int id) {
        ids.beforeChange(id);
    }

    /** A new entry got {@code id}: it is not part of the snapshot. */
    void created(int id) {
        ids.created(id);
    }

    /** Detaches the walks of collections not finished (the snapshot was abandoned). */
    void stopMemberWalks() {
        walks.forEach(CollectionWalk::stop);
        walks.clear();
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

    /**
     * Hands out one entry, read from this snapshot's slab and tables: after a FLUSHALL, not the
     * keyspace's. A compact collection goes out whole; a table starts its walk.
     */
    private void emit(byte[] key, Encoding encoding, byte[] bytes, long deadline) {
        if (encoding.type == ValueType.STRING) {
            sink.string(db, key, bytes, deadline);
        } else if (encoding == Encoding.STREAM) {
            walks.add(tables.stream(bytes).startWalk(sink, db, key, deadline));
        } else if (encoding == Encoding.LIST_QUICKLIST) {
            walks.add(tables.list(bytes).startWalk(new MemberBatch(sink, db, key, encoding.type, membersPerBatch),
                    deadline));
        } else if (encoding.type == ValueType.LIST) {
            ListValue list = new ListValue(keyspace, key, 0, encoding, bytes, null);
            MemberBatch batch = new MemberBatch(sink, db, key, encoding.type,
                    (int) Math.min(list.size(), membersPerBatch));
            list.forEach(element -> batch.add(element, null));
            batch.end(deadline);
        } else if (encoding.table) {
            walks.add(tables.get(bytes).startWalk(new MemberBatch(sink, db, key, encoding.type, membersPerBatch),
                    deadline));
        } else if (encoding.type == ValueType.HASH) {
            HashValue hash = new HashValue(keyspace, key, 0, encoding, bytes, null);
            MemberBatch batch = new MemberBatch(sink, db, key, encoding.type, Math.min(hash.size(), membersPerBatch));
            hash.forEach(batch::add);
            batch.end(deadline);
        } else if (encoding.type == ValueType.ZSET) {
            ZSetValue zset = new ZSetValue(keyspace, key, 0, encoding, bytes, null);
            MemberBatch batch = new MemberBatch(sink, db, key, encoding.type, Math.min(zset.size(), membersPerBatch));
            for (int rank = 0, size = zset.size(); rank < size; rank++) {
                batch.add(zset.memberAt(rank), MemberTable.scoreBytes(zset.scoreAt(rank)));
            }
            batch.end(deadline);
        } else {
            SetValue set = new SetValue(keyspace, key, 0, encoding, bytes, null);
            MemberBatch batch = new MemberBatch(sink, db, key, encoding.type, Math.min(set.size(), membersPerBatch));
            set.forEach(member -> batch.add(member, null));
            batch.end(deadline);
        }
    }
}
