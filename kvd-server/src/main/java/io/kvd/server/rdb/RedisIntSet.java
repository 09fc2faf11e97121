package io.kvd.server.rdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Redis's intset (intset.c) as bytes: encoding and length, then the sorted values, all little-endian. */
final class RedisIntSet {
    private RedisIntSet() {
    }

    /** The intset of these distinct values, in the narrowest encoding that holds them all. */
    static byte[] write(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int width = 2;
        for (long v : sorted) {
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                width = 8;
            } else if ((v < Short.MIN_VALUE || v > Short.MAX_VALUE) && width < 4) {
                width = 4;
            }
        }
        byte[] out = new byte[8 + width * sorted.length];
        RedisListpack.putLe(out, 0, width, 4);
        RedisListpack.putLe(out, 4, sorted.length, 4);
        for (int i = 0; i < sorted.length; i++) {
            RedisListpack.putLe(out, 8 + i * width, sorted[i], width);
        }
        return out;
    }

    /** The members of an intset blob as decimal text; intsetValidateIntegrity's shallow checks. */
    static List<byte[]> read(byte[] blob) {
        if (blob.length < 8) {
            throw new RdbFormatException("intset is truncated");
        }
        long width = RedisListpack.readLe(blob, 0, 4);
        long count = RedisListpack.readLe(blob, 4, 4);
        if (width != 2 && width != 4 && width != 8) {
            throw new RdbFormatException("intset has an invalid encoding");
        }
        if (8 + width * count != blob.length) {
            throw new RdbFormatException("intset length does not match its size");
        }
        List<byte[]> members = new ArrayList<>((int) count);
        int shift = 64 - 8 * (int) width;
        for (int i = 0; i < count; i++) {
            long u = RedisListpack.readLe(blob, 8 + i * (int) width, (int) width);
            members.add(RedisListpack.ascii((u << shift) >> shift));
        }
        return members;
    }
}
