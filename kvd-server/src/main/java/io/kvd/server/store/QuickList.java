package io.kvd.server.store;

import java.util.Arrays;

/**
 * A large list, after Redis's quicklist: a deque of nodes, each a byte[] packing up to
 * list-max-listpack-size of elements end to end, so 10 M elements are ~1 K arrays for the
 * collector and no object per element. Inside a node each element is {@code [length][bytes][back
 * length]} (the back length read from its end, as a listpack's backlen) between {@code start} and
 * {@code end}, with slack on both sides: a push or pop at either end moves no other element, and
 * an element near either end is reached by walking nodes from that end (an element in the middle
 * of 10 M costs a walk over half the nodes' counts, as Redis's quicklist).
 *
 * <p>Changes inside a node (LSET, LINSERT, LREM) rewrite that node only (≤ 8 KB by default); a
 * node grown past the limit by LINSERT is split in two. Nodes emptied are removed; neighbours are
 * not merged (Redis merges small ones; here a node of one element after many LREMs stays one).
 */
final class QuickList {
    /** Visits an element where it lies, without a copy; false stops the walk. */
    @FunctionalInterface
    interface ElementVisitor {
        boolean visit(byte[] bytes, int offset, int length);
    }

    /** Redis's SIZE_SAFETY_LIMIT: a node of a count-limited list still stays under 8 KB. */
    private static final int SIZE_SAFETY_LIMIT = 8192;
    private static final int SLACK = 16;
    private static final long INSTANCE = HeapSize.ofInstance(QuickList.class);
    private static final long NODE_INSTANCE = HeapSize.ofInstance(Node.class);

    /** One node: its elements between {@code start} and {@code end} of {@code bytes}. */
    private static final class Node {
        byte[] bytes;
        int start;
        int end;
        int count;
        /**
         * A snapshot's walk holds {@code bytes[start, end)} as they were ({@link #startWalk}):
         * a push, the only write into an array in place, copies the array first. Every other
         * change (a pop, a trim) moves start or end, or builds a new array.
         */
        boolean shared;

        /** Makes the array this node's own before a push writes into its slack. */
        void own() {
            if (shared) {
                bytes = bytes.clone();
                shared = false;
            }
        }

        Node(int capacity) {
            bytes = new byte[capacity];
            start = end = capacity / 2;
        }

        int size() {
            return end - start;
        }

        Node copy() {
            Node copy = new Node(0);
            copy.bytes = bytes.clone();
            copy.start = start;
            copy.end = end;
            copy.count = count;
            return copy;
        }
    }

    /** list-max-listpack-size: negative, node bytes of 4 KB << (-fill - 1); positive, elements per node. */
    private int fill;
    private Node[] nodes = new Node[4];
    private int first = 2;
    private int nodeCount;
    private long size;
    /** The element index inside the node {@link #locate} found. */
    private int located;

    QuickList(int fill) {
        this.fill = fill;
    }

    void setFill(int fill) {
        this.fill = fill;
    }

    long size() {
        return size;
    }

    int nodeCount() {
        return nodeCount;
    }

    /**
     * Heap bytes of the list: this object, its node array and its nodes, of which the first
     * {@code samples} (all if fewer) are measured and the average counted for every node, as
     * Redis's objectComputeSize samples quicklist nodes. A node's array includes its slack.
     */
    long memoryUsage(long samples) {
        long sampled = 0;
        int measured = 0;
        for (; measured < nodeCount && measured < samples; measured++) {
            sampled += NODE_INSTANCE + HeapSize.of(node(measured).bytes);
        }
        long nodesBytes = measured == 0 ? 0 : (long) ((double) sampled / measured * nodeCount);
        return INSTANCE + HeapSize.of(nodes) + nodesBytes;
    }

    /** A list of one node holding the elements of {@code listpack} ({@link Listpack}'s format). */
    static QuickList fromListpack(byte[] listpack, int fill) {
        QuickList list = new QuickList(fill);
        int count = Listpack.count(listpack);
        int at = Listpack.first(listpack);
        Node node = new Node(2 * listpack.length + SLACK);
        node.start = node.end = listpack.length / 4;
        for (int i = 0; i < count; i++) {
            int length = Varint.read(listpack, at);
            int from = at + Varint.length(length);
            node.end = write(node.bytes, node.end, listpack, from, length);
            at = from + length;
        }
        node.count = count;
        if (count > 0) {
            list.insertNode(0, node);
            list.size = count;
        }
        return list;
    }

