package io.kvd.server.hyperloglog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Redis 7.0's HyperLogLog (hyperloglog.c) on a string's bytes, byte for byte: a 16-byte header
 * ("HYLL", the encoding, 3 unused bytes, the cached cardinality little-endian with its MSB set
 * when stale), then either 16384 dense 6-bit registers packed from each byte's low bits up, or
 * the sparse opcodes ZERO (00xxxxxx: 1-64 zero registers), XZERO (01xxxxxx xxxxxxxx: 1-16384)
 * and VAL (1vvvvvxx: 1-4 registers of value 1-32). A sparse HLL turns dense once it would pass
 * hll-sparse-max-bytes or needs a value above 32.
 * <p>
 * One instance is either a view of a string where the keyspace stores it, from {@link #start}
 * (read, or a dense one's registers raised in place, which keeps its size), or one command's
 * working copy, which starts at 0 and may hold spare room past {@link #length} for a growing
 * sparse form; {@link #toValue} gives the string to store.
 */
public final class HyperLogLog {
    public static final String NOT_HLL = "WRONGTYPE Key is not a valid HyperLogLog string value.";
    public static final String CORRUPTED = "INVALIDOBJ Corrupted HLL object detected";

    static final int P = 14;
    public static final int REGISTERS = 1 << P;
    /** The hash bits left after the register index: a run of zeros counts up to Q + 1. */
    private static final int Q = 64 - P;
    private static final int REGISTER_MAX = 63;
    public static final int HEADER_SIZE = 16;
    public static final int DENSE_SIZE = HEADER_SIZE + (REGISTERS * 6 + 7) / 8;
    public static final int DENSE = 0;
    public static final int SPARSE = 1;
    private static final int ENCODING_OFFSET = 4;
    private static final int CARD_OFFSET = 8;

    private static final int SPARSE_VAL_MAX_VALUE = 32;
    private static final int SPARSE_VAL_MAX_LEN = 4;
    private static final int SPARSE_ZERO_MAX_LEN = 64;
    private static final int SPARSE_XZERO_MAX_LEN = 16384;
    private static final double ALPHA_INF = 0.721347520444481703680;

    private static final long MURMUR_M = 0xc6a4a7935bd1e995L;
    private static final long MURMUR_SEED = 0xadc83b19L;
    private static final VarHandle LITTLE_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes;
    /** Where the string starts in {@link #bytes}. */
    private int start;
    private int length;
    /**
     * The opcodes replacing a split one (at most XZERO-VAL-XZERO), reused across one command's
     * edits; made at the first split, so a view that splits nothing allocates only itself.
     */
    private byte[] sequence;

    private HyperLogLog(byte[] bytes, int start, int length) {
        this.bytes = bytes;
        this.start = start;
        this.length = length;
    }

    /** Redis's createHLLObject: sparse, every register zero (one XZERO), a cached cardinality of 0. */
    public static HyperLogLog empty() {
        byte[] bytes = new byte[HEADER_SIZE + 2];
        writeMagic(bytes);
        bytes[ENCODING_OFFSET] = SPARSE;
        setXzero(bytes, HEADER_SIZE, REGISTERS);
        return new HyperLogLog(bytes, 0, bytes.length);
    }

    /** A dense HLL of all-zero registers (PFSELFTEST's). */
    public static HyperLogLog emptyDense() {
        byte[] bytes = new byte[DENSE_SIZE];
        writeMagic(bytes);
        return new HyperLogLog(bytes, 0, bytes.length);
    }

    /** {@link #of(byte[], int, int)} of a whole array: a copy this instance may edit. */
    public static HyperLogLog of(byte[] value) {
        return of(value, 0, value.length);
    }

    /**
     * Redis's isHLLObjectOrReply: the string of {@code length} bytes from {@code start} if its
     * header is an HLL's and a dense one has the exact size, else null. The sparse opcodes are
     * checked as they are read.
     */
    public static HyperLogLog of(byte[] bytes, int start, int length) {
        if (length < HEADER_SIZE || bytes[start] != 'H' || bytes[start + 1] != 'Y' || bytes[start + 2] != 'L'
                || bytes[start + 3] != 'L') {
            return null;
        }
        int encoding = bytes[start + ENCODING_OFFSET] & 0xFF;
        if (encoding > SPARSE || encoding == DENSE && length != DENSE_SIZE) {
            return null;
        }
        return new HyperLogLog(bytes, start, length);
    }

    private static void writeMagic(byte[] bytes) {
        bytes[0] = 'H';
        bytes[1] = 'Y';
        bytes[2] = 'L';
        bytes[3] = 'L';
    }

    public int encoding() {
        return bytes[start + ENCODING_OFFSET];
    }

    /** The string to store: shared when it is the whole array. */
    public byte[] toValue() {
        return start == 0 && bytes.length == length ? bytes : Arrays.copyOfRange(bytes, start, start + length);
    }

    public boolean isCacheValid() {
        return (bytes[start + CARD_OFFSET + 7] & 0x80) == 0;
    }

    public void invalidateCache() {
        bytes[start + CARD_OFFSET + 7] |= (byte) 0x80;
    }

    public long cachedCardinality() {
        return (long) LITTLE_LONGS.get(bytes, start + CARD_OFFSET);
    }

    public void cacheCardinality(long cardinality) {
        LITTLE_LONGS.set(bytes, start + CARD_OFFSET, cardinality);
    }

    // Hashing

    /** Redis's MurmurHash64A (MurmurHash2, 64-bit) of {@code data}, reading words little-endian. */
    static long murmurHash64A(byte[] data, int offset, int length) {
        long h = MURMUR_SEED ^ (length * MURMUR_M);
        int end = offset + (length & ~7);
        int i = offset;
        for (; i < end; i += 8) {
            long k = (long) LITTLE_LONGS.get(data, i);
            k *= MURMUR_M;
            k ^= k >>> 47;
            k *= MURMUR_M;
            h ^= k;
            h *= MURMUR_M;
        }
        int tail = length & 7;
        if (tail > 0) {
            for (int j = tail - 1; j >= 0; j--) {
                h ^= (data[i + j] & 0xFFL) << (8 * j);
            }
            h *= MURMUR_M;
        }
        h ^= h >>> 47;
        h *= MURMUR_M;
        h ^= h >>> 47;
        return h;
    }

    /** The hash of an element, which picks its register and the run of zeros it offers. */
    public static long hash(byte[] element) {
        return murmurHash64A(element, 0, element.length);
    }

    /**
     * Redis's hllAdd: raises the register the element hashes to if its run of zeros is longer.
     * 1 if a register changed, 0 if not, -1 for a corrupted sparse form.
     */
    public int add(byte[] element, long sparseMaxBytes) {
        return addHashed(hash(element), sparseMaxBytes);
    }

    /** {@link #add} of an element by its {@link #hash}. */
    public int addHashed(long hash, long sparseMaxBytes) {
        return set(index(hash), runLength(hash), sparseMaxBytes);
    }

    /**
     * True if adding the element of this {@link #hash} would change the HLL (or find it
     * corrupted), read without writing: PFADD's look before it writes.
     */
    public boolean wouldChange(long hash) {
        int index = index(hash);
        int current = encoding() == DENSE ? denseGet(bytes, start + HEADER_SIZE, index) : sparseGet(index);
        return runLength(hash) > current;
    }

    /** The register an element's hash picks: its low P bits. */
    private static int index(long hash) {
        return (int) (hash & (REGISTERS - 1));
    }

    /** The zeros after the index bits, plus the closing one; the bit at Q bounds the run. */
    private static int runLength(long hash) {
        return Long.numberOfTrailingZeros((hash >>> P) | (1L << Q)) + 1;
    }

    /** Raises register {@code index} to {@code count} if lower: 1 if it changed, 0 if not, -1 if corrupted. */
    public int set(int index, int count, long sparseMaxBytes) {
        return encoding() == DENSE
                ? denseSet(bytes, start + HEADER_SIZE, index, count) : sparseSet(index, count, sparseMaxBytes);
    }

    /** The eight bytes of {@code value}, least significant first, at the start of {@code bytes}. */
    public static void putLongLittleEndian(byte[] bytes, long value) {
        LITTLE_LONGS.set(bytes, 0, value);
    }

    // Dense

    /** Register {@code index} of the dense registers starting at {@code registers}. */
    public static int denseGet(byte[] bytes, int registers, int index) {
        int bit = index * 6;
        int at = registers + (bit >>> 3);
        int shift = bit & 7;
        // A register within one byte (shift <= 2) never reads the next, which the last one lacks.
        int word = shift <= 2 ? bytes[at] & 0xFF : (bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8;
        return (word >>> shift) & REGISTER_MAX;
    }

    public static void denseWrite(byte[] bytes, int registers, int index, int value) {
        int bit = index * 6;
        int at = registers + (bit >>> 3);
        int shift = bit & 7;
        bytes[at] = (byte) ((bytes[at] & ~(REGISTER_MAX << shift)) | value << shift);
        if (shift > 2) {
            bytes[at + 1] = (byte) ((bytes[at + 1] & ~(REGISTER_MAX >>> (8 - shift))) | value >>> (8 - shift));
        }
    }

    private static int denseSet(byte[] bytes, int registers, int index, int count) {
        if (count > denseGet(bytes, registers, index)) {
            denseWrite(bytes, registers, index, count);
            return 1;
        }
        return 0;
    }

    // Sparse

    private static boolean isZero(int op) {
        return (op & 0xC0) == 0;
    }

    private static boolean isXzero(int op) {
        return (op & 0xC0) == 0x40;
    }

    private static int zeroLength(int op) {
        return (op & 0x3F) + 1;
    }

    /** The run of an XZERO at {@code at}; a missing second byte reads as 0, as Redis's string terminator. */
    private static int xzeroLength(byte[] bytes, int at, int end) {
        int low = at + 1 < end ? bytes[at + 1] & 0xFF : 0;
        return ((bytes[at] & 0x3F) << 8 | low) + 1;
    }

    private static int valValue(int op) {
        return ((op >>> 2) & 0x1F) + 1;
    }

    private static int valLength(int op) {
        return (op & 0x3) + 1;
    }

    private static byte val(int value, int length) {
        return (byte) ((value - 1) << 2 | (length - 1) | 0x80);
    }

    private static void setXzero(byte[] bytes, int at, int length) {
        bytes[at] = (byte) ((length - 1) >>> 8 | 0x40);
        bytes[at + 1] = (byte) (length - 1);
    }

    /** Writes a run of {@code length} zero registers (ZERO or XZERO) at {@code at}; its size. */
    private static int writeZeros(byte[] bytes, int at, int length) {
        if (length > SPARSE_ZERO_MAX_LEN) {
            setXzero(bytes, at, length);
            return 2;
        }
        bytes[at] = (byte) (length - 1);
        return 1;
    }

    /** Room for {@code extra} more bytes past {@link #length}, growing as Redis's sdsMakeRoomFor would. */
    private void ensureRoom(int extra) {
        if (start + length + extra > bytes.length) {
            int capacity = Math.max(length + extra, Math.min(length * 2, DENSE_SIZE));
            bytes = Arrays.copyOfRange(bytes, start, start + capacity);
            start = 0;
        }
    }

    /** Register {@code index} of the sparse form, or 0 if no opcode covers it (corrupted). */
    private int sparseGet(int index) {
        int end = start + length;
        int first = 0;
        for (int p = start + HEADER_SIZE; p < end; ) {
            int op = bytes[p] & 0xFF;
            if (isZero(op)) {
                first += zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                first += xzeroLength(bytes, p, end);
                p += 2;
            } else {
                first += valLength(op);
                if (index < first) {
                    return valValue(op);
                }
                p++;
                continue;
            }
            if (index < first) {
                return 0;
            }
        }
        return 0;
    }

    /** Redis's hllSparseSet: splits the opcode covering {@code index}, or turns the HLL dense. */
    private int sparseSet(int index, int count, long sparseMaxBytes) {
        if (count > SPARSE_VAL_MAX_VALUE) {
            return promote(index, count);
        }
        ensureRoom(3);
        byte[] b = bytes;
        int end = start + length;
        // Step 1: the opcode covering the register, the one before it, and its first register.
        int p = start + HEADER_SIZE;
        int prev = -1;
        int first = 0;
        int span = 0;
        while (p < end) {
            int op = b[p] & 0xFF;
            int opLength = 1;
            if (isZero(op)) {
                span = zeroLength(op);
            } else if ((op & 0x80) != 0) {
                span = valLength(op);
            } else {
                span = xzeroLength(b, p, end);
                opLength = 2;
            }
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += opLength;
            first += span;
        }
        if (span == 0 || p >= end) {
            return -1;
        }
        int op = b[p] & 0xFF;
        boolean zero = isZero(op);
        boolean xzero = isXzero(op);
        int next = xzero ? p + 2 : p + 1;
        int runLength = zero ? zeroLength(op) : xzero ? xzeroLength(b, p, end) : valLength(op);
        boolean updated = false;
        if (!zero && !xzero) {
            if (valValue(op) >= count) {
                return 0;
            }
            if (runLength == 1) {
                b[p] = val(count, 1);
                updated = true;
            }
        }
        if (!updated && zero && runLength == 1) {
            b[p] = val(count, 1);
            updated = true;
        }
        if (!updated) {
            // Step 2: the general case, the opcode split in up to three (XZERO-VAL-XZERO, 5 bytes).
            if (sequence == null) {
                sequence = new byte[5];
            }
            int n = 0;
            int last = first + span - 1;
            if (zero || xzero) {
                if (index != first) {
                    n += writeZeros(sequence, n, index - first);
                }
                sequence[n++] = val(count, 1);
                if (index != last) {
                    n += writeZeros(sequence, n, last - index);
                }
            } else {
                int current = valValue(op);
                if (index != first) {
                    sequence[n++] = val(current, index - first);
                }
                sequence[n++] = val(count, 1);
                if (index != last) {
                    sequence[n++] = val(current, last - index);
                }
            }
            // Step 3: the sequence replaces the opcode, moving what follows.
            int delta = n - (xzero ? 2 : 1);
            if (delta > 0 && (long) length + delta > sparseMaxBytes) {
                return promote(index, count);
            }
            if (delta != 0 && next < end) {
                System.arraycopy(b, next, b, next + delta, end - next);
            }
            System.arraycopy(sequence, 0, b, p, n);
            end += delta;
            length = end - start;
        }
        // Step 4: merge adjacent VAL opcodes of one value, scanning up to 5 opcodes from the previous.
        p = prev >= 0 ? prev : start + HEADER_SIZE;
        int scan = 5;
        while (p < end && scan-- > 0) {
            int current = b[p] & 0xFF;
            if (isXzero(current)) {
                p += 2;
                continue;
            }
            if (isZero(current)) {
                p++;
                continue;
            }
            if (p + 1 < end && ((b[p + 1] & 0x80) != 0)) {
                int following = b[p + 1] & 0xFF;
                int value = valValue(current);
                int merged = valLength(current) + valLength(following);
                if (value == valValue(following) && merged <= SPARSE_VAL_MAX_LEN) {
                    b[p + 1] = val(value, merged);
                    System.arraycopy(b, p + 1, b, p, end - p - 1);
                    end--;
                    // Retried at the same place: the merged opcode may merge with the next.
                    continue;
                }
            }
            p++;
        }
        length = end - start;
        invalidateCache();
        return 1;
    }

    /** Turns the HLL dense and sets the register there; -1 if the sparse form was corrupted. */
    private int promote(int index, int count) {
        if (!toDense()) {
            return -1;
        }
        return denseSet(bytes, HEADER_SIZE, index, count);
    }

    /** Redis's hllSparseToDense; false (and unchanged) if the sparse opcodes do not cover every register once. */
    public boolean toDense() {
        if (encoding() == DENSE) {
            return true;
        }
        byte[] dense = new byte[DENSE_SIZE];
        System.arraycopy(bytes, start, dense, 0, HEADER_SIZE);
        dense[ENCODING_OFFSET] = DENSE;
        int covered = walkValueRuns((first, run, value) -> {
            for (int j = 0; j < run; j++) {
                denseWrite(dense, HEADER_SIZE, first + j, value);
            }
        });
        if (covered != REGISTERS) {
            return false;
        }
        bytes = dense;
        start = 0;
        length = DENSE_SIZE;
        return true;
    }

    /**
     * Redis's hllMerge: raises each of {@code max}'s registers (one byte each) to this HLL's;
     * false if the sparse form was corrupted.
     */
    public boolean mergeInto(byte[] max) {
        if (encoding() == DENSE) {
            // Four registers from three bytes at a time.
            for (int i = 0, r = start + HEADER_SIZE; i < REGISTERS; i += 4, r += 3) {
                int b0 = bytes[r] & 0xFF, b1 = bytes[r + 1] & 0xFF, b2 = bytes[r + 2] & 0xFF;
                raise(max, i, b0 & 63);
                raise(max, i + 1, (b0 >>> 6 | b1 << 2) & 63);
                raise(max, i + 2, (b1 >>> 4 | b2 << 4) & 63);
                raise(max, i + 3, b2 >>> 2);
            }
            return true;
        }
        return walkValueRuns((first, run, value) -> {
            for (int j = 0; j < run; j++) {
                raise(max, first + j, value);
            }
        }) == REGISTERS;
    }

    /**
     * The sparse walk of Redis's hllSparseToDense and hllMerge: hands each VAL run (its first
     * register, length and value) to {@code runs}; the registers covered, or -1 at a run past the
     * last register (corrupted), before handing it over.
     */
    private int walkValueRuns(ValueRuns runs) {
        int index = 0;
        int end = start + length;
        int p = start + HEADER_SIZE;
        while (p < end) {
            int op = bytes[p] & 0xFF;
            if (isZero(op)) {
                index += zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                index += xzeroLength(bytes, p, end);
                p += 2;
            } else {
                int run = valLength(op);
                if (index + run > REGISTERS) {
                    return -1;
                }
                runs.accept(index, run, valValue(op));
                index += run;
                p++;
            }
        }
        return index;
    }

    private interface ValueRuns {
        void accept(int first, int length, int value);
    }

    private static void raise(byte[] max, int i, int value) {
        if (value > max[i]) {
            max[i] = (byte) value;
        }
    }

    /** PFDEBUG DECODE's text of the sparse opcodes: {@code z:len}, {@code Z:len}, {@code v:value,len}. */
    public String decode() {
        StringBuilder decoded = new StringBuilder();
        int end = start + length;
        int p = start + HEADER_SIZE;
        while (p < end) {
            int op = bytes[p] & 0xFF;
            if (decoded.length() > 0) {
                decoded.append(' ');
            }
            if (isZero(op)) {
                decoded.append("z:").append(zeroLength(op));
                p++;
            } else if (isXzero(op)) {
                decoded.append("Z:").append(xzeroLength(bytes, p, end));
                p += 2;
            } else {
                decoded.append("v:").append(valValue(op)).append(',').append(valLength(op));
                p++;
            }
        }
        return decoded.toString();
    }

    // Counting

    /** Redis's hllCount of this HLL, or -1 if its sparse form does not cover every register once. */
    public long count() {
        int[] histogram = new int[64];
        if (encoding() == DENSE) {
            denseHistogram(bytes, start + HEADER_SIZE, histogram);
        } else if (!sparseHistogram(histogram)) {
            return -1;
        }
        return estimate(histogram);
    }

    /** Redis's hllCount of registers of one byte each (PFCOUNT of several keys). */
    public static long count(byte[] registers) {
        int[] histogram = new int[64];
        for (byte register : registers) {
            histogram[register]++;
        }
        return estimate(histogram);
    }

    private static void denseHistogram(byte[] bytes, int registers, int[] histogram) {
        // Sixteen registers from twelve bytes at a time, as Redis's hllDenseRegHisto.
        for (int r = registers; r < registers + DENSE_SIZE - HEADER_SIZE; r += 12) {
            int b0 = bytes[r] & 0xFF, b1 = bytes[r + 1] & 0xFF, b2 = bytes[r + 2] & 0xFF;
            int b3 = bytes[r + 3] & 0xFF, b4 = bytes[r + 4] & 0xFF, b5 = bytes[r + 5] & 0xFF;
            int b6 = bytes[r + 6] & 0xFF, b7 = bytes[r + 7] & 0xFF, b8 = bytes[r + 8] & 0xFF;
            int b9 = bytes[r + 9] & 0xFF, b10 = bytes[r + 10] & 0xFF, b11 = bytes[r + 11] & 0xFF;
            histogram[b0 & 63]++;
            histogram[(b0 >>> 6 | b1 << 2) & 63]++;
            histogram[(b1 >>> 4 | b2 << 4) & 63]++;
            histogram[b2 >>> 2]++;
            histogram[b3 & 63]++;
            histogram[(b3 >>> 6 | b4 << 2) & 63]++;
            histogram[(b4 >>> 4 | b5 << 4) & 63]++;
            histogram[b5 >>> 2]++;
            histogram[b6 & 63]++;
            histogram[(b6 >>> 6 | b7 << 2) & 63]++;
            histogram[(b7 >>> 4 | b8 << 4) & 63]++;
            histogram[b8 >>> 2]++;
            histogram[b9 & 63]++;
            histogram[(b9 >>> 6 | b10 << 2) & 63]++;
            histogram[(b10 >>> 4 | b11 << 4) & 63]++;
            histogram[b11 >>> 2]++;
        }
    }

    private boolean sparseHistogram(int[] histogram) {
        int index = 0;
        int end = start + length;
        int p = start + HEADER_SIZE;
        while (p < end) {
            int op = bytes[p] & 0xFF;
            if (isZero(op)) {
                int run = zeroLength(op);
                index += run;
                histogram[0] += run;
                p++;
            } else if (isXzero(op)) {
                int run = xzeroLength(bytes, p, end);
                index += run;
                histogram[0] += run;
                p += 2;
            } else {
                int run = valLength(op);
                index += run;
                histogram[valValue(op)] += run;
                p++;
            }
        }
        return index == REGISTERS;
    }

    /** Ertl's improved estimator ("New cardinality estimation algorithms for HyperLogLog sketches"), as Redis 7.0. */
    private static long estimate(int[] histogram) {
        double m = REGISTERS;
        double z = m * tau((m - histogram[Q + 1]) / m);
        for (int j = Q; j >= 1; --j) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * sigma(histogram[0] / m);
        return Math.round(ALPHA_INF * m * m / z);
    }

    private static double sigma(double x) {
        if (x == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double zPrime;
        double y = 1;
        double z = x;
        do {
            x *= x;
            zPrime = z;
            z += x * y;
            y += y;
        } while (zPrime != z);
        return z;
    }

    private static double tau(double x) {
        if (x == 0.0 || x == 1.0) {
            return 0.0;
        }
        double zPrime;
        double y = 1.0;
        double z = 1 - x;
        do {
            x = Math.sqrt(x);
            zPrime = z;
            y *= 0.5;
            // Redis's pow(1 - x, 2): the correctly rounded square, as this product is.
            z -= (1 - x) * (1 - x) * y;
        } while (zPrime != z);
        return z / 3;
    }
}
