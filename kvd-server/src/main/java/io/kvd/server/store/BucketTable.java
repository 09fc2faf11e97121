package io.kvd.server.store;

/**
 * A power-of-two array of bucket heads (entry ids, 0 for an empty bucket), allocated a chunk at a
 * time on first write: a table of 8 M buckets costs nothing until entries land in it, so starting
 * a resize is O(1) and the rehash that fills it pays as it goes.
 */
final class BucketTable {
    private final int[][] chunks;
    private final int length;

    BucketTable(int length) {
        this.length = length;
        this.chunks = new int[(length + Chunks.MASK) >>> Chunks.SHIFT][];
    }

    int length() {
        return length;
    }

    int mask() {
        return length - 1;
    }

    int head(int bucket) {
        int[] chunk = chunks[Chunks.chunk(bucket)];
        return chunk == null ? 0 : chunk[Chunks.offset(bucket)];
    }

    void setHead(int bucket, int id) {
        int c = Chunks.chunk(bucket);
        int[] chunk = chunks[c];
        if (chunk == null) {
            chunk = new int[Math.min(length, Chunks.SIZE)];
            chunks[c] = chunk;
        }
        chunk[Chunks.offset(bucket)] = id;
    }

    /** Drops the chunk holding {@code bucket}; every bucket in it must be empty. */
    void releaseChunkOf(int bucket) {
        chunks[Chunks.chunk(bucket)] = null;
    }
}
