package io.kvd.server.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Redis's replication backlog: the last {@code repl-backlog-size} bytes of the replication
 * stream, in a ring, so a replica that lost its link (or a primary's replica promoted in its
 * place) resumes with PSYNC from its offset instead of a full sync. Offsets are the stream's:
 * the first byte ever sent is offset 1, and {@link #endOffset()} is Redis's master_repl_offset.
 */
final class ReplicationBacklog {
    private byte[] ring;
    /** Where the next byte goes. */
    private int next;
    /** Bytes held, at most the ring's length (Redis's histlen). */
    private long held;
    /** The offset of the last byte appended (master_repl_offset). */
    private long endOffset;

    ReplicationBacklog(long size, long endOffset) {
        this.ring = new byte[ringSize(size)];
        this.endOffset = endOffset;
    }

    private static int ringSize(long size) {
        return (int) Math.min(Math.max(size, 16 * 1024), Integer.MAX_VALUE - 8);
    }

    void append(ByteBuf bytes) {
        int length = bytes.readableBytes();
        int from = bytes.readerIndex();
        endOffset += length;
        held = Math.min(ring.length, held + length);
        // Only the ring's last length bytes of a longer append survive.
        if (length > ring.length) {
            from += length - ring.length;
            length = ring.length;
        }
        while (length > 0) {
            int chunk = Math.min(length, ring.length - next);
            bytes.getBytes(from, ring, next, chunk);
            from += chunk;
            length -= chunk;
            next = (next + chunk) % ring.length;
        }
    }

    /** master_repl_offset: the offset of the last byte of the stream. */
    long endOffset() {
        return endOffset;
    }

    /** repl_backlog_first_byte_offset (Redis's repl_backlog->offset). */
    long firstOffset() {
        return endOffset - held + 1;
    }

    /** repl_backlog_histlen */
    long held() {
        return held;
    }

    long size() {
        return ring.length;
    }

    /** Whether a replica asking for the stream from {@code offset} on can be served from here (Redis's masterTryPartialResynchronization). */
    boolean covers(long offset) {
        return offset >= firstOffset() && offset <= endOffset + 1;
    }

    /** The bytes from {@code offset} (which {@link #covers}) to the end. */
    ByteBuf since(long offset) {
        int length = (int) (endOffset + 1 - offset);
        ByteBuf copy = Unpooled.buffer(length);
        int start = Math.floorMod(next - length, ring.length);
        int first = Math.min(length, ring.length - start);
        copy.writeBytes(ring, start, first);
        copy.writeBytes(ring, 0, length - first);
        return copy;
    }

    /** CONFIG SET repl-backlog-size: the newest bytes that fit are kept. */
    void resize(long size) {
        int length = ringSize(size);
        if (length == ring.length) {
            return;
        }
        long keep = Math.min(held, length);
        ByteBuf kept = since(endOffset + 1 - keep);
        ring = new byte[length];
        next = 0;
        held = 0;
        endOffset -= keep;
        append(kept);
    }
}
