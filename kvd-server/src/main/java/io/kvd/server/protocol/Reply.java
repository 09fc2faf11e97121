package io.kvd.server.protocol;

import io.kvd.codec.RespWriter;
import io.kvd.server.numeric.Printf;
import io.kvd.server.stats.ErrorStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.nio.charset.StandardCharsets;

/**
 * A client's replies not yet handed to the socket. Commands write here; the connection hands
 * the buffer to the socket once per event-loop iteration ({@link #take}).
 *
 * <p>Small replies (integers, headers, short bulks) are gathered in the thread's {@link Stage}
 * and copied into the pooled buffer in one piece: each write into a pooled direct buffer costs
 * ~20 ns whatever its size, so LRANGE's hundred elements (three writes each) cost more than the
 * lookup that found them. The stage is shared by the thread's clients (a stage per client would
 * be 10,000 clients' worth of memory): the client that last wrote owns it, and another client's
 * write first moves the owner's bytes into the owner's buffer.
 */
public final class Reply {
    /**
     * A reply buffer that fills past this is set aside and a new one started, so a huge reply
     * (SMEMBERS of a million members: 23 MB) is many pooled buffers instead of one grown 23 MB
     * buffer: each growth of that one copied it into fresh memory, whose first touch costs the
     * loop ~15 µs per 4 KB page here (~300 ms of the 1 M-member SMEMBERS).
     */
    static final int PIECE_BYTES = 256 * 1024;

    /** A bulk value longer than this goes straight into the buffer. */
    static final int STAGED_VALUE_BYTES = 512;
    private static final FastThreadLocal<Stage> STAGE = new FastThreadLocal<>() {
        @Override
        protected Stage initialValue() {
            return new Stage();
        }
    };

    private final ByteBufAllocator allocator;
    private final ErrorStats errors;
    private ByteBuf out;
    /** The full pieces of this iteration's replies, oldest first; null while there are none. */
    private CompositeByteBuf full;
    /** CLIENT REPLY OFF or SKIP: what commands write now is dropped. */
    private boolean muted;
    /** HELLO 3 chose RESP3: maps, sets, doubles, booleans and one null go out as RESP3's own types. */
    private boolean resp3;

    public Reply(ByteBufAllocator allocator, ErrorStats errors) {
        this.allocator = allocator;
        this.errors = errors;
    }

    public void ok() {
        if (muted) {
            return;
        }
        RespWriter.writeOk(out());
    }

    public void pong() {
        if (muted) {
            return;
        }
        RespWriter.writePong(out());
    }

    public void simpleString(String text) {
        if (muted) {
            return;
        }
        RespWriter.writeSimpleString(out(), text);
    }

    /**
     * An error reply ("CODE text"), counted in INFO errorstats even when muted, as Redis's
     * afterErrorReply; CR and LF become spaces so the reply stays one line, as Redis does.
     */
    public void error(String message) {
        errors.count(message);
        writeError(message);
    }

    /**
     * An error reply counted when it happened: a script raising or returning what redis.call
     * gave it (Redis's ERR_REPLY_FLAG_NO_STATS_UPDATE). It still fails the command.
     */
    public void errorCountedBefore(String message) {
        errors.sentCountedBefore();
        writeError(message);
    }

    /**
     * An error whose text holds one byte per char (Latin-1), written back byte for byte: what Redis
     * echoes with %s (an ACL rule, a line of the ACL file) rather than as UTF-8. Counted as {@link #error}.
     */
    public void latin1Error(String message) {
        errors.count(message);
        if (muted) {
            return;
        }
        String line = message.replace('\r', ' ').replace('\n', ' ');
        RespWriter.writeError(out(), line.getBytes(StandardCharsets.ISO_8859_1));
    }

    private void writeError(String message) {
        if (muted) {
            return;
        }
        RespWriter.writeError(out(), message.replace('\r', ' ').replace('\n', ' '));
    }

    public void integer(long value) {
        if (muted) {
            return;
        }
        Stage stage = stage(RespWriter.MAX_LINE_BYTES);
        stage.length = RespWriter.writeInteger(stage.bytes, stage.length, value);
    }

    /** A bulk string, or the null bulk when {@code value} is null. */
    public void bulk(byte[] value) {
        if (muted) {
            return;
        }
        if (value == null) {
            nullBulk();
        } else {
            bulk(value, 0, value.length);
        }
    }

    public void bulk(byte[] value, int offset, int length) {
        if (muted) {
            return;
        }
        if (length > STAGED_VALUE_BYTES) {
            RespWriter.writeBulk(out(), value, offset, length);
            return;
        }
        Stage stage = stage(RespWriter.MAX_LINE_BYTES + length + 2);
        stage.length = RespWriter.writeBulk(stage.bytes, stage.length, value, offset, length);
    }

