package io.kvd.codec;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * RESP2 and RESP3 encoding straight into a {@link ByteBuf}: replies for the server, requests for clients;
 * and the small replies also into a byte array, for a writer that gathers many of them on the
 * heap and copies them into a buffer at once (a ByteBuf write costs ~20 ns whatever its size).
 *
 * <p>Nothing here allocates per call on the hot path: the common replies are shared pre-encoded
 * bytes, integers and lengths are written digit by digit, strings are written as ASCII.
 */
public final class RespWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] OK = ascii("+OK\r\n");
    private static final byte[] PONG = ascii("+PONG\r\n");
    private static final byte[] NULL_BULK = ascii("$-1\r\n");
    private static final byte[] NULL_ARRAY = ascii("*-1\r\n");
    private static final byte[] EMPTY_ARRAY = ascii("*0\r\n");
    private static final byte[] NULL = ascii("_\r\n");
    private static final byte[] TRUE = ascii("#t\r\n");
    private static final byte[] FALSE = ascii("#f\r\n");

    /** The most bytes a type byte, a long's digits and CRLF take: room enough for any header or integer reply. */
    public static final int MAX_LINE_BYTES = 1 + 20 + 2;

    /** Redis shares the replies for 0..9999 (OBJ_SHARED_INTEGERS); so do we for the integers clients see most. */
    private static final int SHARED_INTEGERS = 10_000;
    private static final byte[][] INTEGER_REPLIES = new byte[SHARED_INTEGERS][];
    private static final byte[][] BULK_HEADERS = new byte[SHARED_INTEGERS][];
    private static final byte[][] ARRAY_HEADERS = new byte[SHARED_INTEGERS][];

    static {
        for (int i = 0; i < SHARED_INTEGERS; i++) {
            INTEGER_REPLIES[i] = sharedLine(':', i);
            BULK_HEADERS[i] = sharedLine('$', i);
            ARRAY_HEADERS[i] = sharedLine('*', i);
        }
    }

    private RespWriter() {
    }

    public static void writeOk(ByteBuf out) {
        out.writeBytes(OK);
    }

    public static void writePong(ByteBuf out) {
        out.writeBytes(PONG);
    }

    /** {@code +text\r\n}; the text must hold no CR or LF (callers pass fixed words or sanitized text). */
    public static void writeSimpleString(ByteBuf out, String text) {
        writeLine(out, '+', text);
    }

    /** {@code -message\r\n}; the message starts with its code, as in {@code ERR syntax error}. */
    public static void writeError(ByteBuf out, String message) {
        writeLine(out, '-', message);
    }

    /** An error line of raw bytes, for texts that echo a client's bytes as they came. */
    public static void writeError(ByteBuf out, byte[] message) {
        out.writeByte('-');
        out.writeBytes(message);
        out.writeBytes(CRLF);
    }

    public static void writeInteger(ByteBuf out, long value) {
        if (value >= 0 && value < SHARED_INTEGERS) {
            out.writeBytes(INTEGER_REPLIES[(int) value]);
            return;
        }
        out.writeByte(':');
        writeDecimal(out, value);
        out.writeBytes(CRLF);
    }

    public static void writeBulk(ByteBuf out, byte[] value) {
        writeBulk(out, value, 0, value.length);
    }

    public static void writeBulk(ByteBuf out, byte[] value, int offset, int length) {
        writeLength(out, BULK_HEADERS, '$', length);
        out.writeBytes(value, offset, length);
        out.writeBytes(CRLF);
    }

    /** A bulk string holding {@code text} in UTF-8. */
    public static void writeBulk(ByteBuf out, String text) {
        writeBulk(out, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void writeNullBulk(ByteBuf out) {
        out.writeBytes(NULL_BULK);
    }

    public static void writeArrayHeader(ByteBuf out, int count) {
        if (count == 0) {
            out.writeBytes(EMPTY_ARRAY);
            return;
        }
        writeLength(out, ARRAY_HEADERS, '*', count);
    }

    public static void writeNullArray(ByteBuf out) {
        out.writeBytes(NULL_ARRAY);
    }

    /**
     * A RESP3 aggregate's header: a map's ({@code '%'}, counting entries), a set's ({@code '~'}), a
     * push's ({@code '>'}) or an attribute's ({@code '|'}, counting entries).
     */
    public static void writeAggregateHeader(ByteBuf out, char type, long count) {
        out.writeByte(type);
        writeDecimal(out, count);
        out.writeBytes(CRLF);
    }

    /** RESP3's null, {@code _\r\n}, which stands for both RESP2 nulls. */
    public static void writeNull(ByteBuf out) {
        out.writeBytes(NULL);
    }

    /** {@link #writeNull(ByteBuf)} into an array with {@link #MAX_LINE_BYTES} free; returns the end. */
    public static int writeNull(byte[] out, int at) {
        return put(out, at, NULL);
    }

    public static void writeBoolean(ByteBuf out, boolean value) {
        out.writeBytes(value ? TRUE : FALSE);
    }

    /** RESP3's double, {@code ,text\r\n}, with the text as the caller formatted it ({@code 1.5}, {@code inf}). */
    public static void writeDouble(ByteBuf out, String text) {
        writeLine(out, ',', text);
    }

    /** RESP3's big number, {@code (digits\r\n}. */
    public static void writeBigNumber(ByteBuf out, String digits) {
        writeLine(out, '(', digits);
    }

    /** A one-line reply: its type byte, the text in UTF-8 (ASCII for numbers), CRLF. */
    private static void writeLine(ByteBuf out, char type, String text) {
        out.writeByte(type);
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }

    /** RESP3's verbatim string: {@code =len\r\n}, the three-letter format, a colon, the text, CRLF. */
    public static void writeVerbatim(ByteBuf out, String format, byte[] text) {
        out.writeByte('=');
        writeDecimal(out, text.length + 4);
        out.writeBytes(CRLF);
        out.writeCharSequence(format, StandardCharsets.US_ASCII);
        out.writeByte(':');
        out.writeBytes(text);
        out.writeBytes(CRLF);
    }

    /** {@link #writeInteger(ByteBuf, long)} at {@code at} of an array with {@link #MAX_LINE_BYTES} free; returns the end. */
    public static int writeInteger(byte[] out, int at, long value) {
        if (value >= 0 && value < SHARED_INTEGERS) {
            return put(out, at, INTEGER_REPLIES[(int) value]);
        }
        out[at++] = ':';
        at = writeDecimal(out, at, value);
        return putCrlf(out, at);
    }

    /** {@link #writeBulk(ByteBuf, byte[], int, int)} into an array with {@code length + MAX_LINE_BYTES + 2} free; returns the end. */
    public static int writeBulk(byte[] out, int at, byte[] value, int offset, int length) {
        at = writeLength(out, at, BULK_HEADERS, '$', length);
        System.arraycopy(value, offset, out, at, length);
        return putCrlf(out, at + length);
    }

    /** {@link #writeArrayHeader(ByteBuf, int)} into an array with {@link #MAX_LINE_BYTES} free; returns the end. */
    public static int writeArrayHeader(byte[] out, int at, int count) {
        return count == 0 ? put(out, at, EMPTY_ARRAY) : writeLength(out, at, ARRAY_HEADERS, '*', count);
    }

    /** {@link #writeNullBulk(ByteBuf)} into an array with {@link #MAX_LINE_BYTES} free; returns the end. */
    public static int writeNullBulk(byte[] out, int at) {
        return put(out, at, NULL_BULK);
    }

    /** A request as clients send it: an array of bulk strings. */
    public static void writeCommand(ByteBuf out, byte[]... args) {
        writeArrayHeader(out, args.length);
        for (byte[] arg : args) {
            writeBulk(out, arg);
        }
    }

    private static void writeLength(ByteBuf out, byte[][] shared, char type, int length) {
        if (length < SHARED_INTEGERS) {
            out.writeBytes(shared[length]);
            return;
        }
        out.writeByte(type);
        writeDecimal(out, length);
        out.writeBytes(CRLF);
    }

    private static int writeLength(byte[] out, int at, byte[][] shared, char type, int length) {
        if (length < SHARED_INTEGERS) {
            return put(out, at, shared[length]);
        }
        out[at++] = (byte) type;
        return putCrlf(out, writeDecimal(out, at, length));
    }

    private static int writeDecimal(byte[] out, int at, long value) {
        if (value == Long.MIN_VALUE) {
            return put(out, at, "-9223372036854775808".getBytes(StandardCharsets.US_ASCII));
        }
        if (value < 0) {
            out[at++] = '-';
            value = -value;
        }
        int end = at + digits(value);
        for (int i = end - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return end;
    }

    private static int put(byte[] out, int at, byte[] bytes) {
        System.arraycopy(bytes, 0, out, at, bytes.length);
        return at + bytes.length;
    }

    private static int putCrlf(byte[] out, int at) {
        out[at] = '\r';
        out[at + 1] = '\n';
        return at + 2;
    }

    private static int digits(long value) {
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }

    /** Writes the decimal digits of {@code value} without going through a String. */
    static void writeDecimal(ByteBuf out, long value) {
        if (value == Long.MIN_VALUE) {
            out.writeCharSequence("-9223372036854775808", StandardCharsets.US_ASCII);
            return;
        }
        if (value < 0) {
            out.writeByte('-');
            value = -value;
        }
        int digits = digits(value);
        int end = out.writerIndex() + digits;
        out.ensureWritable(digits);
        for (int i = end - 1; i >= out.writerIndex(); i--) {
            out.setByte(i, (int) ('0' + value % 10));
            value /= 10;
        }
        out.writerIndex(end);
    }

    /**
     * {@code type}, the digits of {@code n} (below {@link #SHARED_INTEGERS}) and CRLF, built without
     * Strings: 30,000 concatenations made this class's initialization, which the first reply (the
     * AOF replay's, at start) waits for, about three times slower.
     */
    private static byte[] sharedLine(char type, int n) {
        int digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4;
        byte[] line = new byte[digits + 3];
        line[0] = (byte) type;
        for (int i = digits; i > 0; i--, n /= 10) {
            line[i] = (byte) ('0' + n % 10);
        }
        line[digits + 1] = '\r';
        line[digits + 2] = '\n';
        return line;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
