package io.kvd.server.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The layout of one entry inside a page of {@link EntryPages}: the entry's id (4 bytes), the key's
 * and the value's lengths as {@link Varint}s (one byte each up to 127), the key, then the value. The id
 * lets a page be walked and each entry's owner found, which is what compaction needs; the lengths
 * let the walk step from one entry to the next. Reads hand out copies, and a value of the same
 * length is overwritten in place; only {@link StringView}s, valid until the next change, look
 * into a page directly.
 */
final class PackedEntry {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int ID_BYTES = 4;

    private PackedEntry() {
    }

    /** Bytes an entry with this key and value takes. */
    static int length(int keyLength, int valueLength) {
        return ID_BYTES + Varint.length(keyLength) + Varint.length(valueLength) + keyLength + valueLength;
    }

    /** Bytes the entry at {@code at} takes. */
    static int length(byte[] page, int at) {
        int keyLength = keyLength(page, at);
        int valueLength = valueLength(page, at, keyLength);
        return length(keyLength, valueLength);
    }

    /** Writes an entry whose key is {@code keyLength} bytes of {@code keySource} from {@code keyFrom}. */
    static void write(byte[] page, int at, int id, byte[] keySource, int keyFrom, int keyLength, byte[] value) {
        int valueStart = writeHead(page, at, id, keySource, keyFrom, keyLength, value.length);
        System.arraycopy(value, 0, page, valueStart, value.length);
    }

    /** Writes an entry's id, lengths and key, leaving its value's bytes to the caller; returns where they start. */
    static int writeHead(byte[] page, int at, int id, byte[] keySource, int keyFrom, int keyLength, int valueLength) {
        INT.set(page, at, id);
        int next = Varint.write(page, at + ID_BYTES, keyLength);
        next = Varint.write(page, next, valueLength);
        System.arraycopy(keySource, keyFrom, page, next, keyLength);
        return next + keyLength;
    }

    static int id(byte[] page, int at) {
        return (int) INT.get(page, at);
    }

    static int keyLength(byte[] page, int at) {
        return Varint.read(page, at + ID_BYTES);
    }

    static int keyStart(byte[] page, int at, int keyLength) {
        int valueLengthAt = at + ID_BYTES + Varint.length(keyLength);
        return valueLengthAt + Varint.length(Varint.read(page, valueLengthAt));
    }

    static boolean hasKey(byte[] page, int at, byte[] key) {
        int keyLength = keyLength(page, at);
        if (keyLength != key.length) {
            return false;
        }
        int start = keyStart(page, at, keyLength);
        return Arrays.equals(page, start, start + keyLength, key, 0, keyLength);
    }

    /** The entry's key compared with {@code key} as unsigned bytes, without copying it. */
    static int compareKey(byte[] page, int at, byte[] key) {
        int keyLength = keyLength(page, at);
        int start = keyStart(page, at, keyLength);
        return Arrays.compareUnsigned(page, start, start + keyLength, key, 0, key.length);
    }

    static byte[] key(byte[] page, int at) {
        int keyLength = keyLength(page, at);
        int start = keyStart(page, at, keyLength);
        return Arrays.copyOfRange(page, start, start + keyLength);
    }

    static byte[] value(byte[] page, int at) {
        int keyLength = keyLength(page, at);
        int valueStart = keyStart(page, at, keyLength) + keyLength;
        return Arrays.copyOfRange(page, valueStart, valueStart + valueLength(page, at, keyLength));
    }

    /** Overwrites the value if the new one has the same length; false if the entry must move. */
    static boolean replaceValue(byte[] page, int at, byte[] value) {
        int keyLength = keyLength(page, at);
        if (valueLength(page, at, keyLength) != value.length) {
            return false;
        }
        System.arraycopy(value, 0, page, keyStart(page, at, keyLength) + keyLength, value.length);
        return true;
    }

    /** Where the value of the entry at {@code at} starts in its page. */
    static int valueStart(byte[] page, int at) {
        int keyLength = keyLength(page, at);
        return keyStart(page, at, keyLength) + keyLength;
    }

    static int valueLength(byte[] page, int at) {
        return valueLength(page, at, keyLength(page, at));
    }

    private static int valueLength(byte[] page, int at, int keyLength) {
        return Varint.read(page, at + ID_BYTES + Varint.length(keyLength));
    }

    static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    static int hashOfKey(byte[] page, int at) {
        int keyLength = keyLength(page, at);
        int start = keyStart(page, at, keyLength);
        return hash(page, start, start + keyLength);
    }

    /** Polynomial hash finished with MurmurHash3's fmix32, so the low bits that pick a bucket mix every byte. */
    private static int hash(byte[] bytes, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + bytes[i];
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }
}
