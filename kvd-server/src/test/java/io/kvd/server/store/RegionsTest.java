package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Region arrays come back fresh every time: of the region's length, all zeros, never one handed
 * out before, whether the allocator thread had one ready or the caller had to allocate its own
 * (taking many in a row outruns the thread).
 */
class RegionsTest {
    private static final int TAKES = 24;

    @Test
    void byteArraysAreFreshAndFillARegion() {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < TAKES; i++) {
            byte[] bytes = Regions.bytes();
            assertThat(bytes).hasSize(Regions.BYTES - 16);
            assertThat(seen.add(bytes)).isTrue();
            assertThat(allZero(bytes)).isTrue();
            bytes[0] = 1;
            bytes[bytes.length - 1] = 1;
        }
    }

    @Test
    void intArraysAreFreshAndFillARegion() {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < TAKES; i++) {
            int[] ints = Regions.ints();
            assertThat(ints.length * Integer.BYTES + 16).isEqualTo(Regions.BYTES);
            assertThat(seen.add(ints)).isTrue();
            for (int value : ints) {
                assertThat(value).isZero();
            }
            ints[ints.length / 2] = -1;
        }
    }

    @Test
    void longArraysAreFreshAndFillARegion() {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < TAKES; i++) {
            long[] longs = Regions.longs();
            assertThat(longs.length * Long.BYTES + 16).isEqualTo(Regions.BYTES);
            assertThat(seen.add(longs)).isTrue();
            for (long value : longs) {
                assertThat(value).isZero();
            }
            longs[0] = -1;
        }
    }

    private static boolean allZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
