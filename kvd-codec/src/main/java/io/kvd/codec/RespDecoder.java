package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Cuts requests out of the inbound bytes as Redis 7 does (networking.c, processMultibulkBuffer and
 * processInlineBuffer) and emits each as its argument vector, a {@code byte[][]} with at least one
 * element, or a {@link RespProtocolError} after which all further input is discarded.
 *
 * <p>A frame stays unconsumed until it is complete; what was already validated of it is kept in
 * offsets relative to the reader index (Netty may move the bytes to a new buffer between reads), so
 * new bytes continue the parse where it stopped and every argument is copied exactly once.
 *
 * <p>Each {@link #decode} call emits at most one command, so that a {@link #pause()} requested by the
 * next handler while it handles one command takes effect before the next.
 */
public final class RespDecoder extends ByteToMessageDecoder {
    /** Redis PROTO_INLINE_MAX_SIZE: inline requests and header lines may not grow past this without their line end. */
    static final int MAX_LINE_BYTES = 64 * 1024;
    /** A frame must fit in one cumulation buffer, which is int-indexed; the usual safe maximum Java array length. */
    private static final int MAX_FRAME_BYTES = Integer.MAX_VALUE - 8;
    /** Argument slots kept between frames; a frame with more arguments gets larger arrays that are dropped after it. */
    private static final int RETAINED_ARGUMENT_SLOTS = 1024;
    /** What {@link #parseInteger} returns for text that Redis's string2ll rejects; every caller rejects it as too large. */
    private static final long NOT_AN_INTEGER = Long.MAX_VALUE;
    private static final String PROTOCOL_ERROR = "ERR Protocol error: ";
    /** What Redis lets a client that has not authenticated send (networking.c): few arguments, small bulks. */
    private static final int UNAUTHENTICATED_MAX_ARGUMENTS = 10;
    private static final int UNAUTHENTICATED_MAX_BULK = 16 * 1024;
    /** Redis's PROTO_MBULK_BIG_ARG. */
    private static final int BIG_BULK = 32 * 1024;

    // Redis finds line ends with strchr, which stops at a NUL byte as well: a line holding a NUL before
    // its end never completes, so only the length limit ends the wait. Both searches stop at NUL too.
    private static final ByteProcessor FIND_CR_OR_NUL = b -> b != '\r' && b != 0;
    private static final ByteProcessor FIND_LF_OR_NUL = b -> b != '\n' && b != 0;

    private final LongSupplier maxBulkLength;
    private ChannelHandlerContext ctx;
    private boolean paused;
    private boolean authenticated = true;
    private boolean inChannelRead;
    private boolean discarding;
    private long copiedArgumentBytes;
    private long decodedBytes;

    // The partial frame at the reader index; all offsets are relative to it.
    /** Where the search for the end of the current line resumes, so a slowly arriving line is scanned once. */
    private int lineScanOffset;
    /** The multibulk count once its header is parsed, else 0. */
    private int argumentCount;
    /** Arguments whose header was validated and whose bytes are all present. */
    private int argumentsFound;
    /** The next bulk header, or the data of the bulk whose header was just parsed. */
    private int nextOffset;
    /** The length of the bulk whose data starts at {@link #nextOffset}, or -1 while its header is unparsed. */
    private int bulkLength = -1;
    private int[] argumentOffsets = new int[16];
    private int[] argumentLengths = new int[16];

    /**
     * @param maxBulkLength the longest bulk argument accepted, Redis's {@code proto-max-bulk-len}; asked at
     *                      every bulk header, so a change (CONFIG SET) applies to open connections at once
     */
    public RespDecoder(LongSupplier maxBulkLength) {
        this.maxBulkLength = maxBulkLength;
    }

    /** Total bytes copied into argument arrays since this decoder was created. */
    public long copiedArgumentBytes() {
        return copiedArgumentBytes;
    }

    /**
     * Total input bytes of the requests emitted so far, framing included (and of empty multibulks
     * skipped): what a connection's commands have taken of its input.
     */
    public long decodedBytes() {
        return decodedBytes;
    }

    /**
     * While false, multibulk requests are limited to 10 arguments and 16 KB bulks, as Redis limits
     * clients that still owe an AUTH; true (the default) when no password is required.
     */
    public void setAuthenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /** Bytes received and not yet decoded: the partial command being assembled. */
    public int bufferedBytes() {
        return actualReadableBytes();
    }

    /**
     * Bytes of the partial command already parsed: its headers and its complete arguments, which
     * Redis has moved from its query buffer to the client's argv by then.
     */
    public int parsedBytes() {
        return argumentCount == 0 || discarding ? 0 : nextOffset;
    }

    /**
     * The bytes still to come of a big bulk (at least Redis's PROTO_MBULK_BIG_ARG, 32 KB) whose
     * header has arrived, else 0: Redis allocates such a bulk's whole length at its header.
     */
    public int reservedBytes() {
        if (argumentCount == 0 || bulkLength < BIG_BULK || discarding) {
            return 0;
        }
        return Math.max(0, nextOffset + bulkLength + 2 - actualReadableBytes());
    }

    /**
     * The fewest further bytes that can change what this decoder does: the rest of the bulk whose
     * data is arriving (its CRLF included), else 1 (any byte may end a header line).
     */
    public int bytesToProgress() {
        if (argumentCount == 0 || bulkLength < 0 || discarding) {
            return 1;
        }
        return Math.max(1, nextOffset + bulkLength + 2 - actualReadableBytes());
    }

    /** Stops emitting commands; input keeps accumulating until {@link #resume()}. */
    public void pause() {
        paused = true;
    }

    /**
     * Emits the complete commands already buffered, then a channelReadComplete, as a socket read would:
     * no read event may ever come for bytes that arrived while paused. Must run on the event loop.
     */
    public void resume() {
        paused = false;
        // Inside our own channelRead the decode loop is still running and simply goes on.
        if (ctx == null || inChannelRead || actualReadableBytes() == 0) {
            return;
        }
        try {
            channelRead(ctx, Unpooled.EMPTY_BUFFER);
            channelReadComplete(ctx);
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        inChannelRead = true;
        try {
            super.channelRead(ctx, msg);
        } finally {
            inChannelRead = false;
        }
    }

    /**
     * While paused, a read is only kept for later, never followed by a request for another: with
     * auto-read off, ByteToMessageDecoder asks for one more read whenever a read produced no
     * message, which for a paused decoder is every read. Under io_uring, where a receive may
     * already be in flight when auto-read goes off, that chain kept reading megabytes into the
     * buffer of a connection meant to be paused.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (paused) {
            discardSomeReadBytes();
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discarding) {
            in.skipBytes(in.readableBytes());
        } else if (!paused) {
            if (in.getByte(in.readerIndex()) == '*') {
                decodeMultibulk(in, out);
            } else {
                decodeInline(in, out);
            }
        }
    }

    private void decodeMultibulk(ByteBuf in, List<Object> out) {
        int frameStart = in.readerIndex();
        int available = in.readableBytes();
        if (argumentCount == 0) {
            int lineEnd = findLineEnd(in, 0, FIND_CR_OR_NUL);
            if (lineEnd < 0) {
                if (available > MAX_LINE_BYTES) {
                    fail(in, out, "too big mbulk count string");
                }
                return;
            }
            // Like Redis: wait for the byte after '\r' but skip it unchecked.
            if (lineEnd + 2 > available) {
                return;
            }
            long count = parseInteger(in, frameStart + 1, lineEnd - 1);
            if (count > Integer.MAX_VALUE) {
                fail(in, out, "invalid multibulk length");
                return;
            }
            if (count > UNAUTHENTICATED_MAX_ARGUMENTS && !authenticated) {
                fail(in, out, "unauthenticated multibulk length");
                return;
            }
            if (count <= 0) {
                in.skipBytes(lineEnd + 2);
                decodedBytes += lineEnd + 2;
                return;
            }
            argumentCount = (int) count;
            nextOffset = lineEnd + 2;
        }
        while (argumentsFound < argumentCount) {
            if (bulkLength < 0 && !parseBulkHeader(in, out)) {
                return;
            }
            if (available - nextOffset < bulkLength + 2) {
                return;
            }
            recordArgument(nextOffset, bulkLength);
            nextOffset += bulkLength + 2;
            bulkLength = -1;
        }
        byte[][] arguments = new byte[argumentCount][];
        for (int i = 0; i < argumentCount; i++) {
            arguments[i] = new byte[argumentLengths[i]];
            in.getBytes(frameStart + argumentOffsets[i], arguments[i]);
            copiedArgumentBytes += argumentLengths[i];
        }
        in.skipBytes(nextOffset);
        decodedBytes += nextOffset;
        resetFrame();
        out.add(arguments);
    }

    /** Parses the {@code $len} line at {@link #nextOffset}; false when it is incomplete or broke the protocol. */
    private boolean parseBulkHeader(ByteBuf in, List<Object> out) {
        int frameStart = in.readerIndex();
        int available = in.readableBytes();
        int lineEnd = findLineEnd(in, nextOffset, FIND_CR_OR_NUL);
        if (lineEnd < 0) {
            if (available - nextOffset > MAX_LINE_BYTES) {
                fail(in, out, "too big bulk count string");
            }
            return false;
        }
        if (lineEnd + 2 > available) {
            return false;
        }
        byte type = in.getByte(frameStart + nextOffset);
        if (type != '$') {
            fail(in, out, "expected '$', got '" + printable(type) + "'");
            return false;
        }
        long length = parseInteger(in, frameStart + nextOffset + 1, lineEnd - nextOffset - 1);
        int dataOffset = lineEnd + 2;
        if (length < 0 || length > maxBulkLength.getAsLong() || dataOffset + length + 2 > MAX_FRAME_BYTES) {
            fail(in, out, "invalid bulk length");
            return false;
        }
        if (length > UNAUTHENTICATED_MAX_BULK && !authenticated) {
            fail(in, out, "unauthenticated bulk length");
            return false;
        }
        bulkLength = (int) length;
        nextOffset = dataOffset;
        return true;
    }

    private void recordArgument(int offset, int length) {
        if (argumentsFound == argumentOffsets.length) {
            // Grow only as arguments actually arrive: the count in the header is untrusted.
            int slots = (int) Math.min((long) argumentsFound * 2, argumentCount);
            argumentOffsets = Arrays.copyOf(argumentOffsets, slots);
            argumentLengths = Arrays.copyOf(argumentLengths, slots);
        }
        argumentOffsets[argumentsFound] = offset;
        argumentLengths[argumentsFound] = length;
        argumentsFound++;
    }

    private void decodeInline(ByteBuf in, List<Object> out) {
        int lineEnd = findLineEnd(in, 0, FIND_LF_OR_NUL);
        if (lineEnd < 0) {
            if (in.readableBytes() > MAX_LINE_BYTES) {
                fail(in, out, "too big inline request");
            }
            return;
        }
        int frameStart = in.readerIndex();
        int lineLength = lineEnd > 0 && in.getByte(frameStart + lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
        byte[] line = new byte[lineLength];
        in.getBytes(frameStart, line);
        byte[][] arguments = InlineRequest.split(line);
        if (arguments == null) {
            fail(in, out, "unbalanced quotes in request");
            return;
        }
        in.skipBytes(lineEnd + 1);
        decodedBytes += lineEnd + 1;
        if (arguments.length > 0) {
            for (byte[] argument : arguments) {
                copiedArgumentBytes += argument.length;
            }
            out.add(arguments);
        }
    }

    /**
     * Offset from the frame start of the line end {@code endFinder} looks for, searching from
     * {@code from}, or -1 when it is not there (yet). Remembers how far it searched in vain.
     */
    private int findLineEnd(ByteBuf in, int from, ByteProcessor endFinder) {
        int frameStart = in.readerIndex();
        int searchFrom = Math.max(from, lineScanOffset);
        int found = in.forEachByte(frameStart + searchFrom, in.readableBytes() - searchFrom, endFinder);
        if (found < 0) {
            lineScanOffset = in.readableBytes();
            return -1;
        }
        if (in.getByte(found) == 0) {
            lineScanOffset = found - frameStart;
            return -1;
        }
        lineScanOffset = 0;
        return found - frameStart;
    }

    /**
     * Redis's string2ll: an optional '-', then "0" or digits without a leading zero, at most 20
     * characters in all, within the long range; anything else is {@link #NOT_AN_INTEGER}.
     */
    static long parseInteger(ByteBuf in, int index, int length) {
        if (length == 0 || length > 20) {
            return NOT_AN_INTEGER;
        }
        int end = index + length;
        boolean negative = in.getByte(index) == '-';
        int i = negative ? index + 1 : index;
        if (i == end) {
            return NOT_AN_INTEGER;
        }
        byte first = in.getByte(i);
        if (first == '0' && length == 1) {
            return 0;
        }
        if (first < '1' || first > '9') {
            return NOT_AN_INTEGER;
        }
        // Accumulated as a negative number so that Long.MIN_VALUE fits.
        long value = -(first - '0');
        for (i++; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                return NOT_AN_INTEGER;
            }
            int digit = b - '0';
            if (value < (Long.MIN_VALUE + digit) / 10) {
                return NOT_AN_INTEGER;
            }
            value = value * 10 - digit;
        }
        if (negative) {
            return value;
        }
        return value == Long.MIN_VALUE ? NOT_AN_INTEGER : -value;
    }

    /** Redis replaces CR and LF in error texts by spaces; other bytes appear as they are (as Latin-1 here). */
    private static char printable(byte b) {
        return b == '\r' || b == '\n' ? ' ' : (char) (b & 0xff);
    }

    private void fail(ByteBuf in, List<Object> out, String text) {
        discarding = true;
        in.skipBytes(in.readableBytes());
        out.add(new RespProtocolError(PROTOCOL_ERROR + text));
    }

    private void resetFrame() {
        lineScanOffset = 0;
        argumentCount = 0;
        argumentsFound = 0;
        nextOffset = 0;
        bulkLength = -1;
        if (argumentOffsets.length > RETAINED_ARGUMENT_SLOTS) {
            argumentOffsets = new int[16];
            argumentLengths = new int[16];
        }
    }
}
