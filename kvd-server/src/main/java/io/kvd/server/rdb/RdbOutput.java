package io.kvd.server.rdb;

import io.kvd.server.numeric.IntegerText;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * Writes RDB's primitives into a buffer as Redis's rdb.c does: lengths (rdbSaveLen), strings
 * with their integer or LZF encodings (rdbSaveRawString), binary doubles and millisecond times.
 */
final class RdbOutput {
    /** rdbTryIntegerEncoding looks at strings of at most this many bytes. */
    private static final int MAX_INTEGER_STRING = 11;
    /** rdbSaveRawString tries LZF on strings longer than this. */
    private static final int MIN_COMPRESSED = 20;

    private final ByteBuf out;
    private final boolean compression;

    RdbOutput(ByteBuf out, boolean compression) {
        this.out = out;
        this.compression = compression;
    }

    ByteBuf buffer() {
        return out;
    }

    void type(int type) {
        out.writeByte(type);
    }

    /**
     * rdbSaveLen: 6 or 14 bits in the first bytes, else a marker and 32 or 64 bits big-endian.
     * Unsigned, as Redis's uint64_t: a stream id's parts and a group's unknown entries-read (-1) use all 64 bits.
     */
    void length(long length) {
        if (Long.compareUnsigned(length, 1 << 6) < 0) {
            out.writeByte((int) length);
        } else if (Long.compareUnsigned(length, 1 << 14) < 0) {
            out.writeByte(0x40 | (int) (length >> 8));
            out.writeByte((int) length);
        } else if (Long.compareUnsigned(length, 0xFFFFFFFFL) <= 0) {
            out.writeByte(0x80);
            out.writeInt((int) length);
        } else {
            out.writeByte(0x81);
            out.writeLong(length);
        }
    }

    void string(byte[] value) {
        string(value, 0, value.length);
    }

    /**
     * rdbSaveRawString: an integer's digits as a 1, 2 or 4 byte integer, a string over 20 bytes
     * LZF-compressed when {@code rdbcompression} is on and that saves at least 4 bytes, else plain.
     */
    void string(byte[] value, int from, int length) {
        if (length <= MAX_INTEGER_STRING && integer(value, from, length)) {
            return;
        }
        if (compression && length > MIN_COMPRESSED) {
            byte[] plain = from == 0 && length == value.length ? value : Arrays.copyOfRange(value, from, from + length);
            byte[] compressed = Lzf.compress(plain, length - 4);
            if (compressed != null) {
                out.writeByte(0xC0 | Rdb.ENC_LZF);
                length(compressed.length);
                length(length);
                out.writeBytes(compressed);
                return;
            }
        }
        length(length);
        out.writeBytes(value, from, length);
    }

    /** rdbTryIntegerEncoding: digits that print back the same and fit 32 bits. */
    private boolean integer(byte[] value, int from, int length) {
        Long parsed = IntegerText.string2ll(Arrays.copyOfRange(value, from, from + length));
        if (parsed == null) {
            return false;
        }
        long n = parsed;
        if (n >= Byte.MIN_VALUE && n <= Byte.MAX_VALUE) {
            out.writeByte(0xC0 | Rdb.ENC_INT8);
            out.writeByte((int) n);
        } else if (n >= Short.MIN_VALUE && n <= Short.MAX_VALUE) {
            out.writeByte(0xC0 | Rdb.ENC_INT16);
            out.writeShortLE((int) n);
        } else if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
            out.writeByte(0xC0 | Rdb.ENC_INT32);
            out.writeIntLE((int) n);
        } else {
            return false;
        }
        return true;
    }

    /** rdbSaveBinaryDoubleValue: the IEEE 754 bytes, little-endian. */
    void binaryDouble(double value) {
        out.writeLongLE(Double.doubleToRawLongBits(value));
    }

    /** rdbSaveMillisecondTime: 8 bytes, little-endian. */
    void millis(long ms) {
        out.writeLongLE(ms);
    }
}
