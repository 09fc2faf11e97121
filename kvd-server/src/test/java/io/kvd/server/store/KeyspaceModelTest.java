package io.kvd.server.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.kvd.server.store.Keyspace.MISSING;
import static io.kvd.server.store.Keyspace.PERSISTENT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random operations on a {@link Keyspace} and on a {@link HashMap} model side by side: every
 * answer must agree, the structure must stay consistent, and a scan running across the
 * operations must return every key that was live for the whole of it. The key range swings
 * between small and large so that the table grows and shrinks many times.
 * Seed: {@code -Dkeyspace.seed=N}.
 */
class KeyspaceModelTest {
    private static final int OPERATIONS = 250_000;
    private static final int PHASE_LENGTH = 10_000;
    private static final int KEY_RANGE = 4096;
    private static final long START_MS = 1_700_000_000_000L;

    /** The model's view of one key; it is live while {@code deadline} is persistent or not yet passed. */
    private static final class ModelEntry {
        byte[] value;
        long deadline;
        /** The operation since which the key has been live without a break. */
        int liveSince;
    }

    private final Map<String, ModelEntry> model = new HashMap<>();
    private final Keyspace keyspace = new Databases(1, 1).get(0);
    private SplittableRandom random;
    private long now = START_MS;
    private int op;
    private int keyRange;
    private int sweep;

    /** The scan in progress, if {@link #scanStartedAt} >= 0. */
    private long scanCursor;
    private int scanStartedAt = -1;
    private final Set<String> scanSeen = new HashSet<>();
    private int completedScans;
    /** Scan calls made while the table was being resized to a larger or to a smaller one. */
    private int scanStepsWhileGrowing;
    private int scanStepsWhileShrinking;

    @Test
    void keyspaceAgreesWithAHashMapModel() {
        long seed = Long.getLong("keyspace.seed", 20_240_601L);
        System.out.println("KeyspaceModelTest seed " + seed + " (override with -Dkeyspace.seed=N)");
        random = new SplittableRandom(seed);
        keyspace.setTime(now);
        for (op = 0; op < OPERATIONS; op++) {
            step((op / PHASE_LENGTH) % 2 == 0);
            if (op % 1000 == 0) {
                keyspace.checkInvariants();
            }
        }
        keyspace.checkInvariants();
        assertThat(keysOf(keyspace)).isEqualTo(liveModelKeys());
        System.out.println("KeyspaceModelTest: " + completedScans + " scans completed; scan calls mid-resize: "
                + scanStepsWhileGrowing + " while growing, " + scanStepsWhileShrinking + " while shrinking");
        assertThat(completedScans).isGreaterThan(10);
        assertThat(scanStepsWhileGrowing).isPositive();
        assertThat(scanStepsWhileShrinking).isPositive();
    }

    /**
     * One random operation. While growing, keys come from the whole range and puts dominate; while
     * shrinking, removes sweep the whole range and everything else stays in a small part of it.
     */
    private void step(boolean growing) {
        keyRange = growing ? KEY_RANGE : KEY_RANGE / 32;
        String key = randomKeyName();
        int removeShare = growing ? 5 : 60;
        int putShare = growing ? 35 : 5;
        int dice = random.nextInt(100);
        if (dice < removeShare) {
            remove(growing ? key : "k" + sweep++ % KEY_RANGE);
        } else if (dice < removeShare + putShare) {
            if (random.nextInt(5) == 0) {
                putKeepingDeadline(key);
            } else {
                put(key);
            }
        } else {
            otherOperation(key);
        }
    }

    private void otherOperation(String key) {
        int dice = random.nextInt(100);
        if (dice < 20) {
            setDeadline(key, deadline());
        } else if (dice < 25) {
            setDeadline(key, PERSISTENT);
        } else if (dice < 30) {
            rename(key, randomKeyName());
        } else if (dice < 37) {
            editString(key);
        } else if (dice < 55) {
            assertLookupsAgree(key);
        } else if (dice < 70) {
            now += random.nextInt(4);
            keyspace.setTime(now);
        } else if (dice < 85) {
            scanStep();
        } else if (dice < 95) {
            assertRandomKeyIsLive();
        } else if (dice < 99) {
            keyspace.expireSample(20, new long[2]);
        } else if (random.nextInt(20) == 0) {
            assertFullScanAndForEachAgree();
        }
    }

    private String randomKeyName() {
        return "k" + random.nextInt(keyRange);
    }

    /** Mostly future deadlines, a few already past, so that keys expire all the time. */
    private long deadline() {
        return now - 2 + random.nextInt(60);
    }

    private boolean live(ModelEntry e) {
        return e != null && (e.deadline == PERSISTENT || e.deadline >= now);
    }

    private ModelEntry liveEntry(String key) {
        ModelEntry e = model.get(key);
        return live(e) ? e : null;
    }

    /** Applies a change to the model and keeps {@code liveSince} right across it. */
    private void change(String key, byte[] value, long deadline) {
        boolean wasLive = liveEntry(key) != null;
        ModelEntry e = model.computeIfAbsent(key, k -> new ModelEntry());
        e.value = value;
        e.deadline = deadline;
        if (!wasLive) {
            e.liveSince = op;
        }
    }

