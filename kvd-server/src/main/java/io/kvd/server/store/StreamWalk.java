package io.kvd.server.store;

import java.util.Collection;

/**
 * A snapshot's copy of one stream, entry by entry in steps: its nodes' arrays and used lengths as
 * they were when the snapshot handed the stream out ({@link Stream#startWalk}), which no later
 * change writes into (flagging an entry deleted copies a held array first), and its counters and
 * a copy of its consumer groups of that moment. Each live entry goes to the sink, then the counters with the deadline.
 */
final class StreamWalk implements KeyspaceSnapshot.CollectionWalk {
    private final Stream.Node[] nodes;
    private final byte[][] arrays;
    private final int[] used;
    private final long length;
    private final StreamId lastId;
    private final long entriesAdded;
    private final StreamId maxDeletedId;
    private final Collection<StreamGroup> groups;
    private final KeyspaceSnapshot.Sink sink;
    private final int db;
    private final byte[] key;
    private final long deadline;
    private int node;
    private Stream.Cursor cursor;

    StreamWalk(Stream.Node[] nodes, byte[][] arrays, int[] used, long length, StreamId lastId, long entriesAdded,
               StreamId maxDeletedId, Collection<StreamGroup> groups, KeyspaceSnapshot.Sink sink, int db, byte[] key,
               long deadline) {
        this.nodes = nodes;
        this.arrays = arrays;
        this.used = used;
        this.length = length;
        this.lastId = lastId;
        this.entriesAdded = entriesAdded;
        this.maxDeletedId = maxDeletedId;
        this.groups = groups;
        this.sink = sink;
        this.db = db;
        this.key = key;
        this.deadline = deadline;
    }

    /** Hands out up to {@code maxIds} more entries; true once all were, the counters then passed on. */
    @Override
    public boolean step(int maxIds) {
        for (int i = 0; i < maxIds && node < nodes.length; ) {
            if (cursor == null) {
                Stream.Node held = nodes[node];
                cursor = new Stream.Cursor(arrays[node], used[node], held.masterMs, held.masterSeq, held.masterFields);
            }
            if (!cursor.next()) {
                cursor = null;
                node++;
                continue;
            }
            i++;
            if (!cursor.isDeleted()) {
                sink.streamEntry(db, key, cursor.id(), cursor.fieldsAndValues());
            }
        }
        if (node < nodes.length) {
            return false;
        }
        sink.streamEnd(db, key, length, lastId, entriesAdded, maxDeletedId, groups, deadline);
        return true;
    }

    /** Nothing to detach: the stream does not know of its walks. */
    @Override
    public void stop() {
    }
}
