package io.kvd.server.command;

import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * A client's replies not yet handed to the socket. Commands write here; the connection hands
 * the buffer to the socket once per event-loop iteration ({@link #take}).
 */
public final class Reply {
    /**
     * A reply buffer that fills past this is set aside and a new one started, so a huge reply
     * (SMEMBERS of a million members: 23 MB) is many pooled buffers instead of one grown 23 MB
     * buffer: each growth of that one copied it into fresh memory, whose first touch costs the
     * loop ~15 µs per 4 KB page here (~300 ms of the 1 M-member SMEMBERS).
     */
    static final int PIECE_BYTES = 256 * 1024;

    private final ByteBufAllocator allocator;
    private ByteBuf out;
    /** The full pieces of this iteration's replies, oldest first; null while there are none. */
    private CompositeByteBuf full;

    public Reply(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    public void ok() {
        RespWriter.writeOk(out());
    }

    public void pong() {
        RespWriter.writePong(out());
    }

    public void simpleString(String text) {
        RespWriter.writeSimpleString(out(), text);
    }

    /** An error reply; CR and LF become spaces so the reply stays one line, as Redis does. */
    public void error(String message) {
        RespWriter.writeError(out(), message.replace('\r', ' ').replace('\n', ' '));
    }

    public void integer(long value) {
        RespWriter.writeInteger(out(), value);
    }

    /** A bulk string, or the null bulk when {@code value} is null. */
    public void bulk(byte[] value) {
        if (value == null) {
            RespWriter.writeNullBulk(out());
        } else {
            RespWriter.writeBulk(out(), value);
        }
    }

    public void bulk(byte[] value, int offset, int length) {
        RespWriter.writeBulk(out(), value, offset, length);
    }

    public void bulk(String text) {
        RespWriter.writeBulk(out(), text);
    }

    public void nullBulk() {
        RespWriter.writeNullBulk(out());
    }

    public void arrayHeader(int count) {
        RespWriter.writeArrayHeader(out(), count);
    }

    /**
     * An array header whose count may pass an int's range, which only SRANDMEMBER's repeating count
     * can ask for (Redis writes that header, then the elements until the client is closed); the
     * codec counts in ints, so such a header is written here.
     */
    public void arrayHeader(long count) {
        if (count <= Integer.MAX_VALUE) {
            arrayHeader((int) count);
        } else {
            out().writeCharSequence("*" + count + "\r\n", StandardCharsets.US_ASCII);
        }
    }

    /** A reply already encoded elsewhere (a published message's frame), copied as it is. */
    void frame(ByteBuf frame) {
        out().writeBytes(frame, frame.readerIndex(), frame.readableBytes());
    }

    public void nullArray() {
        RespWriter.writeNullArray(out());
    }

    /** Bytes written and not yet taken. */
    public int pendingBytes() {
        return (out == null ? 0 : out.readableBytes()) + (full == null ? 0 : full.readableBytes());
    }

    /** The replies written since the last call, or null if none; the caller owns the buffer. */
    public ByteBuf take() {
        ByteBuf taken = out;
        if (full != null) {
            if (out != null) {
                full.addComponent(true, out);
            }
            taken = full;
            full = null;
        }
        out = null;
        return taken;
    }

    /** Drops whatever was not taken (the connection closed). */
    public void discard() {
        if (out != null) {
            out.release();
            out = null;
        }
        if (full != null) {
            full.release();
            full = null;
        }
    }

    /** Drops what was written, keeping the buffer for what comes next. */
    public void clear() {
        if (out != null) {
            out.clear();
        }
        if (full != null) {
            full.release();
            full = null;
        }
    }

    private ByteBuf out() {
        if (out == null) {
            out = allocator.ioBuffer();
        } else if (out.writerIndex() >= PIECE_BYTES) {
            if (full == null) {
                full = allocator.compositeDirectBuffer(Integer.MAX_VALUE);
            }
            full.addComponent(true, out);
            // A reply this large likely goes on: the next piece is sized whole, never regrown.
            out = allocator.ioBuffer(PIECE_BYTES * 2);
        }
        return out;
    }
}
