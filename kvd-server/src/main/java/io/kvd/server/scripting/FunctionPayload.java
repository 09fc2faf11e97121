package io.kvd.server.scripting;

import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.rdb.Crc64;
import io.kvd.server.rdb.Lzf;
import io.kvd.server.rdb.RdbFormatException;

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
    private FunctionPayload() {
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
        long crc = Crc64.of(out.toByteArray(), out.size());
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
        if (version > RDB_VERSION || crc != Crc64.of(payload, end + 2)) {
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
                    try {
                        yield Lzf.decompress(take(compressed), plain);
                    } catch (RdbFormatException e) {
                        throw new CommandError(UNREADABLE);
                    }
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
}