    /** The elements in {@link Listpack}'s format. */
    byte[] toListpack() {
        long bytes = Varint.length((int) size);
        for (int k = 0; k < nodeCount; k++) {
            bytes += node(k).size();
        }
        byte[] listpack = new byte[(int) bytes];
        int[] at = {Varint.write(listpack, 0, (int) size)};
        walk(0, false, (b, offset, length) -> {
            at[0] = Varint.write(listpack, at[0], length);
            System.arraycopy(b, offset, listpack, at[0], length);
            at[0] += length;
            return true;
        });
        return Arrays.copyOf(listpack, at[0]);
    }

    /** Whether the list fits one node of the limit, so may be packed in the entry. */
    boolean fitsOneNode() {
        return nodeCount <= 1 && (nodeCount == 0 || withinLimit(node(0).size(), node(0).count));
    }

    void pushFirst(byte[] element) {
        Node head = nodeCount == 0 ? null : node(0);
        if (head == null || !allows(head, element.length)) {
            if (head != null) {
                fit(head);
            }
            head = new Node(encodedSize(element.length) + SLACK);
            head.start = head.end = head.bytes.length - SLACK / 2;
            insertNode(0, head);
        }
        int needed = encodedSize(element.length);
        head.own();
        if (head.start < needed) {
            regrow(head, needed, 0);
        }
        head.start -= needed;
        write(head.bytes, head.start, element, 0, element.length);
        head.count++;
        size++;
    }

    void pushLast(byte[] element) {
        Node tail = nodeCount == 0 ? null : node(nodeCount - 1);
        if (tail == null || !allows(tail, element.length)) {
            if (tail != null) {
                fit(tail);
            }
            tail = new Node(encodedSize(element.length) + SLACK);
            tail.start = tail.end = SLACK / 2;
            insertNode(nodeCount, tail);
        }
        int needed = encodedSize(element.length);
        tail.own();
        if (tail.bytes.length - tail.end < needed) {
            regrow(tail, 0, needed);
        }
        tail.end = write(tail.bytes, tail.end, element, 0, element.length);
        tail.count++;
        size++;
    }

    /** Removes and returns the first element; the list must not be empty. */
    byte[] popFirst() {
        Node head = node(0);
        int length = Varint.read(head.bytes, head.start);
        int from = head.start + Varint.length(length);
        byte[] element = Arrays.copyOfRange(head.bytes, from, from + length);
        head.start = from + length + Varint.length(length);
        removed(0, head, 1);
        return element;
    }

    /** Removes and returns the last element; the list must not be empty. */
    byte[] popLast() {
        int k = nodeCount - 1;
        Node tail = node(k);
        int at = previous(tail.bytes, tail.end);
        int length = Varint.read(tail.bytes, at);
        int from = at + Varint.length(length);
        byte[] element = Arrays.copyOfRange(tail.bytes, from, from + length);
        tail.end = at;
        removed(k, tail, 1);
        return element;
    }

    /** A copy of the element at {@code index}, 0 to size - 1. */
    byte[] get(long index) {
        int k = locate(index);
        Node node = node(k);
        int at = position(node, located);
        int length = Varint.read(node.bytes, at);
        int from = at + Varint.length(length);
        return Arrays.copyOfRange(node.bytes, from, from + length);
    }

    /** Replaces the element at {@code index}, 0 to size - 1. */
    void set(long index, byte[] element) {
        int k = locate(index);
        Node node = node(k);
        int at = position(node, located);
        splice(node, at, next(node.bytes, at), element);
        splitIfOver(k);
    }

    /** Inserts {@code element} so that it is at {@code index}, 0 to size. */
    void insert(long index, byte[] element) {
        if (index == 0) {
            pushFirst(element);
            return;
        }
        if (index == size) {
            pushLast(element);
            return;
        }
        int k = locate(index);
        Node node = node(k);
        int at = position(node, located);
        splice(node, at, at, element);
        node.count++;
        size++;
        splitIfOver(k);
    }

    /** Removes the first {@code n} elements, at most size. */
    void removeFirst(long n) {
        while (n > 0) {
            Node head = node(0);
            if (head.count <= n) {
                n -= head.count;
                removed(0, head, head.count);
            } else {
                head.start = position(head, (int) n);
                removed(0, head, (int) n);
                compactIfSparse(head);
                n = 0;
            }
        }
    }

