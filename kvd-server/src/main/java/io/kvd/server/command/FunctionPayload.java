package io.kvd.server.command;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * FUNCTION DUMP's payload, as Redis 7.0 writes it (rdbSaveFunctions, then functionDumpCommand):
 * per library the opcode RDB_OPCODE_FUNCTION2 and its code as an RDB string, then the RDB
 * version (10) in two bytes and the CRC-64 of everything before, both little-endian. kvd writes
 * the code uncompressed (Redis compresses strings over 20 bytes with LZF when that saves space);
 * it reads every RDB string encoding, LZF included, so a payload of either server restores on both.
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
            writeLength(out, code.length);
            out.writeBytes(code);
        }
        out.write(RDB_VERSION);
        out.write(0);
        long crc = crc64(out.toByteArray(), out.size());
        for (int i = 0; i < 8; i++) {
            out.write((int) (crc >>> (8 * i)));
        }
        return out.toByteArray();
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

    /** LZF decompression (liblzf's lzf_decompress, which Redis uses for RDB strings). */
    static final class Lzf {
        private Lzf() {
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
