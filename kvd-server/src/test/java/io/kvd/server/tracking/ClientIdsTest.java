package io.kvd.server.tracking;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A tracked key's client ids: a set, walked in the order of Redis's rax (little-endian bytes). */
class ClientIdsTest {
    @Test
    void idsComeOutByTheirLowByteFirstAsRedisSendsThem() {
        ClientIds ids = new ClientIds();
        for (long id : new long[] {3, 256, 2, 1, 257, 0x8000_0000_0000_0000L, 512}) {
            assertThat(ids.add(id)).isTrue();
        }

        // Bytes in memory: 0x80..00 is 00 00 .. 80, 256 is 00 01 .., 512 is 00 02 .., 257 is 01 01 ..
        assertThat(all(ids)).containsExactly(0x8000_0000_0000_0000L, 256L, 512L, 1L, 257L, 2L, 3L);
    }

    @Test
    void anIdAddedTwiceIsHeldOnce() {
        ClientIds ids = new ClientIds();
        assertThat(ids.add(7)).isTrue();
        assertThat(ids.add(9)).isTrue();
        assertThat(ids.add(7)).isFalse();

        assertThat(ids.size()).isEqualTo(2);
        assertThat(all(ids)).containsExactly(7L, 9L);
    }

    @Test
    void manyIdsGrowTheArray() {
        ClientIds ids = new ClientIds();
        for (long id = 1000; id > 0; id--) {
            ids.add(id);
        }

        assertThat(ids.size()).isEqualTo(1000);
        assertThat(all(ids)).doesNotHaveDuplicates().hasSize(1000);
    }

    private static List<Long> all(ClientIds ids) {
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            all.add(ids.get(i));
        }
        return all;
    }
}