    /** Removes the last {@code n} elements, at most size. */
    void removeLast(long n) {
        while (n > 0) {
            int k = nodeCount - 1;
            Node tail = node(k);
            if (tail.count <= n) {
                n -= tail.count;
                removed(k, tail, tail.count);
            } else {
                tail.end = position(tail, tail.count - (int) n);
                removed(k, tail, (int) n);
                compactIfSparse(tail);
                n = 0;
            }
        }
    }

    /**
     * LREM: removes elements equal to {@code value}, at most {@code limit} of them (0: all), the
     * first ones, or the last ones {@code fromTail}; returns how many. Only nodes holding a match
     * are rewritten; {@code beforeChange} runs once before the first is.
     */
    long removeAll(byte[] value, long limit, boolean fromTail, Runnable beforeChange) {
        long removed = 0;
        for (int i = 0; i < nodeCount && (limit == 0 || removed < limit); ) {
            int k = fromTail ? nodeCount - 1 - i : i;
            Node node = node(k);
            int matches = 0;
            for (int at = node.start; at < node.end; at = next(node.bytes, at)) {
                if (equalAt(node.bytes, at, value)) {
                    matches++;
                }
            }
            if (matches == 0) {
                i++;
                continue;
            }
            if (removed == 0) {
                beforeChange.run();
            }
            int take = limit == 0 ? matches : (int) Math.min(matches, limit - removed);
            // From the tail, the node's last matches go: skip its first ones.
            int skip = fromTail ? matches - take : 0;
            Node kept = new Node(node.size() + SLACK);
            kept.start = kept.end = SLACK / 2;
            int seen = 0;
            for (int at = node.start, end; at < node.end; at = end) {
                end = next(node.bytes, at);
                if (equalAt(node.bytes, at, value)) {
                    seen++;
                    if (seen > skip && seen <= skip + take) {
                        continue;
                    }
                }
                System.arraycopy(node.bytes, at, kept.bytes, kept.end, end - at);
                kept.end += end - at;
                kept.count++;
            }
            node.bytes = kept.bytes;
            node.shared = false;
            node.start = kept.start;
            node.end = kept.end;
            removed += take;
            int before = nodeCount;
            removed(k, node, take);
            // A node removed, the same i names the next one to look at, from either end.
            if (nodeCount == before) {
                i++;
            }
        }
        return removed;
    }

    /**
     * Visits elements from {@code index} towards the tail, or towards the head when
     * {@code reverse}, until the visitor returns false or the list ends.
     */
    void walk(long index, boolean reverse, ElementVisitor visitor) {
        if (index < 0 || index >= size) {
            return;
        }
        int k = locate(index);
        Node node = node(k);
        int at = position(node, located);
        while (true) {
            int length = Varint.read(node.bytes, at);
            int from = at + Varint.length(length);
            if (!visitor.visit(node.bytes, from, length)) {
                return;
            }
            if (reverse) {
                if (at == node.start) {
                    if (--k < 0) {
                        return;
                    }
                    node = node(k);
                    at = node.end;
                }
                at = previous(node.bytes, at);
            } else {
                at = from + length + Varint.length(length);
                if (at == node.end) {
                    if (++k == nodeCount) {
                        return;
                    }
                    node = node(k);
                    at = node.start;
                }
            }
        }
    }

    /**
     * Starts a snapshot's copy of the elements as they are now, passed to {@code batch} in steps
     * ({@link Walk#step}), then the end with {@code deadline}. Holding each node's array
     * range costs O(nodes) now (~20 K for 10 M short elements) and one array copy per node
     * pushed onto later ({@link Node#own}); the list goes on changing meanwhile.
     */
    Walk startWalk(MemberBatch batch, long deadline) {
        byte[][] arrays = new byte[nodeCount][];
        int[] starts = new int[nodeCount];
        int[] ends = new int[nodeCount];
        for (int k = 0; k < nodeCount; k++) {
            Node node = node(k);
            node.shared = true;
            arrays[k] = node.bytes;
            starts[k] = node.start;
            ends[k] = node.end;
        }
        return new Walk(arrays, starts, ends, batch, deadline);
    }

    /** A deep copy (COPY). */
    QuickList copy() {
        QuickList copy = new QuickList(fill);
        for (int k = 0; k < nodeCount; k++) {
            copy.insertNode(k, node(k).copy());
        }
        copy.size = size;
        return copy;
    }

    void checkInvariants() {
        long counted = 0;
        for (int k = 0; k < nodeCount; k++) {
            Node node = node(k);
            Invariants.check(node.count > 0, "empty quicklist node");
            int elements = 0;
            for (int at = node.start; at < node.end; at = next(node.bytes, at)) {
                elements++;
            }
            Invariants.check(elements == node.count, "node count " + node.count + " but " + elements + " elements");
            counted += elements;
        }
        Invariants.check(counted == size, "list size " + size + " but " + counted + " elements");
    }

