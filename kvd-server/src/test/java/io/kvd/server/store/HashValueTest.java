package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashValueTest {
    private final EncodingLimits limits = new EncodingLimits();
    private final Keyspace keyspace = new Databases(1, 7, limits).get(0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private HashValue put(String key, String... fieldsAndValues) {
        HashValue hash = keyspace.hashForWrite(b(key));
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            hash.put(b(fieldsAndValues[i]), b(fieldsAndValues[i + 1]));
        }
        return hash;
    }

    private List<String> pairs(HashValue hash) {
        List<String> pairs = new ArrayList<>();
        hash.forEach((field, value) -> pairs.add(s(field) + "=" + s(value)));
        return pairs;
    }

    @Test
    void aMissingHashIsNullForReadingAndEmptyForWriting() {
        assertThat(keyspace.hash(b("h"))).isNull();
        HashValue hash = keyspace.hashForWrite(b("h"));
        assertThat(hash.size()).isZero();
        assertThat(hash.get(b("f"))).isNull();
        assertThat(keyspace.exists(b("h"))).isFalse();
    }

    @Test
    void theFirstPutCreatesTheKeyAsAListpackHash() {
        assertThat(keyspace.hashForWrite(b("h")).put(b("f"), b("v"))).isTrue();

        assertThat(keyspace.type(b("h"))).isEqualTo(ValueType.HASH);
        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("listpack");
        assertThat(keyspace.hash(b("h")).get(b("f"))).isEqualTo(b("v"));
    }

    @Test
    void aListpackKeepsInsertionOrderAndAReplacedValueKeepsItsPlace() {
        HashValue hash = put("h", "a", "1", "b", "2", "c", "3");

        assertThat(hash.put(b("b"), b("two"))).isFalse();

        assertThat(pairs(keyspace.hash(b("h")))).containsExactly("a=1", "b=two", "c=3");
        assertThat(hash.size()).isEqualTo(3);
    }

    @Test
    void removingAFieldKeepsTheOthersInOrder() {
        HashValue hash = put("h", "a", "1", "b", "2", "c", "3");

        assertThat(hash.remove(b("b"))).isTrue();
        assertThat(hash.remove(b("b"))).isFalse();

        assertThat(pairs(keyspace.hash(b("h")))).containsExactly("a=1", "c=3");
    }

    @Test
    void removingTheLastFieldDeletesTheKeyAndAPutCreatesItAgain() {
        HashValue hash = put("h", "a", "1");

        assertThat(hash.remove(b("a"))).isTrue();
        assertThat(keyspace.exists(b("h"))).isFalse();
        assertThat(hash.size()).isZero();

        assertThat(hash.put(b("z"), b("26"))).isTrue();
        assertThat(pairs(keyspace.hash(b("h")))).containsExactly("z=26");
    }

    @Test
    void moreFieldsThanTheListpackLimitConvertToAHashtableKeepingEveryField() {
        limits.setHashMaxListpackEntries(3);
        HashValue hash = put("h", "a", "1", "b", "2", "c", "3");
        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("listpack");

        hash.put(b("d"), b("4"));

        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");
        assertThat(new HashSet<>(pairs(keyspace.hash(b("h"))))).containsExactlyInAnyOrder("a=1", "b=2", "c=3", "d=4");
    }

    @Test
    void aValueLongerThanTheListpackLimitConvertsEvenWhenReplacing() {
        HashValue hash = put("h", "a", "1");
        hash.put(b("a"), b("x".repeat(64)));
        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("listpack");

        hash.put(b("a"), b("x".repeat(65)));

        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");
        assertThat(keyspace.hash(b("h")).get(b("a"))).isEqualTo(b("x".repeat(65)));
        assertThat(keyspace.hash(b("h")).size()).isEqualTo(1);
    }

    @Test
    void aLongFieldCreatesAHashtableAtOnce() {
        put("h", "f".repeat(65), "v");

        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");
        assertThat(keyspace.hash(b("h")).get(b("f".repeat(65)))).isEqualTo(b("v"));
    }

    @Test
    void aHashtableStaysOneWhenItShrinks() {
        limits.setHashMaxListpackEntries(1);
        HashValue hash = put("h", "a", "1", "b", "2");

        hash.remove(b("b"));

        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");
        assertThat(pairs(keyspace.hash(b("h")))).containsExactly("a=1");
    }

    @Test
    void removingTheLastFieldOfAHashtableDeletesTheKey() {
        limits.setHashMaxListpackEntries(0);
        HashValue hash = put("h", "a", "1");
        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");

        hash.remove(b("a"));

        assertThat(keyspace.exists(b("h"))).isFalse();
        keyspace.checkInvariants();
    }

    @Test
    void aListpackScanVisitsEveryFieldInOneCall() {
        put("h", "a", "1", "b", "2");
        List<String> seen = new ArrayList<>();

        assertThat(keyspace.hash(b("h")).scan(0, (f, v) -> seen.add(s(f) + "=" + s(v)))).isZero();

        assertThat(seen).containsExactly("a=1", "b=2");
    }

    @Test
    void aHashtableScanVisitsEveryFieldOverItsCursors() {
        HashValue hash = keyspace.hashForWrite(b("h"));
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            hash.put(b("field:" + i), b("v" + i));
            expected.add("field:" + i + "=v" + i);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int calls = 0;
        do {
            cursor = hash.scan(cursor, (f, v) -> seen.add(s(f) + "=" + s(v)));
            calls++;
        } while (cursor != 0);

        assertThat(seen).isEqualTo(expected);
        assertThat(calls).isGreaterThan(1);
    }

    @Test
    void randomEntryDrawsEveryFieldWithItsValue() {
        for (int limit : new int[] {512, 0}) {
            limits.setHashMaxListpackEntries(limit);
            keyspace.clear();
            put("h", "a", "1", "b", "2", "c", "3");
            Set<String> drawn = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                byte[][] entry = keyspace.hash(b("h")).randomEntry();
                drawn.add(s(entry[0]) + "=" + s(entry[1]));
            }
            assertThat(drawn).containsExactlyInAnyOrder("a=1", "b=2", "c=3");
        }
    }

    @Test
    void everyPutCountsAsAChangeAndAMissingRemoveDoesNot() {
        HashValue hash = put("h", "a", "1");
        long before = keyspace.changes();

        hash.put(b("a"), b("1"));
        assertThat(keyspace.changes()).isGreaterThan(before);
        long afterPut = keyspace.changes();
        hash.remove(b("zz"));

        assertThat(keyspace.changes()).isEqualTo(afterPut);
    }

    @Test
    void aStringKeyIsTheWrongType() {
        keyspace.put(b("k"), b("v"), Keyspace.PERSISTENT);

        assertThatThrownBy(() -> keyspace.hash(b("k"))).isInstanceOf(WrongTypeException.class);
        assertThatThrownBy(() -> keyspace.hashForWrite(b("k"))).isInstanceOf(WrongTypeException.class);
    }

    @Test
    void putAllWritesACompactHashOnceAndCountsTheNewFields() {
        put("h", "a", "1");
        long changes = keyspace.changes();
        byte[][] argv = {b("HSET"), b("h"), b("a"), b("2"), b("b"), b("3"), b("c"), b("4")};

        assertThat(keyspace.hashForWrite(b("h")).putAll(argv, 2)).isEqualTo(2);

        assertThat(keyspace.changes()).isEqualTo(changes + 1);
        assertThat(pairs(keyspace.hash(b("h")))).containsExactly("a=2", "b=3", "c=4");
        keyspace.checkInvariants();
    }

    @Test
    void putAllPastTheEntriesLimitEndsInATableWithEveryField() {
        limits.setHashMaxListpackEntries(2);
        byte[][] argv = {b("HSET"), b("h"), b("a"), b("1"), b("b"), b("2"), b("c"), b("3"), b("d"), b("4")};

        assertThat(keyspace.hashForWrite(b("h")).putAll(argv, 2)).isEqualTo(4);

        assertThat(keyspace.objectEncoding(b("h"))).isEqualTo("hashtable");
        assertThat(pairs(keyspace.hash(b("h")))).containsExactlyInAnyOrder("a=1", "b=2", "c=3", "d=4");
        keyspace.checkInvariants();
    }
}
