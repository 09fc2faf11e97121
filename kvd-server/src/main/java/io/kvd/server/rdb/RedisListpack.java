package io.kvd.server.rdb;

import io.kvd.server.numeric.IntegerText;
import io.kvd.server.numeric.Printf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's listpack (listpack.c) as bytes: written as lpAppend writes it, read with every length
 * checked against the blob (a corrupt one is an {@link RdbFormatException}, never an exception of
 * the JVM's). kvd's own packed encodings differ, so RDB values are converted at this edge.
 */
final class RedisListpack {
    private static final int HEADER = 6;
    private static final int END = 0xFF;

    private RedisListpack() {
    }

    /** Builds a listpack by appending elements, as lpAppend does. */
    static final class Builder {
        private final ByteArrayOutputStream entries = new ByteArrayOutputStream();
        private int count;

        Builder add(byte[] element) {
            Long integer = element.length < 21 ? IntegerText.string2ll(element) : null;
            if (integer != null) {
                return add(integer);
            }
            int start = entries.size();
            int length = element.length;
            if (length < 64) {
                entries.write(0x80 | length);
            } else if (length < 4096) {
                entries.write(0xE0 | length >> 8);
                entries.write(length);
            } else {
                entries.write(0xF0);
                writeLe(length, 4);
            }
            entries.writeBytes(element);
            backlen(entries.size() - start);
            count++;
            return this;
        }

        /** lpEncodeIntegerGetType: the smallest of 7, 13, 16, 24, 32 and 64-bit forms. */
        Builder add(long v) {
            int start = entries.size();
            if (v >= 0 && v <= 127) {
                entries.write((int) v);
            } else if (v >= -4096 && v <= 4095) {
                long u = v < 0 ? (1L << 13) + v : v;
                entries.write(0xC0 | (int) (u >> 8));
                entries.write((int) u);
            } else if (v >= -32768 && v <= 32767) {
                entries.write(0xF1);
                writeLe(v, 2);
            } else if (v >= -8388608 && v <= 8388607) {
                entries.write(0xF2);
                writeLe(v, 3);
            } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                entries.write(0xF3);
                writeLe(v, 4);
            } else {
                entries.write(0xF4);
                writeLe(v, 8);
            }
            backlen(entries.size() - start);
            count++;
            return this;
        }

        /** A score as zzlInsertAt stores it: d2string's text, an integer when it is one. */
        Builder addScore(double score) {
            return add(scoreText(score));
        }

        int count() {
            return count;
        }

        /** The listpack's size if built now. */
        int bytes() {
            return HEADER + entries.size() + 1;
        }

        byte[] build() {
            int total = bytes();
            byte[] out = new byte[total];
            putLe(out, 0, total, 4);
            putLe(out, 4, Math.min(count, 65535), 2);
            byte[] body = entries.toByteArray();
            System.arraycopy(body, 0, out, HEADER, body.length);
            out[total - 1] = (byte) END;
            return out;
        }

        private void backlen(int length) {
            if (length <= 127) {
                entries.write(length);
            } else if (length < 16383) {
                entries.write(length >> 7);
                entries.write((length & 127) | 128);
            } else if (length < 2097151) {
                entries.write(length >> 14);
                entries.write(((length >> 7) & 127) | 128);
                entries.write((length & 127) | 128);
            } else if (length < 268435455) {
                entries.write(length >> 21);
                entries.write(((length >> 14) & 127) | 128);
                entries.write(((length >> 7) & 127) | 128);
                entries.write((length & 127) | 128);
            } else {
                entries.write(length >>> 28);
                entries.write(((length >> 21) & 127) | 128);
                entries.write(((length >> 14) & 127) | 128);
                entries.write(((length >> 7) & 127) | 128);
                entries.write((length & 127) | 128);
            }
        }

        private void writeLe(long v, int bytes) {
            for (int i = 0; i < bytes; i++) {
                entries.write((int) (v >>> (8 * i)));
            }
        }
    }

    /** Redis's d2string, as the score of a listpack sorted set is stored. */
    static byte[] scoreText(double score) {
        String text;
        if (Double.isNaN(score)) {
            text = "nan";
        } else if (score > -4503599627370495.0 && score < 4503599627370496.0 && score == (double) (long) score
                && !(score == 0 && 1 / score < 0)) {
            text = Long.toString((long) score);
        } else {
            text = Printf.g17(score);
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The elements of a listpack blob, integers as their decimal text. The header's total must be
     * the blob's length and the blob must end at its terminator (lpValidateIntegrity's checks).
     */
    static List<byte[]> read(byte[] lp) {
        if (lp.length < HEADER + 1 || readLe(lp, 0, 4) != lp.length || (lp[lp.length - 1] & 0xFF) != END) {
            throw new RdbFormatException("listpack header is corrupt");
        }
        int declared = (int) readLe(lp, 4, 2);
        List<byte[]> elements = new ArrayList<>(Math.min(declared, 1024));
        int p = HEADER;
        int end = lp.length - 1;
        while (p < end) {
            int start = p;
            int b = lp[p] & 0xFF;
            byte[] element;
            if ((b & 0x80) == 0) {
                element = ascii(b);
                p += 1;
            } else if ((b & 0xC0) == 0x80) {
                int length = b & 0x3F;
                element = slice(lp, p + 1, length, end);
                p += 1 + length;
            } else if ((b & 0xE0) == 0xC0) {
                need(lp, p, 2, end);
                long u = ((b & 0x1F) << 8) | (lp[p + 1] & 0xFF);
                element = ascii(u >= 1 << 12 ? u - (1 << 13) : u);
                p += 2;
            } else if ((b & 0xF0) == 0xE0) {
                need(lp, p, 2, end);
                int length = ((b & 0x0F) << 8) | (lp[p + 1] & 0xFF);
                element = slice(lp, p + 2, length, end);
                p += 2 + length;
            } else {
                switch (b) {
                    case 0xF0 -> {
                        need(lp, p, 5, end);
                        long length = readLe(lp, p + 1, 4);
                        element = slice(lp, p + 5, length, end);
                        p += 5 + (int) length;
                    }
                    case 0xF1 -> {
                        element = signed(lp, p, 2, end);
                        p += 3;
                    }
                    case 0xF2 -> {
                        element = signed(lp, p, 3, end);
                        p += 4;
                    }
                    case 0xF3 -> {
                        element = signed(lp, p, 4, end);
                        p += 5;
                    }
                    case 0xF4 -> {
                        element = signed(lp, p, 8, end);
                        p += 9;
                    }
                    default -> throw new RdbFormatException("listpack entry has an invalid encoding");
                }
            }
            int backlen = backlenSize(p - start);
            if (p + backlen > end) {
                throw new RdbFormatException("listpack entry runs past the end");
            }
            p += backlen;
            elements.add(element);
        }
        if (declared != 65535 && declared != elements.size()) {
            throw new RdbFormatException("listpack count does not match its entries");
        }
        return elements;
    }

    private static int backlenSize(int length) {
        return length <= 127 ? 1 : length < 16383 ? 2 : length < 2097151 ? 3 : length < 268435455 ? 4 : 5;
    }

    private static byte[] signed(byte[] lp, int p, int bytes, int end) {
        need(lp, p, 1 + bytes, end);
        long u = readLe(lp, p + 1, bytes);
        int shift = 64 - 8 * bytes;
        return ascii((u << shift) >> shift);
    }

    private static void need(byte[] lp, int p, int bytes, int end) {
        if (p + bytes > end) {
            throw new RdbFormatException("listpack entry runs past the end");
        }
    }

    private static byte[] slice(byte[] lp, int from, long length, int end) {
        if (length < 0 || from + length > end) {
            throw new RdbFormatException("listpack string runs past the end");
        }
        byte[] out = new byte[(int) length];
        System.arraycopy(lp, from, out, 0, (int) length);
        return out;
    }

    static byte[] ascii(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }

    static long readLe(byte[] b, int from, int bytes) {
        long v = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            v = v << 8 | (b[from + i] & 0xFF);
        }
        return v;
    }

    static void putLe(byte[] b, int from, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b[from + i] = (byte) (v >>> (8 * i));
        }
    }
}
