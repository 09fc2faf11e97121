package io.kvd.server.scripting;

import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * FUNCTION DUMP's payload, as Redis 7.0 writes it (rdbSaveFunctions, then functionDumpCommand):
 * per library the opcode RDB_OPCODE_FUNCTION2 and its code as an RDB string (LZF-compressed as
 * Redis compresses it), then the RDB version (10) in two bytes and the CRC-64 of everything
 * before, both little-endian. Every RDB string encoding is read, so either server restores the
 * other's payload.
 */
final class FunctionPayload {
    private static final int FUNCTION2 = 245;
    private static final int FUNCTION_PRE_GA = 246;
    private static final int RDB_VERSION = 10;
    private static final String WRONG = "ERR DUMP payload version or checksum are wrong";
    private static final String UNREADABLE = "ERR failed loading the given functions payload";
    /** Redis's crc64: Jones polynomial, reflected (0xad93d23594c935a9 bit-reversed), no final xor. */
    private static final long[] CRC_TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x95AC9329AC4BC9B5L : crc >>> 1;
            }
            CRC_TABLE[i] = crc;
        }
    }

    private FunctionPayload() {
    }

    static long crc64(byte[] bytes, int length) {
        long crc = 0;
        for (int i = 0; i < length; i++) {
            crc = CRC_TABLE[(int) ((crc ^ bytes[i]) & 0xFF)] ^ (crc >>> 8);
        }
        return crc;
    }

    /** The payload of these libraries' codes. */
    static byte[] write(List<byte[]> codes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] code : codes) {
            out.write(FUNCTION2);
            writeString(out, code);
        }
        out.write(RDB_VERSION);
        out.write(0);
        long crc = crc64(out.toByteArray(), out.size());
        for (int i = 0; i < 8; i++) {
            out.write((int) (crc >>> (8 * i)));
        }
        return out.toByteArray();
    }

    /**
     * Redis's rdbSaveRawString: over 20 bytes, LZF-compressed when that saves at least 4 bytes
     * (rdbSaveLzfStringObject), else plain.
     */
    private static void writeString(ByteArrayOutputStream out, byte[] value) {
        byte[] compressed = value.length > 20 ? Lzf.compress(value, value.length - 4) : null;
        if (compressed != null) {
            out.write(0xC3);
            writeLength(out, compressed.length);
            writeLength(out, value.length);
            out.writeBytes(compressed);
        } else {
            writeLength(out, value.length);
            out.writeBytes(value);
        }
    }

    /** Redis's rdbSaveLen: 6, 14 or 32 bits, the longer two big-endian. */
    private static void writeLength(ByteArrayOutputStream out, int length) {
        if (length < 1 << 6) {
            out.write(length);
        } else if (length < 1 << 14) {
            out.write(0x40 | length >> 8);
            out.write(length);
        } else {
            out.write(0x80);
            out.write(length >>> 24);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
        }
    }

    /** The library codes of a payload (Redis's verifyDumpPayload, then rdbFunctionLoad per library). */
    static List<byte[]> read(byte[] payload) {
        int end = payload.length - 10;
        if (end < 0) {
            throw new CommandError(WRONG);
        }
        int version = (payload[end] & 0xFF) | (payload[end + 1] & 0xFF) << 8;
        long crc = 0;
        for (int i = 7; i >= 0; i--) {
            crc = crc << 8 | (payload[end + 2 + i] & 0xFF);
        }
        if (version > RDB_VERSION || crc != crc64(payload, end + 2)) {
            throw new CommandError(WRONG);
        }
        List<byte[]> codes = new ArrayList<>();
        Reader in = new Reader(payload, end);
        while (in.position < end) {
            int type = in.readByte();
            if (type == FUNCTION_PRE_GA) {
                throw new CommandError("ERR Pre-GA function format not supported");
            }
            if (type != FUNCTION2) {
                throw new CommandError("ERR given type is not a function");
            }
            codes.add(in.readString());
        }
        return codes;
    }

    /** RDB strings (rdbGenericLoadStringObject); every length is checked against the bytes there are. */
    private static final class Reader {
        private final byte[] bytes;
        private final int end;
        private int position;

        Reader(byte[] bytes, int end) {
            this.bytes = bytes;
            this.end = end;
        }

        int readByte() {
            if (position >= end) {
                throw new CommandError(UNREADABLE);
            }
            return bytes[position++] & 0xFF;
        }

        /** rdbLoadLen; an encoded string's kind is returned as -1 - kind. */
        long readLength() {
            int first = readByte();
            return switch (first >> 6) {
                case 0 -> first & 0x3F;
                case 1 -> (first & 0x3F) << 8 | readByte();
                case 2 -> {
                    int bytesOfLength = first == 0x80 ? 4 : first == 0x81 ? 8 : 0;
                    if (bytesOfLength == 0) {
                        throw new CommandError(UNREADABLE);
                    }
                    long length = 0;
                    for (int i = 0; i < bytesOfLength; i++) {
                        length = length << 8 | readByte();
                    }
                    yield length;
                }
                default -> -1 - (first & 0x3F);
            };
        }

        byte[] readString() {
            long length = readLength();
            if (length >= 0) {
                return take(length);
            }
            int kind = (int) (-1 - length);
            return switch (kind) {
                case 0 -> Args.bytes(Long.toString((byte) readByte()));
                case 1 -> Args.bytes(Long.toString((short) (readByte() | readByte() << 8)));
                case 2 -> Args.bytes(Long.toString(readByte() | readByte() << 8 | readByte() << 16 | readByte() << 24));
                case 3 -> {
                    long compressed = readLength();
                    long plain = readLength();
                    yield Lzf.decompress(take(compressed), plain, UNREADABLE);
                }
                default -> throw new CommandError(UNREADABLE);
            };
        }

        private byte[] take(long length) {
            if (length < 0 || length > end - position) {
                throw new CommandError(UNREADABLE);
            }
            byte[] taken = Arrays.copyOfRange(bytes, position, position + (int) length);
            position += (int) length;
            return taken;
        }
    }

    /** LZF (liblzf 3.6 as Redis builds it: HLOG 16, VERY_FAST), which Redis uses for RDB strings. */
    static final class Lzf {
        private static final int HLOG = 16;
        private static final int MAX_LIT = 1 << 5;
        private static final int MAX_OFF = 1 << 13;
        private static final int MAX_REF = (1 << 8) + (1 << 3);

        private Lzf() {
        }

        /**
         * lzf_compress into at most {@code outLength} bytes: the compressed bytes, or null when
         * they would not fit (Redis then writes the string plain).
         */
        static byte[] compress(byte[] in, int outLength) {
            if (in.length == 0 || outLength <= 0) {
                return null;
            }
            return new Compressor(in, outLength).run();
        }

        /** One lzf_compress: its positions in the input and the output, and the literal run open. */
        private static final class Compressor {
            private final byte[] in;
            private final byte[] out;
            /** Slot values are positions + 1: 0 is an empty slot, which never matches (as ref > in_data). */
            private final int[] table = new int[1 << HLOG];
            private int ip;
            private int op = 1;
            private int lit;

            Compressor(byte[] in, int outLength) {
                this.in = in;
                this.out = new byte[outLength];
            }

            byte[] run() {
                int end = in.length;
                int hval = first(in, ip);
                while (ip < end - 2) {
                    hval = next(hval, in, ip);
                    int slot = index(hval);
                    int ref = table[slot] - 1;
                    table[slot] = ip + 1;
                    int off = ip - ref - 1;
                    if (ref > 0 && off < MAX_OFF && in[ref + 2] == in[ip + 2] && in[ref] == in[ip]
                            && in[ref + 1] == in[ip + 1]) {
                        if (op + 3 + 1 >= out.length && op - (lit == 0 ? 1 : 0) + 3 + 1 >= out.length) {
                            return null;
                        }
                        backReference(ref, off, Math.min(end - ip - 2, MAX_REF));
                        if (ip >= end - 2) {
                            break;
                        }
                        ip -= 2;
                        hval = first(in, ip);
                        hval = next(hval, in, ip);
                        table[index(hval)] = ip + 1;
                        ip++;
                        hval = next(hval, in, ip);
                        table[index(hval)] = ip + 1;
                        ip++;
                    } else if (!literal()) {
                        return null;
                    }
                }
                // liblzf gives up here unless the last (at most 2) bytes and their run header surely fit.
                if (op + 3 > out.length) {
                    return null;
                }
                while (ip < end) {
                    literal();
                }
                out[op - lit - 1] = (byte) (lit - 1);
                op -= lit == 0 ? 1 : 0;
                return Arrays.copyOf(out, op);
            }

            /** Ends the literal run, writes a reference to the match at {@code ref}, starts a run. */
            private void backReference(int ref, int off, int maxlen) {
                out[op - lit - 1] = (byte) (lit - 1);
                op -= lit == 0 ? 1 : 0;
                // liblzf's unrolled first 16 comparisons, which do not stop at maxlen.
                int len = 2;
                boolean matched = false;
                if (maxlen > 16) {
                    matched = true;
                    for (int i = 0; i < 16 && matched; i++) {
                        len++;
                        matched = in[ref + len] == in[ip + len];
                    }
                }
                if (maxlen <= 16 || matched) {
                    do {
                        len++;
                    } while (len < maxlen && in[ref + len] == in[ip + len]);
                }
                len -= 2;
                ip++;
                if (len < 7) {
                    out[op++] = (byte) ((off >> 8) + (len << 5));
                } else {
                    out[op++] = (byte) ((off >> 8) + (7 << 5));
                    out[op++] = (byte) (len - 7);
                }
                out[op++] = (byte) off;
                lit = 0;
                op++;
                ip += len + 1;
            }

            /** Copies one input byte into the literal run, ending it at MAX_LIT; false when the output is full. */
            private boolean literal() {
                if (op >= out.length) {
                    return false;
                }
                lit++;
                out[op++] = in[ip++];
                if (lit == MAX_LIT) {
                    out[op - lit - 1] = (byte) (lit - 1);
                    lit = 0;
                    op++;
                }
                return true;
            }
        }

        private static int first(byte[] in, int p) {
            return (in[p] & 0xFF) << 8 | (in[p + 1] & 0xFF);
        }

        private static int next(int hval, byte[] in, int p) {
            return hval << 8 | (in[p + 2] & 0xFF);
        }

        /** VERY_FAST's IDX, in C's unsigned int arithmetic. */
        private static int index(int hval) {
            return ((hval >>> (3 * 8 - HLOG)) - hval * 5) & ((1 << HLOG) - 1);
        }

        /**
         * Decompresses {@code in}, which must give exactly {@code length} bytes. The output grows as
         * bytes are produced, never sized from {@code length} alone, which the payload claims.
         */
        static byte[] decompress(byte[] in, long length, String error) {
            byte[] out = new byte[Math.min(64, in.length * 2 + 1)];
            int written = 0;
            int read = 0;
            while (read < in.length) {
                int control = in[read++] & 0xFF;
                if (control < 32) {
                    int run = control + 1;
                    if (read + run > in.length) {
                        throw new CommandError(error);
                    }
                    out = room(out, written + run, length, error);
                    System.arraycopy(in, read, out, written, run);
                    read += run;
                    written += run;
                } else {
                    int run = control >> 5;
                    int back = (control & 0x1F) << 8;
                    if (run == 7) {
                        if (read >= in.length) {
                            throw new CommandError(error);
                        }
                        run += in[read++] & 0xFF;
                    }
                    if (read >= in.length) {
                        throw new CommandError(error);
                    }
                    back += (in[read++] & 0xFF) + 1;
                    run += 2;
                    if (back > written) {
                        throw new CommandError(error);
                    }
                    out = room(out, written + run, length, error);
                    for (int i = 0; i < run; i++, written++) {
                        out[written] = out[written - back];
                    }
                }
            }
            if (written != length) {
                throw new CommandError(error);
            }
            return Arrays.copyOf(out, written);
        }

        private static byte[] room(byte[] out, int needed, long length, String error) {
            if (needed > length) {
                throw new CommandError(error);
            }
            return needed <= out.length ? out : Arrays.copyOf(out, (int) Math.min(length, Math.max(needed, 2L * out.length)));
        }
    }
}
