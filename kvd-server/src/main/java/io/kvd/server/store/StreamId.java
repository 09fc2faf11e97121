package io.kvd.server.store;

import java.nio.charset.StandardCharsets;

/**
 * A stream entry's id, {@code ms-seq}: two unsigned 64-bit numbers (Redis's streamID), ordered
 * by ms then seq, both compared unsigned.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
    public static final StreamId MIN = new StreamId(0, 0);
    public static final StreamId MAX = new StreamId(-1, -1);

    @Override
    public int compareTo(StreamId other) {
        int byMs = Long.compareUnsigned(ms, other.ms);
        return byMs != 0 ? byMs : Long.compareUnsigned(seq, other.seq);
    }

    public boolean isZero() {
        return ms == 0 && seq == 0;
    }

    /** The next id (Redis's streamIncrID), or null past the last one. */
    public StreamId next() {
        if (seq != -1) {
            return new StreamId(ms, seq + 1);
        }
        return ms == -1 ? null : new StreamId(ms + 1, 0);
    }

    /** The previous id (Redis's streamDecrID), or null before 0-0. */
    public StreamId previous() {
        if (seq != 0) {
            return new StreamId(ms, seq - 1);
        }
        return ms == 0 ? null : new StreamId(ms - 1, -1);
    }

    public byte[] toBytes() {
        return toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }
}