    public void bulk(String text) {
        if (muted) {
            return;
        }
        RespWriter.writeBulk(out(), text);
    }

    /** Redis's addReplyNull: the null bulk in RESP2, RESP3's null. */
    public void nullBulk() {
        if (muted) {
            return;
        }
        Stage stage = stage(RespWriter.MAX_LINE_BYTES);
        stage.length = resp3 ? RespWriter.writeNull(stage.bytes, stage.length)
                : RespWriter.writeNullBulk(stage.bytes, stage.length);
    }

    public void arrayHeader(int count) {
        if (muted) {
            return;
        }
        Stage stage = stage(RespWriter.MAX_LINE_BYTES);
        stage.length = RespWriter.writeArrayHeader(stage.bytes, stage.length, count);
    }

    /**
     * An array header whose count may pass an int's range, which only SRANDMEMBER's repeating count
     * can ask for (Redis writes that header, then the elements until the client is closed); the
     * codec counts in ints, so such a header is written here.
     */
    public void arrayHeader(long count) {
        if (muted) {
            return;
        }
        if (count <= Integer.MAX_VALUE) {
            arrayHeader((int) count);
        } else {
            out().writeCharSequence("*" + count + "\r\n", StandardCharsets.US_ASCII);
        }
    }

    /**
     * A reply already encoded elsewhere (a published message's frame, in a heap buffer), copied as
     * it is. Copied from its array: a buffer-to-buffer copy made a NIO slice of the pooled buffer
     * per frame, ~10 % of the server's CPU per delivered message with 1,000 subscribers.
     */
    public void frame(ByteBuf frame) {
        if (muted) {
            return;
        }
        out().writeBytes(frame.array(), frame.arrayOffset() + frame.readerIndex(), frame.readableBytes());
    }

    /**
     * A message encoded once for every subscriber as a RESP2 array ({@link #frame}); to a RESP3
     * client it goes as a push, the same bytes under the push's type byte. Sent even under CLIENT
     * REPLY OFF, as Redis's CLIENT_PUSHING sends pub/sub's messages.
     */
    public void pushFrame(ByteBuf frame) {
        ByteBuf out = out();
        out.writeByte(resp3 ? '>' : '*');
        out.writeBytes(frame.array(), frame.arrayOffset() + frame.readerIndex() + 1, frame.readableBytes() - 1);
    }

    /** Redis's addReplyNullArray: the null array in RESP2, RESP3's null. */
    public void nullArray() {
        if (muted) {
            return;
        }
        if (resp3) {
            RespWriter.writeNull(out());
        } else {
            RespWriter.writeNullArray(out());
        }
    }

    /** Redis's addReplyMapLen: {@code entries} keys each followed by its value; a flat array in RESP2. */
    public void mapHeader(int entries) {
        if (resp3) {
            aggregateHeader('%', entries);
        } else {
            arrayHeader(entries * 2);
        }
    }

    /** Redis's addReplySetLen: an array in RESP2. */
    public void setHeader(int count) {
        if (resp3) {
            aggregateHeader('~', count);
        } else {
            arrayHeader(count);
        }
    }

    /**
     * The header of member-value pairs (WITHSCORES, HRANDFIELD's WITHVALUES): one flat array in
     * RESP2; in RESP3 an array of two-element arrays, each begun by {@link #pairStart} (Redis's
     * zrangeResultFinalizeClient: not a map, whose order clients would not keep).
     */
    public void pairsHeader(long pairs) {
        arrayHeader(resp3 ? pairs : 2 * pairs);
    }

    /** Begins one pair under {@link #pairsHeader}: nothing in RESP2. */
    public void pairStart() {
        if (resp3) {
            arrayHeader(2);
        }
    }

    /**
     * Results by name that RESP2 gives as an array of [name, result] pairs and RESP3 as a map
     * (XREAD's streams): the header, then {@link #namedStart} before each name.
     */
    public void namedHeader(int count) {
        if (resp3) {
            aggregateHeader('%', count);
        } else {
            arrayHeader(count);
        }
    }

    /** Begins one name and its result under {@link #namedHeader}: nothing in RESP3. */
    public void namedStart() {
        if (!resp3) {
            arrayHeader(2);
        }
    }

    /** Redis's addReplyPushLen: an out-of-band message, an array in RESP2. */
    public void pushHeader(int count) {
        if (resp3) {
            aggregateHeader('>', count);
        } else {
            arrayHeader(count);
        }
    }

