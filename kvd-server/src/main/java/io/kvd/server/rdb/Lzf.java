package io.kvd.server.rdb;

import java.util.Arrays;

/**
 * LZF (liblzf 3.6 as Redis builds it: HLOG 16, VERY_FAST), which Redis uses for RDB strings. Written
 * here because no maintained Maven library produces liblzf's exact output (compress-lzf hashes
 * differently and frames its blocks), and DUMP payloads and RDB files must match Redis byte for byte.
 */
public final class Lzf {
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
    public static byte[] compress(byte[] in, int outLength) {
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
    public static byte[] decompress(byte[] in, long length) {
        byte[] out = new byte[Math.min(64, in.length * 2 + 1)];
        int written = 0;
        int read = 0;
        while (read < in.length) {
            int control = in[read++] & 0xFF;
            if (control < 32) {
                int run = control + 1;
                if (read + run > in.length) {
                    throw new RdbFormatException("LZF data is corrupt");
                }
                out = room(out, written + run, length);
                System.arraycopy(in, read, out, written, run);
                read += run;
                written += run;
            } else {
                int run = control >> 5;
                int back = (control & 0x1F) << 8;
                if (run == 7) {
                    if (read >= in.length) {
                        throw new RdbFormatException("LZF data is corrupt");
                    }
                    run += in[read++] & 0xFF;
                }
                if (read >= in.length) {
                    throw new RdbFormatException("LZF data is corrupt");
                }
                back += (in[read++] & 0xFF) + 1;
                run += 2;
                if (back > written) {
                    throw new RdbFormatException("LZF data is corrupt");
                }
                out = room(out, written + run, length);
                for (int i = 0; i < run; i++, written++) {
                    out[written] = out[written - back];
                }
            }
        }
        if (written != length) {
            throw new RdbFormatException("LZF data is corrupt");
        }
        return Arrays.copyOf(out, written);
    }

    private static byte[] room(byte[] out, int needed, long length) {
        if (needed > length) {
            throw new RdbFormatException("LZF data is corrupt");
        }
        return needed <= out.length ? out : Arrays.copyOf(out, (int) Math.min(length, Math.max(needed, 2L * out.length)));
    }
}
