package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SetValueTest {
    private final EncodingLimits limits = new EncodingLimits();
    private final Keyspace keyspace = new Databases(1, 7, limits).get(0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private SetValue add(String key, String... members) {
        SetValue set = keyspace.setForWrite(b(key));
        for (String member : members) {
            set.add(b(member));
        }
        return set;
    }

    private List<String> members(String key) {
        List<String> members = new ArrayList<>();
        keyspace.set(b(key)).forEach(member -> members.add(s(member)));
        return members;
    }

    @Test
    void integersMakeAnIntsetListedAscending() {
        add("s", "10", "-3", "7", "0", "-9223372036854775808", "9223372036854775807");

        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("intset");
        assertThat(members("s")).containsExactly("-9223372036854775808", "-3", "0", "7", "10", "9223372036854775807");
    }

    @Test
    void anIntsetWidensForLargeValuesAndStillFindsTheSmallOnes() {
        SetValue set = add("s", "1", "-2", "70000", "5000000000");

        assertThat(set.contains(b("1"))).isTrue();
        assertThat(set.contains(b("-2"))).isTrue();
        assertThat(set.contains(b("70000"))).isTrue();
        assertThat(set.contains(b("5000000000"))).isTrue();
        assertThat(set.contains(b("2"))).isFalse();
        assertThat(members("s")).containsExactly("-2", "1", "70000", "5000000000");
    }

    @Test
    void addingAnExistingMemberIsFalseAndChangesNothing() {
        SetValue set = add("s", "1", "a");
        long before = keyspace.changes();

        assertThat(set.add(b("1"))).isFalse();
        assertThat(set.add(b("a"))).isFalse();

        assertThat(keyspace.changes()).isEqualTo(before);
        assertThat(set.size()).isEqualTo(2);
    }

    @Test
    void aNonCanonicalIntegerIsNotAnIntsetMember() {
        add("s", "1", "01");

        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("hashtable");
        assertThat(members("s")).containsExactly("1", "01");
        assertThat(keyspace.set(b("s")).contains(b("01"))).isTrue();
        assertThat(keyspace.set(b("s")).contains(b("1"))).isTrue();
    }

    @Test
    void anIntegerOutsideALongIsNotAnIntsetMember() {
        add("s", "9223372036854775808");

        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("hashtable");
    }

    @Test
    void moreIntegersThanTheIntsetLimitConvertToAHashtable() {
        limits.setSetMaxIntsetEntries(3);
        SetValue set = add("s", "1", "2", "3");
        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("intset");

        set.add(b("4"));

        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("hashtable");
        assertThat(new HashSet<>(members("s"))).containsExactlyInAnyOrder("1", "2", "3", "4");
        assertThat(set.scan(0, member -> { })).isNotZero();
    }

    @Test
    void aSmallSetOfStringsIsPackedAndScannedInOneCall() {
        add("s", "b", "a", "c");
        List<String> seen = new ArrayList<>();

        assertThat(keyspace.set(b("s")).scan(0, member -> seen.add(s(member)))).isZero();

        assertThat(seen).containsExactly("b", "a", "c");
        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("hashtable");
    }

    @Test
    void aPackedSetPastItsLimitBecomesATable() {
        SetValue set = keyspace.setForWrite(b("s"));
        for (int i = 0; i < SetValue.LISTPACK_MAX_ENTRIES; i++) {
            set.add(b("m" + i));
        }
        assertThat(set.scan(0, member -> { })).isZero();

        set.add(b("one more"));

        Set<String> seen = new HashSet<>();
        long cursor = 0;
        do {
            cursor = set.scan(cursor, member -> seen.add(s(member)));
        } while (cursor != 0);
        assertThat(seen).hasSize(SetValue.LISTPACK_MAX_ENTRIES + 1).contains("one more", "m0");
        keyspace.checkInvariants();
    }

    @Test
    void aLongMemberMakesATableAtOnce() {
        SetValue set = add("s", "x".repeat(SetValue.LISTPACK_MAX_MEMBER + 1));

        assertThat(set.scan(0, member -> { })).isNotZero();
        assertThat(set.contains(b("x".repeat(SetValue.LISTPACK_MAX_MEMBER + 1)))).isTrue();
    }

    @Test
    void removingMembersOfEachEncodingKeepsTheRest() {
        limits.setSetMaxIntsetEntries(4);
        for (String[] members : new String[][] {{"1", "2", "3"}, {"a", "b", "c"}, {"1", "2", "3", "4", "5"}}) {
            keyspace.clear();
            SetValue set = add("s", members);

            assertThat(set.remove(b(members[1]))).isTrue();
            assertThat(set.remove(b(members[1]))).isFalse();

            Set<String> expected = new HashSet<>(List.of(members));
            expected.remove(members[1]);
            assertThat(new HashSet<>(members("s"))).isEqualTo(expected);
            keyspace.checkInvariants();
        }
    }

    @Test
    void removingTheLastMemberDeletesTheKey() {
        SetValue set = add("s", "7");

        assertThat(set.remove(b("7"))).isTrue();

        assertThat(keyspace.exists(b("s"))).isFalse();
        assertThat(set.size()).isZero();
        assertThat(set.add(b("x"))).isTrue();
        assertThat(members("s")).containsExactly("x");
    }

    @Test
    void randomMemberDrawsEveryMemberOfEachEncoding() {
        limits.setSetMaxIntsetEntries(0);
        for (String[] members : new String[][] {{"a", "b", "c"}, {"1", "2", "3"}}) {
            keyspace.clear();
            add("s", members);
            Set<String> drawn = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                drawn.add(s(keyspace.set(b("s")).randomMember()));
            }
            assertThat(drawn).containsExactlyInAnyOrder(members);
        }
        limits.setSetMaxIntsetEntries(512);
        keyspace.clear();
        add("s", "1", "2", "3");
        Set<String> drawn = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            drawn.add(s(keyspace.set(b("s")).randomMember()));
        }
        assertThat(drawn).containsExactlyInAnyOrder("1", "2", "3");
    }

    @Test
    void aHashKeyIsTheWrongType() {
        keyspace.hashForWrite(b("h")).put(b("f"), b("v"));

        assertThatThrownBy(() -> keyspace.set(b("h"))).isInstanceOf(WrongTypeException.class);
        assertThatThrownBy(() -> keyspace.setForWrite(b("h"))).isInstanceOf(WrongTypeException.class);
    }

    @Test
    void addAllWritesACompactSetOnceAcrossItsIntsetToListpackChange() {
        long changes = keyspace.changes();
        byte[][] argv = {b("SADD"), b("s"), b("3"), b("1"), b("x"), b("1")};

        assertThat(keyspace.setForWrite(b("s")).addAll(argv, 2)).isEqualTo(3);

        assertThat(keyspace.changes()).isEqualTo(changes + 1);
        assertThat(keyspace.objectEncoding(b("s"))).isEqualTo("hashtable");
        assertThat(keyspace.set(b("s")).contains(b("x"))).isTrue();
        assertThat(keyspace.set(b("s")).size()).isEqualTo(3);
        keyspace.checkInvariants();
    }

    @Test
    void addAllPastTheIntsetLimitEndsInATableWithEveryMember() {
        limits.setSetMaxIntsetEntries(2);
        byte[][] argv = {b("SADD"), b("s"), b("1"), b("2"), b("3"), b("4")};

        assertThat(keyspace.setForWrite(b("s")).addAll(argv, 2)).isEqualTo(4);

        assertThat(keyspace.set(b("s")).size()).isEqualTo(4);
        assertThat(keyspace.set(b("s")).contains(b("4"))).isTrue();
        keyspace.checkInvariants();
    }
}