    /** Redis's addReplyAttributeLen; RESP2 has no attributes, and no RESP2 client is sent one. */
    public void attributeHeader(int entries) {
        aggregateHeader('|', entries);
    }

    private void aggregateHeader(char type, int count) {
        if (muted) {
            return;
        }
        RespWriter.writeAggregateHeader(out(), type, count);
    }

    /** Redis's addReplyDouble: "%.17g", "inf" or "-inf" as a bulk in RESP2, as RESP3's double. */
    public void doubleValue(double value) {
        if (!resp3) {
            bulk(Printf.g17(value));
        } else if (!muted) {
            RespWriter.writeDouble(out(), Printf.g17(value));
        }
    }

    /**
     * RESP3's double of a number already formatted (Redis's addReplyHumanLongDouble formats long
     * doubles its own way); the bulk of the same text in RESP2.
     */
    public void doubleText(String text) {
        if (!resp3) {
            bulk(text);
        } else if (!muted) {
            RespWriter.writeDouble(out(), text);
        }
    }

    /** Redis's addReplyBool: 1 or 0 in RESP2. */
    public void bool(boolean value) {
        if (!resp3) {
            integer(value ? 1 : 0);
        } else if (!muted) {
            RespWriter.writeBoolean(out(), value);
        }
    }

    /** Redis's addReplyBigNum: a bulk of the digits in RESP2. */
    public void bigNumber(String digits) {
        if (!resp3) {
            bulk(digits);
        } else if (!muted) {
            RespWriter.writeBigNumber(out(), digits);
        }
    }

    /** Redis's addReplyVerbatim of plain text (INFO, CLIENT LIST, the doctors' reports): a bulk in RESP2. */
    public void verbatim(String text) {
        verbatim(text.getBytes(StandardCharsets.UTF_8));
    }

    public void verbatim(byte[] text) {
        verbatim("txt", text);
    }

    /**
     * A verbatim reply in a script's format: its first three characters (Redis copies three bytes
     * whatever the format's length; a shorter one is padded with spaces here).
     */
    public void verbatim(String format, byte[] text) {
        if (!resp3) {
            bulk(text);
        } else if (!muted) {
            RespWriter.writeVerbatim(out(), (format + "   ").substring(0, 3), text);
        }
    }

    /** HELLO's protocol: 3 for RESP3, 2 (as every connection starts, and after RESET) for RESP2. */
    public void protocol(int version) {
        resp3 = version == 3;
    }

    public int protocol() {
        return resp3 ? 3 : 2;
    }

    /** From now on drops ({@code true}) or keeps what is written. */
    public void mute(boolean muted) {
        this.muted = muted;
    }

    /** Whether what is written is dropped (CLIENT REPLY OFF or SKIP). */
    public boolean isMuted() {
        return muted;
    }

    /** Bytes written and not yet taken. */
    public int pendingBytes() {
        Stage stage = STAGE.get();
        return (out == null ? 0 : out.readableBytes()) + (full == null ? 0 : full.readableBytes())
                + (stage.owner == this ? stage.length : 0);
    }

    /** The replies written since the last call, or null if none; the caller owns the buffer. */
    public ByteBuf take() {
        unstage();
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
        dropStaged();
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
        dropStaged();
        if (out != null) {
            out.clear();
        }
        if (full != null) {
            full.release();
            full = null;
        }
    }

    /** The stage, owned by this reply, with {@code room} bytes free. */
    private Stage stage(int room) {
        Stage stage = STAGE.get();
        if (stage.owner != this) {
            if (stage.owner != null) {
                stage.owner.unstage();
            }
            stage.owner = this;
        } else if (stage.length + room > stage.bytes.length) {
            unstage();
            stage.owner = this;
        }
        return stage;
    }

    /** Moves this reply's staged bytes, if it owns the stage, into its buffer, and lets the stage go. */
    private void unstage() {
        Stage stage = STAGE.get();
        if (stage.owner == this) {
            stage.owner = null;
            if (stage.length > 0) {
                buffer().writeBytes(stage.bytes, 0, stage.length);
                stage.length = 0;
            }
        }
    }

    private void dropStaged() {
        Stage stage = STAGE.get();
        if (stage.owner == this) {
            stage.owner = null;
            stage.length = 0;
        }
    }

    /** The buffer, for a write that goes straight into it: after what this reply staged. */
    private ByteBuf out() {
        unstage();
        return buffer();
    }

    private ByteBuf buffer() {
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

    /** The thread's heap bytes for small replies, and the reply they belong to. */
    private static final class Stage {
        /** Larger than any staged write, so a write always fits in an empty stage. */
        final byte[] bytes = new byte[16 * 1024];
        int length;
        Reply owner;
    }
}
