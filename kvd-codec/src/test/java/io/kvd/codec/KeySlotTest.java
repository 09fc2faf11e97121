package io.kvd.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeySlotTest {
    private static int slot(String key) {
        return KeySlot.of(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void crc16IsXmodem() {
        // The check value of CRC-16/XMODEM, also Redis's crc16.c test vector.
        assertThat(KeySlot.crc16("123456789".getBytes(StandardCharsets.US_ASCII), 0, 9)).isEqualTo(0x31C3);
    }

    @Test
    void slotsMatchRedisClusterKeyslot() {
        // Values printed by redis-server 7.0.15's CLUSTER KEYSLOT.
        assertThat(slot("foo")).isEqualTo(12182);
        assertThat(slot("bar")).isEqualTo(5061);
        assertThat(slot("")).isEqualTo(0);
        assertThat(slot("key:000000000001")).isEqualTo(8924);
    }

    @Test
    void hashTagIsTheTextBetweenTheFirstBraces() {
        assertThat(slot("{user1000}.following")).isEqualTo(slot("user1000"));
        assertThat(slot("foo{bar}{zap}")).isEqualTo(slot("bar"));
        assertThat(slot("foo{{bar}}zap")).isEqualTo(slot("{bar")).isEqualTo(4015);
    }

    @Test
    void emptyOrUnclosedTagHashesTheWholeKey() {
        assertThat(slot("foo{}{bar}")).isEqualTo(8363);
        assertThat(slot("foo{bar")).isEqualTo(15278);
    }
}
