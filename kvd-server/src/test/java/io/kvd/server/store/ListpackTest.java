package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ListpackTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> elements(byte[] listpack, int stride) {
        List<String> elements = new ArrayList<>();
        int at = Listpack.first(listpack);
        for (int i = Listpack.count(listpack) * stride; i > 0; i--) {
            elements.add(new String(Listpack.element(listpack, at), StandardCharsets.UTF_8));
            at = Listpack.next(listpack, at);
        }
        assertThat(at).as("the walk ends at the last byte").isEqualTo(listpack.length);
        return elements;
    }

    @Test
    void appendedEntriesAreCountedAndWalkedInOrder() {
        byte[] listpack = Listpack.append(Listpack.append(Listpack.EMPTY, b("f1"), b("v1")), b("f2"), b(""));

        assertThat(Listpack.count(listpack)).isEqualTo(2);
        assertThat(elements(listpack, 2)).containsExactly("f1", "v1", "f2", "");
    }

    @Test
    void findLooksOnlyAtEveryStrideThElement() {
        byte[] hash = Listpack.append(Listpack.append(Listpack.EMPTY, b("a"), b("b")), b("b"), b("a"));

        int at = Listpack.find(hash, b("b"), 2);

        assertThat(Listpack.element(hash, at)).isEqualTo(b("b"));
        assertThat(Listpack.element(hash, Listpack.next(hash, at))).isEqualTo(b("a"));
        assertThat(Listpack.find(hash, b("c"), 2)).isEqualTo(-1);
    }

    @Test
    void replaceKeepsThePlaceAndRemoveTakesAWholeEntry() {
        byte[] hash = Listpack.append(Listpack.append(Listpack.EMPTY, b("a"), b("1")), b("b"), b("2"));

        byte[] replaced = Listpack.replace(hash, Listpack.next(hash, Listpack.find(hash, b("a"), 2)), b("x".repeat(300)));
        byte[] removed = Listpack.remove(replaced, Listpack.find(replaced, b("a"), 2), 2);

        assertThat(elements(replaced, 2)).containsExactly("a", "x".repeat(300), "b", "2");
        assertThat(elements(removed, 2)).containsExactly("b", "2");
        assertThat(Listpack.count(removed)).isEqualTo(1);
    }

    @Test
    void theCountsVarintGrowsAndShrinksAcross128Entries() {
        byte[] set = Listpack.EMPTY;
        for (int i = 0; i < 128; i++) {
            set = Listpack.append(set, b("m" + i));
        }
        assertThat(Listpack.count(set)).isEqualTo(128);
        assertThat(elements(set, 1)).hasSize(128).startsWith("m0").endsWith("m127");

        set = Listpack.remove(set, Listpack.entry(set, 0, 1), 1);

        assertThat(Listpack.count(set)).isEqualTo(127);
        assertThat(elements(set, 1)).hasSize(127).startsWith("m1").endsWith("m127");
        assertThat(Listpack.element(set, Listpack.entry(set, 100, 1))).isEqualTo(b("m101"));
    }
}
