package io.kvd.server.rdb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads RDB's primitives as rdb.c's loaders do (rdbLoadLen, rdbGenericLoadStringObject, the
 * doubles and times), from a stream of known size, keeping the CRC-64 of what was read. Every
 * length is checked against the bytes left before anything is allocated for it, so a corrupt
 * count is an {@link RdbFormatException}, never an OutOfMemoryError or a hang.
 */
final class RdbInput {
    /** Java's largest array: a longer string cannot be held, whatever the file says. */
    private static final long MAX_STRING = Integer.MAX_VALUE - 8;

    private final InputStream in;
    private final long size;
    private final byte[] buffer = new byte[64 * 1024];
    private long before;
    private int position;
    private int limit;
    private int crcFrom;
    private long crc;
    /** Set by {@link #lengthOrEncoding}: whether it saw an encoded string's marker rather than a length, and its kind. */
    private boolean encoded;
    private int encoding;

    RdbInput(InputStream in, long size) {
        this.in = in;
        this.size = size;
    }

    long position() {
        return before + position;
    }

    long remaining() {
        return size - position();
    }

    /** The CRC-64 of every byte read so far. */
    long crc() {
        crc = Crc64.update(crc, buffer, crcFrom, position);
        crcFrom = position;
        return crc;
    }

    int readByte() {
        if (position == limit) {
            fill();
        }
        return buffer[position++] & 0xFF;
    }

    byte[] readBytes(long n) {
        if (n < 0 || n > remaining() || n > MAX_STRING) {
            throw new RdbFormatException("unexpected end of the RDB data (" + n + " bytes claimed at offset "
                    + position() + ", " + remaining() + " left)");
        }
        byte[] out = new byte[(int) n];
        int done = 0;
        while (done < n) {
            if (position == limit) {
                fill();
            }
            int chunk = Math.min(limit - position, out.length - done);
            System.arraycopy(buffer, position, out, done, chunk);
            position += chunk;
            done += chunk;
        }
        return out;
    }

    private void fill() {
        crc();
        before += limit;
        position = 0;
        limit = 0;
        crcFrom = 0;
        try {
            int n = remaining() > 0 ? in.read(buffer, 0, (int) Math.min(buffer.length, remaining())) : -1;
            if (n <= 0) {
                throw new RdbFormatException("unexpected end of the RDB data at offset " + before);
            }
            limit = n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** rdbLoadLen: a length (never an encoded string's marker). */
    long readLength() {
        long length = lengthOrEncoding();
        if (encoded) {
            throw new RdbFormatException("an encoded string where a length was expected at offset " + position());
        }
        return length;
    }

    /** A length that must count things held in memory (elements of a collection). */
    int readCount() {
        long length = readLength();
        if (length < 0 || length > remaining()) {
            // Each element takes at least one byte: a larger count is corrupt whatever it counts.
            throw new RdbFormatException("a count of " + length + " at offset " + position() + " exceeds the data left");
        }
        return (int) length;
    }

    private long lengthOrEncoding() {
        int first = readByte();
        encoded = false;
        switch (first >> 6) {
            case 0:
                return first & 0x3F;
            case 1:
                return (first & 0x3F) << 8 | readByte();
            case 2:
                if (first == 0x80) {
                    return readBigEndian(4);
                }
                if (first == 0x81) {
                    // Unsigned: as a count it is refused by readCount, as a stream id's part it is whole.
                    return readBigEndian(8);
                }
                throw new RdbFormatException("unknown length encoding " + first + " at offset " + position());
            default:
                encoded = true;
                encoding = first & 0x3F;
                return 0;
        }
    }

    private long readBigEndian(int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = v << 8 | readByte();
        }
        return v;
    }

    long readLittleEndian(int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (long) readByte() << (8 * i);
        }
        return v;
    }

    /** rdbGenericLoadStringObject: plain, an 8, 16 or 32-bit integer as its digits, or LZF. */
    byte[] readString() {
        long length = lengthOrEncoding();
        if (!encoded) {
            return readBytes(length);
        }
        return switch (encoding) {
            case Rdb.ENC_INT8 -> ascii((byte) readByte());
            case Rdb.ENC_INT16 -> ascii((short) readLittleEndian(2));
            case Rdb.ENC_INT32 -> ascii((int) readLittleEndian(4));
            case Rdb.ENC_LZF -> {
                long compressed = readLength();
                long plain = readLength();
                if (plain > MAX_STRING) {
                    throw new RdbFormatException("compressed string too long at offset " + position());
                }
                yield Lzf.decompress(readBytes(compressed), plain);
            }
            default -> throw new RdbFormatException("unknown string encoding " + encoding + " at offset " + position());
        };
    }

    /** rdbLoadBinaryDoubleValue. */
    double readBinaryDouble() {
        return Double.longBitsToDouble(readLittleEndian(8));
    }

    /** rdbLoadDoubleValue (RDB_TYPE_ZSET's scores): a length byte then text; 253, 254, 255 nan, inf, -inf. */
    double readTextDouble() {
        int length = readByte();
        return switch (length) {
            case 253 -> Double.NaN;
            case 254 -> Double.POSITIVE_INFINITY;
            case 255 -> Double.NEGATIVE_INFINITY;
            default -> parseDouble(readBytes(length));
        };
    }

    /** strtod over a score's text, as a listpack or ziplist sorted set holds it. */
    static double parseDouble(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII).trim();
        switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            case "nan", "-nan":
                return Double.NaN;
            default:
                break;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new RdbFormatException("score is not a number: " + s);
        }
    }

    private static byte[] ascii(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
