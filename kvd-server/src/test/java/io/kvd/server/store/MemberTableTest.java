package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class MemberTableTest {
    private final MemberTable table = new MemberTable();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private Map<String, String> contents(MemberTable of) {
        Map<String, String> contents = new HashMap<>();
        of.forEach((member, value) -> contents.put(s(member), s(value)));
        return contents;
    }

    @Test
    void putSaysWhetherTheMemberIsNewAndReplacesTheValue() {
        assertThat(table.put(b("a"), b("1"))).isTrue();
        assertThat(table.put(b("a"), b("longer value"))).isFalse();

        assertThat(table.get(b("a"))).isEqualTo(b("longer value"));
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void removeSaysWhetherTheMemberWasThere() {
        table.put(b("a"), b("1"));
        table.put(b("b"), b("2"));

        assertThat(table.remove(b("a"))).isTrue();
        assertThat(table.remove(b("a"))).isFalse();

        assertThat(table.contains(b("a"))).isFalse();
        assertThat(table.get(b("a"))).isNull();
        assertThat(contents(table)).containsExactly(Map.entry("b", "2"));
        table.checkInvariants();
    }

    @Test
    void aCopyHoldsTheSameMembersAndChangesApartFromTheOriginal() {
        for (int i = 0; i < 5000; i++) {
            table.put(b("m" + i), b("v" + i));
        }
        MemberTable copy = table.copy();
        Map<String, String> before = contents(table);

        table.remove(b("m1"));
        table.put(b("m2"), b("changed"));
        copy.put(b("new"), b("x"));

        assertThat(contents(copy)).hasSize(5001).containsEntry("m1", "v1").containsEntry("m2", "v2");
        before.remove("m1");
        before.put("m2", "changed");
        assertThat(contents(table)).isEqualTo(before);
        copy.checkInvariants();
        table.checkInvariants();
    }

    @Test
    void randomDrawsEveryMemberWithItsValue() {
        for (int i = 0; i < 20; i++) {
            table.put(b("m" + i), b("v" + i));
        }
        SplittableRandom random = new SplittableRandom(5);
        Set<String> drawn = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            byte[][] entry = table.random(random);
            assertThat(s(entry[1])).isEqualTo("v" + s(entry[0]).substring(1));
            drawn.add(s(entry[0]));
        }
        assertThat(drawn).hasSize(20);
    }

    @Test
    void aScanVisitsEveryMemberOfAStableTable() {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            table.put(b("m" + i), b(""));
            expected.add("m" + i);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        do {
            cursor = table.scan(cursor, (member, value) -> seen.add(s(member)));
        } while (cursor != 0);

        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void aTableEmptiedByRemovalsShrinksAndStaysConsistent() {
        for (int i = 0; i < 10_000; i++) {
            table.put(b("m" + i), b("v"));
        }
        for (int i = 0; i < 9_990; i++) {
            table.remove(b("m" + i));
        }
        for (int i = 0; i < 100; i++) {
            table.contains(b("m" + i));
        }

        assertThat(table.size()).isEqualTo(10);
        table.checkInvariants();
    }
}
