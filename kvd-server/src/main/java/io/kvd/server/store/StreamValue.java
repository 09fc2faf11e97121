package io.kvd.server.store;

/**
 * The stream stored under one key, for the command running: got from {@link Keyspace#stream} or
 * {@link Keyspace#streamForWrite} and dropped when the command ends. The entries are a
 * {@link Stream} held by handle ({@link Encoding#STREAM}) and changed in place, the keyspace told
 * first; one got for writing that does not exist yet is created by its first entry. Unlike the
 * other collections a stream stays when its last entry goes (Redis keeps its last id).
 */
public final class StreamValue {
    private final Keyspace keyspace;
    private final byte[] key;
    private int id;
    private final Stream stream;

    StreamValue(Keyspace keyspace, byte[] key, int id, Stream stream) {
        this.keyspace = keyspace;
        this.key = key;
        this.id = id;
        this.stream = stream;
    }

    public long length() {
        return stream.length;
    }

    public StreamId lastId() {
        return stream.lastId;
    }

    /** Redis 7.0's recorded-first-entry-id. */
    public StreamId recordedFirstId() {
        return stream.firstId;
    }

    public StreamId maxDeletedId() {
        return stream.maxDeletedId;
    }

    public long entriesAdded() {
        return stream.entriesAdded;
    }

    /** XINFO's radix-tree-nodes, as Redis's radix tree of this stream's nodes would count them. */
    public long radixTreeNodes() {
        return stream.radixTreeNodes();
    }

    /** Nodes of entries (XINFO's radix-tree-keys). */
    public int nodeCount() {
        return stream.nodeCount();
    }

    /**
     * The id XADD would give: {@code ms-seq} as given when {@code seqGiven}, {@code ms-*} the next
     * seq of {@code ms} (0 past the last ms), {@code *} ({@code given} null) the time or, if the
     * clock is behind, the last id's next seq (Redis's streamNextID). Null when that id is not
     * greater than the last one (or none is left after it).
     */
    public StreamId nextId(StreamId given, boolean seqGiven) {
        StreamId last = stream.lastId;
        if (given == null) {
            long now = keyspace.now();
            return Long.compareUnsigned(now, last.ms()) > 0 ? new StreamId(now, 0) : last.next();
        }
        if (!seqGiven) {
            if (given.ms() == last.ms()) {
                return last.seq() == -1 ? null : new StreamId(last.ms(), last.seq() + 1);
            }
            given = new StreamId(given.ms(), 0);
        }
        return given.compareTo(last) > 0 ? given : null;
    }

    /** Appends the entry {@code entryId} (from {@link #nextId}) of the fields and values {@code argv[from..]}. */
    public void add(StreamId entryId, byte[][] argv, int from) {
        EncodingLimits limits = keyspace.limits();
        change();
        stream.append(entryId, argv, from, limits.streamNodeMaxBytes(), limits.streamNodeMaxEntries());
    }

    /**
     * Trims to at most {@code maxLength} entries, or (with {@code minId}) the entries below it;
     * returns how many went. See {@link Stream#trim}.
     */
    public long trim(long maxLength, StreamId minId, boolean approximate, long limit) {
        return stream.trim(maxLength, minId, approximate, limit, this::change);
    }

    /** XDEL: deletes the entries {@code ids} that exist; returns how many, keeping the counters as Redis 7.0. */
    public int delete(StreamId[] ids) {
        int deleted = 0;
        boolean firstDeleted = false;
        for (StreamId entryId : ids) {
            if (!stream.contains(entryId)) {
                continue;
            }
            if (deleted == 0) {
                change();
            }
            if (stream.delete(entryId)) {
                firstDeleted |= entryId.equals(stream.firstId);
                if (entryId.compareTo(stream.maxDeletedId) > 0) {
                    stream.maxDeletedId = entryId;
                }
                deleted++;
            }
        }
        if (deleted > 0) {
            if (stream.length == 0) {
                stream.firstId = StreamId.MIN;
            } else if (firstDeleted) {
                stream.firstId = stream.edge(true);
            }
        }
        return deleted;
    }

    /** XSETID: the last id, and the counters given (entries added -1 and max deleted id 0-0 keep theirs). */
    public void setId(StreamId lastId, long entriesAdded, StreamId maxDeletedId) {
        change();
        stream.lastId = lastId;
        if (entriesAdded != -1) {
            stream.entriesAdded = entriesAdded;
        }
        if (!maxDeletedId.isZero()) {
            stream.maxDeletedId = maxDeletedId;
        }
    }

    /** The first or last live entry's id, or null when the stream has none. */
    public StreamId edge(boolean first) {
        return stream.edge(first);
    }

    /**
     * Visits the live entries with ids in {@code [start, end]}, ascending or descending, until the
     * visitor says false; the arrays handed out are copies.
     */
    public void range(StreamId start, StreamId end, boolean reverse, EntryVisitor visitor) {
        stream.range(start, end, reverse, visitor::visit);
    }

    /** Visits one entry: its id and its fields each followed by its value; false stops the walk. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(StreamId id, byte[][] fieldsAndValues);
    }

    /** The stream is about to change in place: creates the key first, or tells the keyspace (a snapshot copies it). */
    private void change() {
        if (id == 0) {
            id = keyspace.storeTable(0, key, Encoding.STREAM, stream);
        } else {
            keyspace.beforeTableChange(id);
        }
    }
}
