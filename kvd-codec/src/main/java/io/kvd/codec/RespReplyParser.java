package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses one RESP2 or RESP3 reply from a buffer, for clients. A reply is consumed only once it is complete;
 * until then the buffer is left as it was and the next attempt parses it again from its start.
 */
public final class RespReplyParser {
    /** Deeper nesting than any server sends; the bound keeps a hostile peer from exhausting the stack. */
    static final int MAX_DEPTH = 64;
    /** The shortest element, e.g. {@code +\r\n}: an array needs this many bytes per element before it is allocated. */
    private static final int MIN_ELEMENT_BYTES = 3;

    private final ByteBuf in;
    /** The absolute index of the next unparsed byte. */
    private int position;

    private RespReplyParser(ByteBuf in) {
        this.in = in;
        this.position = in.readerIndex();
    }

    /**
     * Consumes and returns the reply at the reader index, or returns null and consumes nothing when the
     * buffer does not yet hold all of it.
     *
     * @throws CorruptedFrameException when the bytes are not RESP or nest deeper than {@value #MAX_DEPTH}
     */
    public static RespReply parse(ByteBuf in) {
        RespReplyParser parser = new RespReplyParser(in);
        RespReply reply = parser.parseReply(1);
        if (reply != null) {
            in.readerIndex(parser.position);
        }
        return reply;
    }

    private RespReply parseReply(int depth) {
        if (position >= in.writerIndex()) {
            return null;
        }
        byte type = in.getByte(position);
        int lineStart = position + 1;
        int lineEnd = findLineEnd(lineStart);
        if (lineEnd < 0) {
            return null;
        }
        position = lineEnd + 2;
        return switch (type) {
            case '+' -> new RespReply.SimpleString(text(lineStart, lineEnd));
            case '-' -> new RespReply.Error(text(lineStart, lineEnd));
            case ':' -> new RespReply.Integer(parseLong(lineStart, lineEnd));
            case '$' -> parseBulk(parseLong(lineStart, lineEnd));
            case '*' -> parseArray(parseLong(lineStart, lineEnd), depth);
            case '%' -> parseAggregate(type, pairs(parseLong(lineStart, lineEnd)), depth);
            case '~', '>' -> parseAggregate(type, parseLong(lineStart, lineEnd), depth);
            case '|' -> parseAttribute(pairs(parseLong(lineStart, lineEnd)), depth);
            case '_' -> lineEnd == lineStart ? new RespReply.Null() : malformed(type, lineStart, lineEnd);
            case ',' -> new RespReply.Double(text(lineStart, lineEnd));
            case '#' -> parseBoolean(lineStart, lineEnd);
            case '(' -> new RespReply.BigNumber(text(lineStart, lineEnd));
            case '=' -> parseVerbatim(parseLong(lineStart, lineEnd));
            default -> throw new CorruptedFrameException("unknown RESP type byte 0x" + Integer.toHexString(type & 0xff));
        };
    }

    private RespReply parseBulk(long length) {
        if (length == -1) {
            return new RespReply.BulkString(null);
        }
        if (length < -1) {
            throw new CorruptedFrameException("negative bulk length " + length);
        }
        if (in.writerIndex() - position < length + 2) {
            return null;
        }
        byte[] value = new byte[(int) length];
        in.getBytes(position, value);
        position += (int) length + 2;
        return new RespReply.BulkString(value);
    }

    private RespReply parseArray(long count, int depth) {
        if (count == -1) {
            return new RespReply.Array(null);
        }
        if (count < -1) {
            throw new CorruptedFrameException("negative array length " + count);
        }
        if (count > 0 && depth == MAX_DEPTH) {
            throw new CorruptedFrameException("replies nested deeper than " + MAX_DEPTH);
        }
        if (count > (in.writerIndex() - position) / MIN_ELEMENT_BYTES) {
            return null;
        }
        List<RespReply> elements = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            RespReply element = parseReply(depth + 1);
            if (element == null) {
                return null;
            }
            elements.add(element);
        }
        return new RespReply.Array(elements);
    }

    /** A map's or an attribute's element count: two per entry. */
    private static long pairs(long entries) {
        if (entries < 0 || entries > Long.MAX_VALUE / 2) {
            throw new CorruptedFrameException("invalid map length " + entries);
        }
        return entries * 2;
    }

    private RespReply parseAggregate(byte type, long count, int depth) {
        if (count < 0) {
            throw new CorruptedFrameException("negative aggregate length " + count);
        }
        RespReply.Array array = (RespReply.Array) parseArray(count, depth);
        if (array == null) {
            return null;
        }
        return switch (type) {
            case '%' -> new RespReply.Map(array.elements());
            case '~' -> new RespReply.Set(array.elements());
            default -> new RespReply.Push(array.elements());
        };
    }

    private RespReply parseAttribute(long count, int depth) {
        RespReply.Array attributes = (RespReply.Array) parseArray(count, depth);
        if (attributes == null) {
            return null;
        }
        RespReply reply = parseReply(depth);
        return reply == null ? null : new RespReply.Attribute(attributes.elements(), reply);
    }

    private RespReply parseBoolean(int start, int end) {
        if (end - start == 1 && (in.getByte(start) == 't' || in.getByte(start) == 'f')) {
            return new RespReply.Boolean(in.getByte(start) == 't');
        }
        return malformed((byte) '#', start, end);
    }

    private RespReply parseVerbatim(long length) {
        RespReply.BulkString bulk = (RespReply.BulkString) parseBulk(length);
        if (bulk == null) {
            return null;
        }
        if (bulk.value() == null || bulk.value().length < 4 || bulk.value()[3] != ':') {
            throw new CorruptedFrameException("verbatim string without its format");
        }
        String text = bulk.utf8();
        return new RespReply.Verbatim(text.substring(0, 3), text.substring(4));
    }

    private RespReply malformed(byte type, int start, int end) {
        throw new CorruptedFrameException("malformed '" + (char) type + "' reply: " + text(start, end));
    }

    /** The index of the '\r' of a complete CRLF from {@code from}, or -1 when the line has not fully arrived. */
    private int findLineEnd(int from) {
        int cr = in.indexOf(from, in.writerIndex(), (byte) '\r');
        if (cr < 0 || cr + 1 >= in.writerIndex()) {
            return -1;
        }
        if (in.getByte(cr + 1) != '\n') {
            throw new CorruptedFrameException("CR not followed by LF at index " + cr);
        }
        return cr;
    }

    private String text(int start, int end) {
        return in.toString(start, end - start, StandardCharsets.UTF_8);
    }

    private long parseLong(int start, int end) {
        boolean negative = start < end && in.getByte(start) == '-';
        int i = negative ? start + 1 : start;
        if (i == end || end - start > 20) {
            throw new CorruptedFrameException("not an integer: " + text(start, end));
        }
        long value = 0;
        for (; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                throw new CorruptedFrameException("not an integer: " + text(start, end));
            }
            // Accumulated as a negative number so that Long.MIN_VALUE fits.
            int digit = b - '0';
            if (value < (Long.MIN_VALUE + digit) / 10) {
                throw new CorruptedFrameException("integer out of range: " + text(start, end));
            }
            value = value * 10 - digit;
        }
        if (negative) {
            return value;
        }
        if (value == Long.MIN_VALUE) {
            throw new CorruptedFrameException("integer out of range: " + text(start, end));
        }
        return -value;
    }
}
