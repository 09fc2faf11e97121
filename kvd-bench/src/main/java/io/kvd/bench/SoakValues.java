package io.kvd.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The values the soak's load writes: every one is a prefix of one block of random bytes (CR and LF
 * among them), so any value read back can be checked without remembering what was written where.
 */
final class SoakValues {
    static final int LARGEST = 1 << 20;
    private static final int SMALL = 64;
    private static final int MEDIUM = 64 << 10;

    private final byte[] block = new byte[LARGEST];

    SoakValues(long seed) {
        new SplittableRandom(seed).nextBytes(block);
    }

    /**
     * A value length from 1 byte to 1 MB, mostly small: 95% up to 64 bytes, 4.8% up to 64 KB, 0.2%
     * up to 1 MB. About 1.5 KB on average, so the AOF grows at a few MB/s at the default rate.
     */
    static int randomLength(SplittableRandom random) {
        int draw = random.nextInt(1000);
        if (draw < 950) {
            return random.nextInt(1, SMALL + 1);
        }
        if (draw < 998) {
            return random.nextInt(SMALL + 1, MEDIUM + 1);
        }
        return random.nextInt(MEDIUM + 1, LARGEST + 1);
    }

    /** The block, whose first {@code length} bytes are the value of that length. */
    byte[] block() {
        return block;
    }

    /** Whether {@code value} is one this class hands out: the block's first {@code value.length} bytes. */
    boolean isPrefix(byte[] value) {
        return value.length <= LARGEST && Arrays.equals(value, 0, value.length, block, 0, value.length);
    }
}
