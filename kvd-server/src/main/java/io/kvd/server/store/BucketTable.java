package io.kvd.server.store;

/**
 * A power-of-two array of bucket heads (entry ids, 0 for an empty bucket), cut into
 * {@link Regions} arrays allocated on first write: a table of 8 M buckets costs nothing until
 * entries land in it, so starting a resize is O(1) and the rehash that fills it pays as it goes.
 * The last chunk has just the buckets left over: a table smaller than a region is one array of
 * its own length, and 2^20 buckets are four regions and an array of 16.
 */
final class BucketTable {
    private static final int PER_CHUNK = Regions.INT_LENGTH;
    private static final long INSTANCE = HeapSize.ofInstance(BucketTable.class);

    private final int[][] chunks;
    private final int length;

    BucketTable(int length) {
        this.length = length;
        this.chunks = new int[(length + PER_CHUNK - 1) / PER_CHUNK][];
    }

    int length() {
        return length;
    }

    int mask() {
        return length - 1;
    }

    int head(int bucket) {
        int[] chunk = chunks[bucket / PER_CHUNK];
        return chunk == null ? 0 : chunk[bucket % PER_CHUNK];
    }

    void setHead(int bucket, int id) {
        int c = bucket / PER_CHUNK;
        int[] chunk = chunks[c];
        if (chunk == null) {
            int chunkLength = Math.min(PER_CHUNK, length - c * PER_CHUNK);
            chunk = chunkLength == PER_CHUNK ? Regions.ints() : new int[chunkLength];
            chunks[c] = chunk;
        }
        chunk[bucket % PER_CHUNK] = id;
    }

    /** Heap bytes of the chunks allocated so far and their directory. */
    long memoryUsage() {
        long bytes = INSTANCE + HeapSize.of(chunks);
        for (int[] chunk : chunks) {
            bytes += HeapSize.of(chunk);
        }
        return bytes;
    }

    /** Whether {@code bucket} is the last one of its chunk. */
    boolean endsChunk(int bucket) {
        return bucket % PER_CHUNK == PER_CHUNK - 1;
    }

    /** Drops the chunk holding {@code bucket}; every bucket in it must be empty. */
    void releaseChunkOf(int bucket) {
        chunks[bucket / PER_CHUNK] = null;
    }
}
