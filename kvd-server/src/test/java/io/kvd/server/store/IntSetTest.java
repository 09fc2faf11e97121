package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class IntSetTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] of(long... values) {
        byte[] set = IntSet.of(values[0]);
        for (int i = 1; i < values.length; i++) {
            set = IntSet.insert(set, values[i], -IntSet.indexOf(set, values[i]) - 1);
        }
        return set;
    }

    @Test
    void valuesAreKeptAscendingInTheNarrowestWidthThatHoldsThemAll() {
        assertThat(of(3, -1, 2)).hasSize(5 + 3 * 2);
        assertThat(of(3, -1, 40_000)).hasSize(5 + 3 * 4);
        byte[] wide = of(3, Long.MIN_VALUE, -1, Long.MAX_VALUE);

        assertThat(wide).hasSize(5 + 4 * 8);
        assertThat(IntSet.count(wide)).isEqualTo(4);
        assertThat(new long[] {IntSet.get(wide, 0), IntSet.get(wide, 1), IntSet.get(wide, 2), IntSet.get(wide, 3)})
                .containsExactly(Long.MIN_VALUE, -1, 3, Long.MAX_VALUE);
    }

    @Test
    void indexOfFindsAValueOrWhereItWouldGo() {
        byte[] set = of(10, 20, 30);

        assertThat(IntSet.indexOf(set, 20)).isEqualTo(1);
        assertThat(IntSet.indexOf(set, 25)).isEqualTo(-3);
        assertThat(IntSet.indexOf(set, 5)).isEqualTo(-1);
        assertThat(IntSet.indexOf(set, 35)).isEqualTo(-4);
    }

    @Test
    void aRemovalKeepsTheWidth() {
        byte[] set = IntSet.remove(of(1, 100_000), 1);

        assertThat(set).hasSize(5 + 4);
        assertThat(IntSet.get(set, 0)).isEqualTo(1);
    }

    @Test
    void membersAreIntegersInRedisCanonicalForm() {
        assertThat(IntSet.holds(b("-9223372036854775808"))).isTrue();
        assertThat(IntSet.parse(b("-9223372036854775808"))).isEqualTo(Long.MIN_VALUE);
        assertThat(IntSet.parse(b("9223372036854775807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(IntSet.parse(b("0"))).isZero();
        assertThat(IntSet.holds(b("9223372036854775808"))).isFalse();
        assertThat(IntSet.holds(b("-0"))).isFalse();
        assertThat(IntSet.holds(b("007"))).isFalse();
        assertThat(IntSet.holds(b("+7"))).isFalse();
        assertThat(IntSet.holds(b(" 7"))).isFalse();
        assertThat(IntSet.member(-42)).isEqualTo(b("-42"));
    }
}