    // Nodes.

    private Node node(int k) {
        return nodes[first + k];
    }

    private void insertNode(int k, Node node) {
        if (k == 0 && first > 0) {
            first--;
        } else {
            if (first + nodeCount == nodes.length) {
                // Re-centred in an array twice the nodes: pushes at either end find room again.
                Node[] grown = new Node[Math.max(8, nodeCount * 2 + 4)];
                int at = (grown.length - nodeCount) / 2;
                System.arraycopy(nodes, first, grown, at, nodeCount);
                nodes = grown;
                first = at;
            }
            System.arraycopy(nodes, first + k, nodes, first + k + 1, nodeCount - k);
        }
        nodes[first + k] = node;
        nodeCount++;
    }

    private void removeNode(int k) {
        if (k == 0) {
            nodes[first++] = null;
        } else {
            System.arraycopy(nodes, first + k + 1, nodes, first + k, nodeCount - k - 1);
            nodes[first + nodeCount - 1] = null;
        }
        nodeCount--;
        if (nodeCount == 0) {
            first = nodes.length / 2;
        }
    }

    /** {@code n} elements left node {@code k}: the counts follow, and an emptied node goes. */
    private void removed(int k, Node node, int n) {
        node.count -= n;
        size -= n;
        if (node.count == 0) {
            removeNode(k);
        }
    }

    /** The node holding element {@code index}, walking from the nearer end; its offset in {@link #located}. */
    private int locate(long index) {
        if (index < size / 2) {
            for (int k = 0; ; k++) {
                int count = node(k).count;
                if (index < count) {
                    located = (int) index;
                    return k;
                }
                index -= count;
            }
        }
        long fromTail = size - 1 - index;
        for (int k = nodeCount - 1; ; k--) {
            int count = node(k).count;
            if (fromTail < count) {
                located = count - 1 - (int) fromTail;
                return k;
            }
            fromTail -= count;
        }
    }

    /** The position of the node's element {@code i}, 0 to count (count: its end), walked from the nearer end. */
    private static int position(Node node, int i) {
        if (i <= node.count / 2) {
            int at = node.start;
            for (; i > 0; i--) {
                at = next(node.bytes, at);
            }
            return at;
        }
        int at = node.end;
        for (int back = node.count - i; back > 0; back--) {
            at = previous(node.bytes, at);
        }
        return at;
    }

    private boolean withinLimit(int bytes, int count) {
        if (fill >= 0) {
            return count <= Math.max(fill, 1) && bytes <= SIZE_SAFETY_LIMIT;
        }
        return bytes <= 4096 << Math.min(-fill - 1, 4);
    }

    /** Whether one more element of {@code length} bytes may join the node (a first one always may). */
    private boolean allows(Node node, int length) {
        return node.count == 0 || withinLimit(node.size() + encodedSize(length), node.count + 1);
    }

    private void splitIfOver(int k) {
        Node node = node(k);
        if (node.count < 2 || withinLimit(node.size(), node.count)) {
            return;
        }
        int half = node.count / 2;
        int cut = position(node, half);
        Node second = new Node(node.end - cut + SLACK);
        second.start = second.end = SLACK / 2;
        System.arraycopy(node.bytes, cut, second.bytes, second.start, node.end - cut);
        second.end += node.end - cut;
        second.count = node.count - half;
        node.end = cut;
        node.count = half;
        compactIfSparse(node);
        insertNode(k + 1, second);
    }

    /** Rewrites {@code [from, to)} of the node as {@code element} (none when from == to is an insert). */
    private static void splice(Node node, int from, int to, byte[] element) {
        int added = encodedSize(element.length);
        int newSize = node.size() - (to - from) + added;
        byte[] bytes = new byte[newSize + SLACK];
        int at = SLACK / 2;
        System.arraycopy(node.bytes, node.start, bytes, at, from - node.start);
        int after = write(bytes, at + from - node.start, element, 0, element.length);
        System.arraycopy(node.bytes, to, bytes, after, node.end - to);
        node.bytes = bytes;
        node.shared = false;
        node.start = at;
        node.end = at + newSize;
    }

