package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ListValue and its two forms: packed in the entry while it fits one node, a {@link QuickList}
 * past it; and a seeded random model test against an ArrayList. Seed: {@code -Dlists.seed=N}.
 */
class ListValueTest {
    private final EncodingLimits limits = new EncodingLimits();
    private final Databases databases = new Databases(1, 7, limits);
    private final Keyspace keyspace = databases.get(0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private List<String> elements(String key) {
        List<String> elements = new ArrayList<>();
        ListValue list = keyspace.list(b(key));
        if (list != null) {
            list.forEach(element -> elements.add(s(element)));
        }
        return elements;
    }

    private byte[][] argv(String... elements) {
        byte[][] argv = new byte[elements.length + 2][];
        for (int i = 0; i < elements.length; i++) {
            argv[i + 2] = b(elements[i]);
        }
        return argv;
    }

    @Test
    void pushesAtBothEndsKeepOrder() {
        keyspace.listForWrite(b("l")).pushAll(argv("b", "a"), 2, true);
        keyspace.listForWrite(b("l")).pushAll(argv("c", "d"), 2, false);
        assertThat(elements("l")).containsExactly("a", "b", "c", "d");
        assertThat(keyspace.objectEncoding(b("l"))).isEqualTo("quicklist");
        assertThat(keyspace.type(b("l"))).isEqualTo(ValueType.LIST);
    }

    @Test
    void aSmallListIsPackedAndALargeOneMovesToAQuickList() {
        ListValue list = keyspace.listForWrite(b("l"));
        list.push(b("x"), false);
        assertThat(keyspace.list(b("l")).encoding).isEqualTo(Encoding.LIST_PACKED);
        for (int i = 0; i < 2000; i++) {
            list.push(b("element-" + i), false);
        }
        assertThat(keyspace.list(b("l")).encoding).isEqualTo(Encoding.LIST_QUICKLIST);
        assertThat(keyspace.list(b("l")).size()).isEqualTo(2001);
        assertThat(s(keyspace.list(b("l")).get(-1))).isEqualTo("element-1999");
        keyspace.checkInvariants();
    }

    @Test
    void poppingTheLastElementDeletesTheKey() {
        keyspace.listForWrite(b("l")).pushAll(argv("a"), 2, false);
        assertThat(s(keyspace.list(b("l")).pop(true))).isEqualTo("a");
        assertThat(keyspace.exists(b("l"))).isFalse();
        keyspace.checkInvariants();
    }

    @Test
    void aLargeListIsDeletedWithItsLastElementAndItsHandleReleased() {
        ListValue list = keyspace.listForWrite(b("l"));
        for (int i = 0; i < 3000; i++) {
            list.push(b("e" + i), true);
        }
        keyspace.list(b("l")).trim(1, 0);
        assertThat(keyspace.exists(b("l"))).isFalse();
        keyspace.checkInvariants();
    }

    @Test
    void copyOfALargeListIsDeep() {
        ListValue list = keyspace.listForWrite(b("l"));
        for (int i = 0; i < 3000; i++) {
            list.push(b("e" + i), false);
        }
        keyspace.copy(b("l"), keyspace, b("c"));
        keyspace.list(b("l")).set(0, b("changed"));
        assertThat(s(keyspace.list(b("c")).get(0))).isEqualTo("e0");
        keyspace.checkInvariants();
    }

    @Test
    void aLargeListMovesToAnotherDatabaseAndRenamesByReference() {
        Databases two = new Databases(2, 7, limits);
        ListValue list = two.get(0).listForWrite(b("l"));
        for (int i = 0; i < 3000; i++) {
            list.push(b("e" + i), false);
        }
        assertThat(two.get(0).move(b("l"), two.get(1))).isTrue();
        assertThat(two.get(1).rename(b("l"), b("r"))).isTrue();
        assertThat(two.get(1).list(b("r")).size()).isEqualTo(3000);
        assertThat(s(two.get(1).list(b("r")).get(-1))).isEqualTo("e2999");
        two.get(0).checkInvariants();
        two.get(1).checkInvariants();
    }

    @Test
    void anElementLargerThanANodeGetsANodeOfItsOwn() {
        byte[] big = new byte[20_000];
        ListValue list = keyspace.listForWrite(b("l"));
        list.push(b("a"), false);
        list.push(big, false);
        list.push(b("z"), false);
        assertThat(elements("l")).hasSize(3);
        assertThat(keyspace.list(b("l")).get(1)).isEqualTo(big);
        keyspace.checkInvariants();
    }

    @Test
    void randomOperationsMatchAnArrayListModel() {
        long seed = Long.getLong("lists.seed", 20_261_203L);
        System.out.println("ListValueTest seed " + seed + " (override with -Dlists.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        for (int fill : new int[] {-2, -1, 5}) {
            limits.setListMaxListpackSize(fill);
            keyspace.remove(b("l"));
            List<String> model = new ArrayList<>();
            for (int op = 0; op < 40_000; op++) {
                String element = randomElement(random);
                ListValue list = keyspace.listForWrite(b("l"));
                int size = model.size();
                switch (random.nextInt(10)) {
                    case 0, 1 -> {
                        list.push(b(element), true);
                        model.add(0, element);
                    }
                    case 2, 3 -> {
                        list.push(b(element), false);
                        model.add(element);
                    }
                    case 4 -> {
                        if (size > 0) {
                            boolean head = random.nextBoolean();
                            assertThat(s(list.pop(head))).isEqualTo(head ? model.remove(0) : model.remove(size - 1));
                        }
                    }
                    case 5 -> {
                        if (size > 0) {
                            int index = random.nextInt(size);
                            assertThat(s(list.get(index))).isEqualTo(model.get(index));
                            assertThat(s(list.get(index - size))).isEqualTo(model.get(index));
                            list.set(index, b(element));
                            model.set(index, element);
                        }
                    }
                    case 6 -> {
                        if (size > 0) {
                            String pivot = model.get(random.nextInt(size));
                            boolean after = random.nextBoolean();
                            int at = model.indexOf(pivot);
                            model.add(after ? at + 1 : at, element);
                            assertThat(list.insert(b(pivot), b(element), after)).isEqualTo(model.size());
                        }
                    }
                    case 7 -> {
                        if (size > 0 && random.nextInt(20) == 0) {
                            long count = random.nextInt(5) - 2;
                            String value = model.get(random.nextInt(size));
                            long removed = list.remove(count, b(value));
                            assertThat(removed).isEqualTo(removeFromModel(model, count, value));
                        }
                    }
                    case 8 -> {
                        if (size > 0 && random.nextInt(50) == 0) {
                            int start = random.nextInt(size);
                            int stop = start + random.nextInt(size - start);
                            list.trim(start, stop);
                            List<String> kept = new ArrayList<>(model.subList(start, stop + 1));
                            model.clear();
                            model.addAll(kept);
                        }
                    }
                    default -> {
                        if (size > 0) {
                            int from = random.nextInt(size);
                            boolean reverse = random.nextBoolean();
                            List<String> seen = new ArrayList<>();
                            list.walk(from, reverse, (bytes, offset, length) -> {
                                seen.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
                                return seen.size() < 50;
                            });
                            List<String> expected = new ArrayList<>();
                            for (int i = from; i >= 0 && i < size && expected.size() < 50; i += reverse ? -1 : 1) {
                                expected.add(model.get(i));
                            }
                            assertThat(seen).isEqualTo(expected);
                        }
                    }
                }
                assertThat(keyspace.exists(b("l"))).isEqualTo(!model.isEmpty());
                if (op % 2000 == 0) {
                    assertThat(elements("l")).as("op %d seed %d", op, seed).isEqualTo(model);
                    keyspace.checkInvariants();
                }
            }
            assertThat(elements("l")).isEqualTo(model);
            keyspace.checkInvariants();
        }
    }

    private static String randomElement(SplittableRandom random) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            return "x".repeat(random.nextInt(200, 3000));
        }
        return Integer.toString(random.nextInt(kind < 10 ? 10 : 100_000));
    }

    private static long removeFromModel(List<String> model, long count, String value) {
        long removed = 0;
        if (count >= 0) {
            for (int i = 0; i < model.size() && (count == 0 || removed < count); ) {
                if (model.get(i).equals(value)) {
                    model.remove(i);
                    removed++;
                } else {
                    i++;
                }
            }
        } else {
            for (int i = model.size() - 1; i >= 0 && removed < -count; i--) {
                if (model.get(i).equals(value)) {
                    model.remove(i);
                    removed++;
                }
            }
        }
        return removed;
    }
}
