package io.kvd.server.command;

import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * A client's replies not yet handed to the socket. Commands write here; the connection hands
 * the buffer to the socket once per event-loop iteration ({@link #take}).
 */
public final class Reply {
    private final ByteBufAllocator allocator;
    private ByteBuf out;

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

    public void nullArray() {
        RespWriter.writeNullArray(out());
    }

    /** Bytes written and not yet taken. */
    public int pendingBytes() {
        return out == null ? 0 : out.readableBytes();
    }

    /** The replies written since the last call, or null if none; the caller owns the buffer. */
    public ByteBuf take() {
        ByteBuf taken = out;
        out = null;
        return taken;
    }

    /** Drops whatever was not taken (the connection closed). */
    public void discard() {
        if (out != null) {
            out.release();
            out = null;
        }
    }

    /** Drops what was written, keeping the buffer for what comes next. */
    public void clear() {
        if (out != null) {
            out.clear();
        }
    }

    private ByteBuf out() {
        if (out == null) {
            out = allocator.ioBuffer();
        }
        return out;
    }
}