    /** Room for {@code front} more bytes before the elements and {@code back} after. */
    private static void regrow(Node node, int front, int back) {
        int size = node.size();
        // Doubling keeps a run of pushes at one end O(1) amortized.
        int slack = Math.max(size, SLACK);
        byte[] bytes = new byte[size + front + back + slack];
        int start = front > 0 ? front + slack : slack / 2;
        if (back > 0) {
            start = slack / 2;
        }
        System.arraycopy(node.bytes, node.start, bytes, start, size);
        node.bytes = bytes;
        node.shared = false;
        node.start = start;
        node.end = start + size;
    }

    /**
     * A full node left behind by pushes is given an array that fits it: the doubling that made
     * pushes cheap leaves up to half of it slack, for good (10 M short elements: ~2x the bytes).
     */
    private static void fit(Node node) {
        if (node.bytes.length - node.size() > Math.max(SLACK, node.size() / 8)) {
            reallocate(node);
        }
    }

    /** A node whose elements fill under a quarter of its array (after trims) gets a fitting one. */
    private static void compactIfSparse(Node node) {
        if (node.size() < node.bytes.length / 4 && node.bytes.length > 256) {
            reallocate(node);
        }
    }

    /** Moves the node's elements to an array that fits them, with a little slack either side. */
    private static void reallocate(Node node) {
        byte[] bytes = new byte[node.size() + SLACK];
        System.arraycopy(node.bytes, node.start, bytes, SLACK / 2, node.size());
        node.bytes = bytes;
        node.shared = false;
        node.end = SLACK / 2 + node.size();
        node.start = SLACK / 2;
    }

    // Elements: [length varint][bytes][length varint read backwards].

    private static int encodedSize(int length) {
        return 2 * Varint.length(length) + length;
    }

    /** Writes an element from {@code source} at {@code at}; returns the position after it. */
    private static int write(byte[] bytes, int at, byte[] source, int offset, int length) {
        at = Varint.write(bytes, at, length);
        System.arraycopy(source, offset, bytes, at, length);
        at += length;
        int width = Varint.length(length);
        // The last byte holds the low seven bits, so a walk from the end reads them first.
        for (int i = width - 1, n = length; i >= 0; i--, n >>>= 7) {
            bytes[at + i] = (byte) ((n & 0x7f) | (i > 0 ? 0x80 : 0));
        }
        return at + width;
    }

    static int next(byte[] bytes, int at) {
        int length = Varint.read(bytes, at);
        return at + encodedSize(length);
    }

    /** The position of the element that ends at {@code end}. */
    private static int previous(byte[] bytes, int end) {
        int length = 0;
        for (int at = end - 1, shift = 0; ; at--, shift += 7) {
            int b = bytes[at];
            length |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        return end - encodedSize(length);
    }

    private static boolean equalAt(byte[] bytes, int at, byte[] value) {
        int length = Varint.read(bytes, at);
        int from = at + Varint.length(length);
        return length == value.length && Arrays.equals(bytes, from, from + length, value, 0, length);
    }

    /**
     * A snapshot's copy of one long list, taken element by element in steps as short as the
     * keyspace's: the ranges of its nodes' arrays as they were when the snapshot handed the list out
     * ({@link QuickList#startWalk}), which no later change writes into. So whatever happens to the
     * list afterwards (pushes, pops, LSET, DEL, RENAME), the elements handed out are those of that
     * moment, in order, under the key and database of that moment.
     */
    static final class Walk implements KeyspaceSnapshot.CollectionWalk {
        private final byte[][] arrays;
        private final int[] starts;
        private final int[] ends;
        private final MemberBatch batch;
        private final long deadline;
        private int node;
        private int at;

        Walk(byte[][] arrays, int[] starts, int[] ends, MemberBatch batch, long deadline) {
            this.arrays = arrays;
            this.starts = starts;
            this.ends = ends;
            this.batch = batch;
            this.deadline = deadline;
            this.at = arrays.length == 0 ? 0 : starts[0];
        }

        /** Hands out up to {@code maxIds} more elements; true once all were, the end then passed on. */
        @Override
        public boolean step(int maxIds) {
            for (int i = 0; i < maxIds && node < arrays.length; i++) {
                byte[] bytes = arrays[node];
                int length = Varint.read(bytes, at);
                int from = at + Varint.length(length);
                batch.add(Arrays.copyOfRange(bytes, from, from + length), null);
                at = QuickList.next(bytes, at);
                if (at == ends[node] && ++node < arrays.length) {
                    at = starts[node];
                }
            }
            if (node < arrays.length) {
                return false;
            }
            batch.end(deadline);
            return true;
        }

        /** Nothing to detach: the list does not know of its walks. */
        @Override
        public void stop() {
        }
    }
}
