package io.kvd.server.store;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * A stream's entries and counters, after Redis's stream (t_stream.c): entries in nodes that
 * each pack up to stream-node-max-entries (100) entries or stream-node-max-bytes (4 KB) end to
 * end in one byte[], delta-encoded against the node's master entry (the id and field names of
 * the node's first entry: an entry with the same field names stores only its values). The
 * nodes sit in one array sorted by master id, used as a deque ({@code first}, {@code count}):
 * appending is to the last node, trimming takes nodes off the front, and the node holding an id
 * is a binary search away (10 M entries are 100 K nodes: 17 probes). Redis keeps the nodes in a
 * radix tree keyed by master id; the sorted array does the same with no node per key byte.
 *
 * <p>An entry is {@code [flags][ms delta][seq delta][field count, fields]? values}, the flags a
 * byte ({@link #DELETED}, {@link #SAME_FIELDS}), the deltas varints (the seq delta zigzag, as an
 * entry with a later ms may have a smaller seq), lengths varints. XDEL and trimming inside a
 * node flag entries deleted without rewriting the node, as Redis does; a node whose entries XDEL
 * all deleted goes, and trimming with {@code ~} removes whole nodes only.
 *
 * <p>A node's {@link Node#listpackBytes} is the size Redis's listpack for the same entries would
 * have, so that stream-node-max-bytes splits nodes where Redis does (XINFO and approximate
 * trims see the same nodes). The consumer groups are one more field beside the entries: a map of
 * group name to its {@link StreamGroup}.
 */
final class Stream {
    static final int DELETED = 1;
    static final int SAME_FIELDS = 2;
    /** Redis's STREAM_LISTPACK_MAX_SIZE: stream-node-max-bytes 0 (or more) means this. */
    private static final long MAX_NODE_BYTES = 1L << 30;
    private static final long INSTANCE = HeapSize.ofInstance(Stream.class);
    private static final long NODE_INSTANCE = HeapSize.ofInstance(Node.class);

    /** Visits one live entry: its id and its fields each followed by its value; false stops the walk. */
    @FunctionalInterface
    interface EntryVisitor {
        boolean visit(StreamId id, byte[][] fieldsAndValues);
    }

    /** One node: its master entry and its entries packed in {@code bytes[0, used)}. */
    static final class Node {
        final long masterMs;
        final long masterSeq;
        final byte[][] masterFields;
        byte[] bytes;
        int used;
        int live;
        int deleted;
        /** The last entry's id, deleted or not (Redis's lpGetEdgeStreamID of the last), for MINID trims. */
        long lastMs;
        long lastSeq;
        /** Redis's lpBytes of this node's listpack, but for its live and deleted counters' elements. */
        long listpackBytesButCounters;
        /**
         * A snapshot's walk holds {@code bytes[0, used)} as they were: flagging an entry deleted,
         * the only write into existing bytes, copies the array first; appends write past {@code used}.
         */
        boolean shared;

        Node(StreamId master, byte[][] fields) {
            masterMs = master.ms();
            masterSeq = master.seq();
            masterFields = fields;
            bytes = new byte[64];
            listpackBytesButCounters = 7 + integerElement(fields.length) + integerElement(0);
            for (byte[] field : fields) {
                listpackBytesButCounters += stringElement(field);
            }
        }

        long listpackBytes() {
            return listpackBytesButCounters + integerElement(live) + integerElement(deleted);
        }

        void own() {
            if (shared) {
                bytes = bytes.clone();
                shared = false;
            }
        }

        Node copy() {
            Node copy = new Node(new StreamId(masterMs, masterSeq), masterFields);
            copy.bytes = Arrays.copyOf(bytes, used);
            copy.used = used;
            copy.live = live;
            copy.deleted = deleted;
            copy.lastMs = lastMs;
            copy.lastSeq = lastSeq;
            copy.listpackBytesButCounters = listpackBytesButCounters;
            return copy;
        }
    }

    /** Reads entries of one node's bytes in order; {@link #at} is the next entry's offset. */
    static final class Cursor {
        private final byte[] bytes;
        private final int end;
        private final long masterMs;
        private final long masterSeq;
        private final byte[][] masterFields;
        int at;
        int flags;
        long ms;
        long seq;
        /** Where the current entry's field count or values start. */
        private int body;

        Cursor(byte[] bytes, int end, long masterMs, long masterSeq, byte[][] masterFields) {
            this.bytes = bytes;
            this.end = end;
            this.masterMs = masterMs;
            this.masterSeq = masterSeq;
            this.masterFields = masterFields;
        }

        Cursor(Node node) {
            this(node.bytes, node.used, node.masterMs, node.masterSeq, node.masterFields);
        }

        /** Reads the entry at {@link #at} (its flags and id) and moves {@link #at} past it; false at the end. */
        boolean next() {
            if (at >= end) {
                return false;
            }
            int p = at;
            flags = bytes[p++];
            long msDelta = readVarlong(bytes, p);
            p += varlongLength(msDelta);
            long zigzag = readVarlong(bytes, p);
            p += varlongLength(zigzag);
            ms = masterMs + msDelta;
            seq = masterSeq + ((zigzag >>> 1) ^ -(zigzag & 1));
            body = p;
            int strings;
            if ((flags & SAME_FIELDS) != 0) {
                strings = masterFields.length;
            } else {
                strings = 2 * Varint.read(bytes, p);
                p += Varint.length(strings / 2);
            }
            for (int i = 0; i < strings; i++) {
                int length = Varint.read(bytes, p);
                p += Varint.length(length) + length;
            }
            at = p;
            return true;
        }

        StreamId id() {
            return new StreamId(ms, seq);
        }

        boolean isDeleted() {
            return (flags & DELETED) != 0;
        }

        /** The current entry's fields each followed by its value, as copies. */
        byte[][] fieldsAndValues() {
            int p = body;
            boolean same = (flags & SAME_FIELDS) != 0;
            int fields = same ? masterFields.length : Varint.read(bytes, p);
            if (!same) {
                p += Varint.length(fields);
            }
            byte[][] pairs = new byte[2 * fields][];
            for (int i = 0; i < fields; i++) {
                if (same) {
                    pairs[2 * i] = masterFields[i];
                } else {
                    int length = Varint.read(bytes, p);
                    p += Varint.length(length);
                    pairs[2 * i] = Arrays.copyOfRange(bytes, p, p + length);
                    p += length;
                }
                int length = Varint.read(bytes, p);
                p += Varint.length(length);
                pairs[2 * i + 1] = Arrays.copyOfRange(bytes, p, p + length);
                p += length;
            }
            return pairs;
        }
    }

    private Node[] nodes = new Node[4];
    private int first = 2;
    private int count;
    long length;
    StreamId lastId = StreamId.MIN;
    /** Redis 7.0's recorded-first-entry-id. */
    StreamId firstId = StreamId.MIN;
    StreamId maxDeletedId = StreamId.MIN;
    long entriesAdded;
    /** The consumer groups by name, ordered as Redis's radix tree of them; null until the first. */
    TreeMap<byte[], StreamGroup> groups;

    int nodeCount() {
        return count;
    }

    /**
     * Heap bytes of the stream: this object and its ids, the node array and the nodes, of which
     * the first {@code samples} (all if fewer) are measured and the average counted for every
     * node, as Redis's objectComputeSize samples a stream's listpacks; then the consumer groups,
     * counted whole since all their pending entries are alike.
     */
    long memoryUsage(long samples) {
        long sampled = 0;
        int measured = 0;
        for (; measured < count && measured < samples; measured++) {
            Node node = node(measured);
            sampled += NODE_INSTANCE + HeapSize.of(node.bytes) + HeapSize.of(node.masterFields);
            for (byte[] field : node.masterFields) {
                sampled += HeapSize.of(field);
            }
        }
        long bytes = INSTANCE + 3 * StreamGroup.ID_INSTANCE + HeapSize.of(nodes)
                + (measured == 0 ? 0 : (long) ((double) sampled / measured * count));
        if (groups != null) {
            bytes += StreamGroup.TREE_MAP_INSTANCE;
            for (StreamGroup group : groups.values()) {
                bytes += StreamGroup.TREE_MAP_ENTRY + group.memoryUsage();
            }
        }
        return bytes;
    }

    Node node(int k) {
        return nodes[first + k];
    }

    /**
     * Redis's streamAppendItem with the id already chosen (greater than {@link #lastId}): the
     * fields and values {@code argv[from..]} go into the last node, or a new one when that one
     * holds {@code maxEntries} entries (deleted ones count) or would pass {@code maxBytes}.
     */
    void append(StreamId id, byte[][] argv, int from, long maxBytes, long maxEntries) {
        int fields = (argv.length - from) / 2;
        long valueBytes = 0;
        for (int i = from; i < argv.length; i++) {
            valueBytes += argv[i].length;
        }
        Node tail = count == 0 ? null : node(count - 1);
        long nodeMaxBytes = maxBytes == 0 || maxBytes > MAX_NODE_BYTES ? MAX_NODE_BYTES : maxBytes;
        if (tail != null && (tail.listpackBytes() + valueBytes >= nodeMaxBytes
                || maxEntries != 0 && tail.live + tail.deleted >= maxEntries)) {
            if (!tail.shared) {
                tail.bytes = Arrays.copyOf(tail.bytes, tail.used);
            }
            tail = null;
        }
        boolean same;
        if (tail == null) {
            byte[][] masterFields = new byte[fields][];
            for (int i = 0; i < fields; i++) {
                masterFields[i] = argv[from + 2 * i].clone();
            }
            tail = new Node(id, masterFields);
            insertNode(count, tail);
            same = true;
        } else {
            same = tail.masterFields.length == fields;
            for (int i = 0; same && i < fields; i++) {
                same = Arrays.equals(tail.masterFields[i], argv[from + 2 * i]);
            }
        }
        long msDelta = id.ms() - tail.masterMs;
        long seqDelta = id.seq() - tail.masterSeq;
        int flags = same ? SAME_FIELDS : 0;
        int size = 1 + varlongLength(msDelta) + varlongLength(zigzag(seqDelta)) + (same ? 0 : Varint.length(fields));
        long listpackBytes = integerElement(flags) + integerElement(msDelta) + integerElement(seqDelta)
                + integerElement(same ? fields + 3 : 2 * fields + 4);
        if (!same) {
            listpackBytes += integerElement(fields);
        }
        for (int i = from; i < argv.length; i++) {
            boolean field = (i - from) % 2 == 0;
            if (!same || !field) {
                size += Varint.length(argv[i].length) + argv[i].length;
                listpackBytes += stringElement(argv[i]);
            }
        }
        if (tail.used + size > tail.bytes.length) {
            tail.bytes = Arrays.copyOf(tail.bytes, Math.max(tail.used + size, 2 * tail.bytes.length));
            tail.shared = false;
        }
        byte[] bytes = tail.bytes;
        int at = tail.used;
        bytes[at++] = (byte) flags;
        at = writeVarlong(bytes, at, msDelta);
        at = writeVarlong(bytes, at, zigzag(seqDelta));
        if (!same) {
            at = Varint.write(bytes, at, fields);
        }
        for (int i = from; i < argv.length; i++) {
            if (!same || (i - from) % 2 == 1) {
                at = Varint.write(bytes, at, argv[i].length);
                System.arraycopy(argv[i], 0, bytes, at, argv[i].length);
                at += argv[i].length;
            }
        }
        tail.used = at;
        tail.live++;
        tail.lastMs = id.ms();
        tail.lastSeq = id.seq();
        tail.listpackBytesButCounters += listpackBytes;
        if (length == 0) {
            firstId = id;
        }
        length++;
        lastId = id;
        entriesAdded++;
    }

    /**
     * Visits the live entries with ids in {@code [start, end]}, ascending, or descending when
     * {@code reverse}, until the visitor says false (Redis's streamIterator).
     */
    void range(StreamId start, StreamId end, boolean reverse, EntryVisitor visitor) {
        if (start.compareTo(end) > 0 || count == 0) {
            return;
        }
        if (!reverse) {
            for (int k = Math.max(0, nodeAtOrBefore(start)); k < count; k++) {
                Cursor cursor = new Cursor(node(k));
                while (cursor.next()) {
                    if (cursor.isDeleted()) {
                        continue;
                    }
                    StreamId id = cursor.id();
                    if (id.compareTo(start) < 0) {
                        continue;
                    }
                    if (id.compareTo(end) > 0 || !visitor.visit(id, cursor.fieldsAndValues())) {
                        return;
                    }
                }
            }
            return;
        }
        for (int k = nodeAtOrBefore(end); k >= 0; k--) {
            Node node = node(k);
            int[] offsets = new int[node.live + node.deleted];
            Cursor cursor = new Cursor(node);
            int entries = 0;
            for (int at = 0; cursor.next(); at = cursor.at) {
                offsets[entries++] = at;
            }
            for (int i = entries - 1; i >= 0; i--) {
                cursor.at = offsets[i];
                cursor.next();
                if (cursor.isDeleted()) {
                    continue;
                }
                StreamId id = cursor.id();
                if (id.compareTo(end) > 0) {
                    continue;
                }
                if (id.compareTo(start) < 0 || !visitor.visit(id, cursor.fieldsAndValues())) {
                    return;
                }
            }
        }
    }

    /** The first or last live entry's id, or null when there is none (Redis's streamGetEdgeID skipping tombstones). */
    StreamId edge(boolean firstEntry) {
        StreamId[] found = {null};
        range(StreamId.MIN, StreamId.MAX, !firstEntry, (id, fieldsAndValues) -> {
            found[0] = id;
            return false;
        });
        return found[0];
    }

    /** Whether {@code id} is a live entry. */
    boolean contains(StreamId id) {
        boolean[] found = {false};
        range(id, id, false, (entryId, fieldsAndValues) -> {
            found[0] = true;
            return false;
        });
        return found[0];
    }

    /** Redis's streamDeleteItem: flags the live entry {@code id} deleted; false if there is none. */
    boolean delete(StreamId id) {
        int k = nodeAtOrBefore(id);
        if (k < 0) {
            return false;
        }
        Node node = node(k);
        Cursor cursor = new Cursor(node);
        for (int at = 0; cursor.next(); at = cursor.at) {
            int order = cursor.id().compareTo(id);
            if (order > 0) {
                return false;
            }
            if (order == 0 && !cursor.isDeleted()) {
                if (node.live == 1) {
                    removeNode(k);
                } else {
                    flagDeleted(node, at);
                }
                length--;
                return true;
            }
        }
        return false;
    }

    /**
     * Redis's streamTrim: removes the oldest entries while there are more than {@code maxLength}
     * (or, with {@code minId} set, while they are below it); whole nodes first, then, unless
     * {@code approximate}, entries of the next node flagged deleted. {@code limit} (0: none)
     * stops before a node that would take the count past it. {@code beforeChange} runs once
     * before the first entry goes. Returns how many entries went.
     */
    long trim(long maxLength, StreamId minId, boolean approximate, long limit, Runnable beforeChange) {
        long removed = 0;
        while (count > 0) {
            if (minId == null && length <= maxLength) {
                break;
            }
            Node node = node(0);
            int entries = node.live;
            if (limit != 0 && removed + entries > limit) {
                break;
            }
            boolean wholeNode = minId == null ? length - entries >= maxLength
                    : new StreamId(node.lastMs, node.lastSeq).compareTo(minId) < 0;
            if (wholeNode) {
                if (removed == 0) {
                    beforeChange.run();
                }
                removeNode(0);
                length -= entries;
                removed += entries;
                continue;
            }
            if (approximate) {
                break;
            }
            Cursor cursor = new Cursor(node);
            for (int at = 0; cursor.next(); at = cursor.at) {
                if (minId == null ? length <= maxLength : cursor.id().compareTo(minId) >= 0) {
                    break;
                }
                if (!cursor.isDeleted()) {
                    if (removed == 0) {
                        beforeChange.run();
                    }
                    flagDeleted(node, at);
                    length--;
                    removed++;
                }
            }
            break;
        }
        if (removed > 0) {
            StreamId edge = edge(true);
            firstId = edge == null ? StreamId.MIN : edge;
        }
        return removed;
    }

    /**
     * XINFO's radix-tree-nodes: the nodes Redis's radix tree would have with the master ids as
     * its keys (16 bytes each, big-endian ms then seq): the root, every key, every position where
     * keys branch, and every child of such a position; a run of single-child positions is one node.
     */
    long radixTreeNodes() {
        HashSet<String> positions = new HashSet<>();
        byte[] previous = null;
        for (int k = 0; k < count; k++) {
            byte[] key = radixKey(node(k));
            positions.add(new String(key, ISO_8859_1));
            if (previous != null) {
                int common = Arrays.mismatch(previous, key);
                positions.add(new String(key, 0, common, ISO_8859_1));
                positions.add(new String(previous, 0, common + 1, ISO_8859_1));
                positions.add(new String(key, 0, common + 1, ISO_8859_1));
            }
            previous = key;
        }
        positions.add("");
        return positions.size();
    }

    private static byte[] radixKey(Node node) {
        byte[] key = new byte[16];
        for (int i = 0; i < 8; i++) {
            key[i] = (byte) (node.masterMs >>> (56 - 8 * i));
            key[8 + i] = (byte) (node.masterSeq >>> (56 - 8 * i));
        }
        return key;
    }

    /** A deep copy (COPY). */
    Stream copy() {
        Stream copy = new Stream();
        for (int k = 0; k < count; k++) {
            copy.insertNode(k, node(k).copy());
        }
        copy.length = length;
        copy.lastId = lastId;
        copy.firstId = firstId;
        copy.maxDeletedId = maxDeletedId;
        copy.entriesAdded = entriesAdded;
        copy.groups = copyGroups();
        return copy;
    }

    /** A deep copy of the groups, or null if there are none. */
    TreeMap<byte[], StreamGroup> copyGroups() {
        if (groups == null) {
            return null;
        }
        TreeMap<byte[], StreamGroup> copy = new TreeMap<>(Arrays::compareUnsigned);
        for (StreamGroup group : groups.values()) {
            copy.put(group.name, group.copy());
        }
        return copy;
    }

    /** Starts a snapshot's copy of the entries as they are now; the stream goes on changing meanwhile. */
    StreamWalk startWalk(KeyspaceSnapshot.Sink sink, int db, byte[] key, long deadline) {
        Node[] held = new Node[count];
        int[] used = new int[count];
        byte[][] arrays = new byte[count][];
        for (int k = 0; k < count; k++) {
            Node node = node(k);
            node.shared = true;
            held[k] = node;
            arrays[k] = node.bytes;
            used[k] = node.used;
        }
        // The groups are copied whole now: their pending entries change in place.
        TreeMap<byte[], StreamGroup> groupsNow = copyGroups();
        return new StreamWalk(held, arrays, used, length, lastId, entriesAdded, maxDeletedId,
                groupsNow == null ? List.of() : groupsNow.values(), sink, db, key, deadline);
    }

    void checkInvariants() {
        long live = 0;
        StreamId previous = null;
        for (int k = 0; k < count; k++) {
            Node node = node(k);
            Cursor cursor = new Cursor(node);
            int entries = 0;
            int liveInNode = 0;
            while (cursor.next()) {
                entries++;
                if (!cursor.isDeleted()) {
                    liveInNode++;
                }
                StreamId id = cursor.id();
                Invariants.check(previous == null || id.compareTo(previous) > 0, "stream ids out of order");
                previous = id;
            }
            Invariants.check(liveInNode == node.live && entries == node.live + node.deleted, "node counts wrong");
            live += liveInNode;
        }
        Invariants.check(live == length, "stream length " + length + " but " + live + " live entries");
        Invariants.check(previous == null || lastId.compareTo(previous) >= 0, "last id below an entry");
    }

    private void flagDeleted(Node node, int at) {
        node.own();
        node.bytes[at] |= DELETED;
        node.live--;
        node.deleted++;
    }

    /** The index of the last node whose master id is at most {@code id}, or -1. */
    private int nodeAtOrBefore(StreamId id) {
        int low = 0;
        int high = count - 1;
        int found = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Node node = node(middle);
            int order = Long.compareUnsigned(node.masterMs, id.ms());
            if (order == 0) {
                order = Long.compareUnsigned(node.masterSeq, id.seq());
            }
            if (order <= 0) {
                found = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return found;
    }

    private void insertNode(int k, Node node) {
        if (first + count == nodes.length) {
            Node[] grown = new Node[Math.max(8, 2 * count + 4)];
            int at = (grown.length - count) / 4;
            System.arraycopy(nodes, first, grown, at, count);
            nodes = grown;
            first = at;
        }
        System.arraycopy(nodes, first + k, nodes, first + k + 1, count - k);
        nodes[first + k] = node;
        count++;
    }

    private void removeNode(int k) {
        if (k == 0) {
            nodes[first++] = null;
        } else {
            System.arraycopy(nodes, first + k + 1, nodes, first + k, count - k - 1);
            nodes[first + count - 1] = null;
        }
        count--;
        if (count == 0) {
            first = nodes.length / 4;
        }
    }

    private static long zigzag(long n) {
        return (n << 1) ^ (n >> 63);
    }

    private static int varlongLength(long n) {
        int length = 1;
        for (; (n & ~0x7fL) != 0; n >>>= 7) {
            length++;
        }
        return length;
    }

    private static long readVarlong(byte[] bytes, int at) {
        long n = 0;
        for (int shift = 0; ; at++, shift += 7) {
            int b = bytes[at];
            n |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return n;
            }
        }
    }

    private static int writeVarlong(byte[] bytes, int at, long n) {
        for (; (n & ~0x7fL) != 0; n >>>= 7) {
            bytes[at++] = (byte) (n | 0x80);
        }
        bytes[at] = (byte) n;
        return at + 1;
    }

    /** Bytes of a listpack element holding the integer {@code v}, its back length included (listpack.c). */
    static int integerElement(long v) {
        int encoded = v >= 0 && v <= 127 ? 1 : v >= -4096 && v <= 4095 ? 2 : v >= -32768 && v <= 32767 ? 3
                : v >= -8388608 && v <= 8388607 ? 4 : v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? 5 : 9;
        return encoded + 1;
    }

    /** Bytes of a listpack element holding {@code s}: an integer if it reads as one, as lpAppend stores it. */
    static int stringElement(byte[] s) {
        Long integer = s.length <= 20 ? listpackInteger(s) : null;
        if (integer != null) {
            return integerElement(integer);
        }
        int encoded = s.length < 64 ? 1 + s.length : s.length < 4096 ? 2 + s.length : 5 + s.length;
        int backLength = encoded <= 127 ? 1 : encoded < 16383 ? 2 : encoded < 2097151 ? 3 : encoded < 268435455 ? 4 : 5;
        return encoded + backLength;
    }

    /** Redis's string2ll as lpStringToInt64 uses it: digits with an optional '-', no leading zero, no "-0". */
    private static Long listpackInteger(byte[] s) {
        if (s.length == 1 && s[0] == '0') {
            return 0L;
        }
        boolean negative = s.length > 0 && s[0] == '-';
        int at = negative ? 1 : 0;
        if (at >= s.length || s[at] < '1' || s[at] > '9') {
            return null;
        }
        long value = 0;
        try {
            for (; at < s.length; at++) {
                int digit = s[at] - '0';
                if (digit < 0 || digit > 9) {
                    return null;
                }
                value = Math.subtractExact(Math.multiplyExact(value, 10), digit);
            }
            return negative ? value : Math.negateExact(value);
        } catch (ArithmeticException e) {
            return null;
        }
    }
}
