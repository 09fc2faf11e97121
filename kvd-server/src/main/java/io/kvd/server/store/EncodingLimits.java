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
    private int zsetMaxListpackEntries = 128;
    private int zsetMaxListpackValue = 64;

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
}