    private void put(String key) {
        byte[] value = value();
        long deadline = random.nextInt(10) < 7 ? PERSISTENT : deadline();
        keyspace.put(bytes(key), value, deadline);
        change(key, value, deadline);
    }

    private void putKeepingDeadline(String key) {
        byte[] value = value();
        keyspace.putKeepingDeadline(bytes(key), value);
        ModelEntry e = liveEntry(key);
        change(key, value, e == null ? PERSISTENT : e.deadline);
    }

    private void remove(String key) {
        assertThat(keyspace.remove(bytes(key))).isEqualTo(liveEntry(key) != null);
        model.remove(key);
    }

    private void setDeadline(String key, long deadline) {
        ModelEntry e = liveEntry(key);
        assertThat(keyspace.setDeadline(bytes(key), deadline)).isEqualTo(e != null);
        if (e != null) {
            change(key, e.value, deadline);
        }
    }

    private void rename(String from, String to) {
        ModelEntry e = liveEntry(from);
        assertThat(keyspace.rename(bytes(from), bytes(to))).isEqualTo(e != null);
        if (e != null) {
            model.remove(from);
            change(to, e.value, e.deadline);
        }
    }

    /**
     * A few bytes written in place into the string, grown first one time in three (rarely past
     * what a shared page takes): the deadline stays, a missing key is created persistent.
     */
    private void editString(String key) {
        ModelEntry e = liveEntry(key);
        byte[] old = e == null ? new byte[0] : e.value;
        int grown = random.nextInt(500) == 0 ? EntryPages.LARGEST_SHARED + 1 + random.nextInt(1000)
                : old.length + random.nextInt(100);
        int length = old.length == 0 || random.nextInt(3) == 0 ? Math.max(1, grown) : old.length;
        byte[] value = Arrays.copyOf(old, Math.max(length, old.length));
        StringView view = keyspace.editString(bytes(key), length);
        assertThat(view.length()).isEqualTo(value.length);
        for (int i = random.nextInt(4); i >= 0; i--) {
            int at = random.nextInt(value.length);
            value[at] = (byte) op;
            view.bytes()[view.offset() + at] = (byte) op;
        }
        change(key, value, e == null ? PERSISTENT : e.deadline);
    }

    private void assertLookupsAgree(String key) {
        ModelEntry e = liveEntry(key);
        assertThat(keyspace.get(bytes(key))).isEqualTo(e == null ? null : e.value);
        StringView view = keyspace.read(bytes(key));
        assertThat(view == null ? null : Arrays.copyOfRange(view.bytes(), view.offset(), view.offset() + view.length()))
                .isEqualTo(e == null ? null : e.value);
        assertThat(keyspace.exists(bytes(key))).isEqualTo(e != null);
        assertThat(keyspace.deadline(bytes(key))).isEqualTo(e == null ? MISSING : e.deadline);
    }

    private void assertRandomKeyIsLive() {
        byte[] key = keyspace.randomKey();
        if (key == null) {
            assertThat(liveModelKeys()).isEmpty();
        } else {
            assertThat(liveEntry(string(key))).isNotNull();
        }
    }

    /** One call of a scan that runs across other operations; checked when its cursor returns to 0. */
    private void scanStep() {
        if (scanStartedAt < 0) {
            scanStartedAt = op;
            scanCursor = 0;
            scanSeen.clear();
        }
        if (keyspace.resizing()) {
            if (keyspace.growing()) {
                scanStepsWhileGrowing++;
            } else {
                scanStepsWhileShrinking++;
            }
        }
        scanCursor = keyspace.scan(scanCursor, key -> {
            assertThat(liveEntry(string(key))).isNotNull();
            scanSeen.add(string(key));
        });
        if (scanCursor == 0) {
            for (Map.Entry<String, ModelEntry> entry : model.entrySet()) {
                if (live(entry.getValue()) && entry.getValue().liveSince < scanStartedAt) {
                    assertThat(scanSeen).as("key live for the whole scan").contains(entry.getKey());
                }
            }
            scanStartedAt = -1;
            completedScans++;
        }
    }

    private void assertFullScanAndForEachAgree() {
        Set<String> scanned = new HashSet<>();
        long cursor = 0;
        do {
            cursor = keyspace.scan(cursor, key -> scanned.add(string(key)));
        } while (cursor != 0);
        Set<String> live = liveModelKeys();
        assertThat(scanned).isEqualTo(live);
        assertThat(keysOf(keyspace)).isEqualTo(live);
    }

    private Set<String> liveModelKeys() {
        Set<String> keys = new HashSet<>();
        model.forEach((key, e) -> {
            if (live(e)) {
                keys.add(key);
            }
        });
        return keys;
    }

    private static Set<String> keysOf(Keyspace keyspace) {
        Set<String> keys = new HashSet<>();
        keyspace.forEachKey(key -> keys.add(string(key)));
        return keys;
    }

    /**
     * A value of random length tagged with the operation, so overwrites move entries between
     * pages and compactions run; one in 500 is too large to share a page.
     */
    private byte[] value() {
        int length = random.nextInt(500) == 0 ? EntryPages.LARGEST_SHARED + 1 + random.nextInt(1000) : random.nextInt(200);
        byte[] tag = bytes("v" + op + ";");
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = tag[i % tag.length];
        }
        return value;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
