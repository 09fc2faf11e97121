package io.kvd.server.store;

/**
 * The sizes past which a collection leaves its compact encoding for a table (Redis's
 * hash-max-listpack-entries and friends), shared by every database and changed by CONFIG SET.
 * A collection converted to a table stays one, as in Redis.
 */
public final class EncodingLimits {
    private int hashMaxListpackEntries = 512;
    private int hashMaxListpackValue = 64;
    private int setMaxIntsetEntries = 512;
    private int listMaxListpackSize = -2;
    private int zsetMaxListpackEntries = 128;
    private int zsetMaxListpackValue = 64;
    private long hllSparseMaxBytes = 3000;
    private long streamNodeMaxBytes = 4096;
    private long streamNodeMaxEntries = 100;

    public int hashMaxListpackEntries() {
        return hashMaxListpackEntries;
    }

    public void setHashMaxListpackEntries(int entries) {
        this.hashMaxListpackEntries = entries;
    }

    public int hashMaxListpackValue() {
        return hashMaxListpackValue;
    }

    public void setHashMaxListpackValue(int bytes) {
        this.hashMaxListpackValue = bytes;
    }

    public int setMaxIntsetEntries() {
        return setMaxIntsetEntries;
    }

    public void setSetMaxIntsetEntries(int entries) {
        this.setMaxIntsetEntries = entries;
    }

    /** Redis's list-max-listpack-size: negative, a node's bytes (-2: 8 KB); positive, its elements. */
    public int listMaxListpackSize() {
        return listMaxListpackSize;
    }

    public void setListMaxListpackSize(int size) {
        this.listMaxListpackSize = size;
    }

    public int zsetMaxListpackEntries() {
        return zsetMaxListpackEntries;
    }

    public void setZsetMaxListpackEntries(int entries) {
        this.zsetMaxListpackEntries = entries;
    }

    public int zsetMaxListpackValue() {
        return zsetMaxListpackValue;
    }

    public void setZsetMaxListpackValue(int bytes) {
        this.zsetMaxListpackValue = bytes;
    }

    /** Redis's hll-sparse-max-bytes: a sparse HyperLogLog that would grow past this many bytes (header included) turns dense. */
    public long hllSparseMaxBytes() {
        return hllSparseMaxBytes;
    }

    public void setHllSparseMaxBytes(long bytes) {
        this.hllSparseMaxBytes = bytes;
    }

    /** Redis's stream-node-max-bytes: a stream node takes no entry that would make it this big (0: no limit). */
    public long streamNodeMaxBytes() {
        return streamNodeMaxBytes;
    }

    public void setStreamNodeMaxBytes(long bytes) {
        this.streamNodeMaxBytes = bytes;
    }

    /** Redis's stream-node-max-entries: entries of a stream node, deleted ones included (0: no limit). */
    public long streamNodeMaxEntries() {
        return streamNodeMaxEntries;
    }

    public void setStreamNodeMaxEntries(long entries) {
        this.streamNodeMaxEntries = entries;
    }
}
