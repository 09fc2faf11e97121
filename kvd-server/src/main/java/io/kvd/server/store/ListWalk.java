package io.kvd.server.store;

import java.util.Arrays;

/**
 * A snapshot's copy of one long list, taken element by element in steps as short as the
 * keyspace's: the ranges of its nodes' arrays as they were when the snapshot handed the list out
 * ({@link QuickList#startWalk}), which no later change writes into. So whatever happens to the
 * list afterwards (pushes, pops, LSET, DEL, RENAME), the elements handed out are those of that
 * moment, in order, under the key and database of that moment.
 */
final class ListWalk implements KeyspaceSnapshot.CollectionWalk {
    private final byte[][] arrays;
    private final int[] starts;
    private final int[] ends;
    private final MemberBatch batch;
    private final long deadline;
    private int node;
    private int at;

    ListWalk(byte[][] arrays, int[] starts, int[] ends, MemberBatch batch, long deadline) {
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
