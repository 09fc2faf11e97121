package io.kvd.server.keyspec;

import io.kvd.server.numeric.IntegerText;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static io.kvd.server.keyspec.KeyFlag.*;

/**
 * Redis 7.0's getkeys functions (db.c: sortGetKeys, setGetKeys, genericGetKeys, ...), which find
 * the keys of the commands whose key specs cannot: the specs are unknown or incomplete (SORT),
 * their flags vary with the request (SET's GET), or the specs failed on the request (a key count
 * string2ll refuses, which these read with atoi). Flags are set only where Redis sets them.
 */
public final class KeyProcedures {
    private static final Set<KeyFlag> NONE = Set.of();
    private static final Set<KeyFlag> READ = Set.of(RO, ACCESS);
    private static final Set<KeyFlag> OVERWRITE = Set.of(OW, UPDATE);
    private static final Set<KeyFlag> READ_WRITE = Set.of(RW, ACCESS, UPDATE);
    private static final Set<KeyFlag> MOVED = Set.of(RW, ACCESS, DELETE);

    private KeyProcedures() {
    }

    /** The getkeys function Redis's command table gives the command (or subcommand) {@code name}, or null. */
    public static Function<byte[][], List<KeyReference>> of(String name) {
        return switch (name) {
            case "sort" -> KeyProcedures::sort;
            case "sort_ro" -> argv -> List.of(new KeyReference(1, READ));
            case "set" -> KeyProcedures::set;
            case "bitfield" -> KeyProcedures::bitfield;
            case "zunionstore", "zinterstore", "zdiffstore" -> argv -> counted(argv, 1, 2);
            case "zunion", "zinter", "zdiff", "zintercard", "sintercard", "lmpop", "zmpop" -> argv -> counted(argv, 0, 1);
            case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro", "blmpop", "bzmpop" ->
                    argv -> counted(argv, 0, 2);
            case "georadius", "georadiusbymember" -> KeyProcedures::georadius;
            case "xread", "xreadgroup" -> KeyProcedures::xread;
            case "migrate" -> KeyProcedures::migrate;
            default -> null;
        };
    }

    /**
     * Redis's genericGetKeys: the keys after the atoi count at {@code countAt}, then the destination
     * at {@code storeAt} (0: none); none if the count is below 1 or more than the arguments left.
     */
    private static List<KeyReference> counted(byte[][] argv, int storeAt, int countAt) {
        int count = IntegerText.atoi(argv[countAt]);
        int first = countAt + 1;
        if (count < 1 || count > argv.length - first) {
            return List.of();
        }
        List<KeyReference> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(new KeyReference(first + i, NONE));
        }
        if (storeAt > 0) {
            keys.add(new KeyReference(storeAt, NONE));
        }
        return keys;
    }

    /**
     * Redis's sortGetKeys: the sorted key, and the last STORE's destination. Options are skipped by
     * their argument counts, so the word after STORE is read as an option again, as Redis does.
     */
    private static List<KeyReference> sort(byte[][] argv) {
        int store = 0;
        for (int i = 2; i < argv.length; i++) {
            if (is(argv[i], "limit")) {
                i += 2;
            } else if (is(argv[i], "get") || is(argv[i], "by")) {
                i++;
            } else if (is(argv[i], "store") && i + 1 < argv.length) {
                store = i + 1;
            }
        }
        KeyReference sorted = new KeyReference(1, READ);
        return store == 0 ? List.of(sorted) : List.of(sorted, new KeyReference(store, OVERWRITE));
    }

    /** Redis's setGetKeys: the key is read and written with GET among the options, else overwritten. */
    private static List<KeyReference> set(byte[][] argv) {
        for (int i = 3; i < argv.length; i++) {
            if (is(argv[i], "get")) {
                return List.of(new KeyReference(1, READ_WRITE));
            }
        }
        return List.of(new KeyReference(1, OVERWRITE));
    }

    /**
     * Redis's bitfieldGetKeys: read-only while every operation is a complete GET or OVERFLOW; a SET,
     * an INCRBY or anything it cannot read makes it a write.
     */
    private static List<KeyReference> bitfield(byte[][] argv) {
        boolean readOnly = true;
        for (int i = 2; i < argv.length; i++) {
            int left = argv.length - i - 1;
            if (is(argv[i], "get") && left >= 2) {
                i += 2;
            } else if (is(argv[i], "overflow") && left >= 1) {
                i += 1;
            } else {
                readOnly = false;
                break;
            }
        }
        return List.of(new KeyReference(1, readOnly ? READ : Set.of(RW, ACCESS, UPDATE)));
    }

    /**
     * Redis's migrateGetKeys: the key argument, or with KEYS (AUTH's and AUTH2's passwords
     * skipped) every argument after it; none if KEYS comes with a non-empty key argument. Each
     * key is read and deleted, the flags Redis sets here (ACL checks of the KEYS form need them).
     */
    private static List<KeyReference> migrate(byte[][] argv) {
        int first = 3;
        int count = 1;
        for (int i = 6; i < argv.length; i++) {
            if (is(argv[i], "auth")) {
                i++;
            } else if (is(argv[i], "auth2")) {
                i += 2;
            } else if (is(argv[i], "keys")) {
                if (argv[3].length > 0) {
                    return List.of();
                }
                first = i + 1;
                count = argv.length - first;
                break;
            }
        }
        List<KeyReference> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(new KeyReference(first + i, MOVED));
        }
        return keys;
    }

    /** Redis's georadiusGetKeys: the source, and the last STORE or STOREDIST destination from the fifth argument on. */
    private static List<KeyReference> georadius(byte[][] argv) {
        int stored = -1;
        for (int i = 5; i < argv.length; i++) {
            if ((is(argv[i], "store") || is(argv[i], "storedist")) && i + 1 < argv.length) {
                stored = i + 1;
                i++;
            }
        }
        KeyReference source = new KeyReference(1, NONE);
        return stored < 0 ? List.of(source) : List.of(source, new KeyReference(stored, NONE));
    }

    /**
     * Redis's xreadGetKeys: STREAMS found past the options BLOCK, COUNT, GROUP and NOACK, then the
     * first half of what follows it; none if that is empty or odd.
     */
    private static List<KeyReference> xread(byte[][] argv) {
        int streams = -1;
        for (int i = 1; i < argv.length; i++) {
            if (is(argv[i], "block") || is(argv[i], "count")) {
                i++;
            } else if (is(argv[i], "group")) {
                i += 2;
            } else if (!is(argv[i], "noack")) {
                if (is(argv[i], "streams")) {
                    streams = i;
                }
                break;
            }
        }
        int following = argv.length - streams - 1;
        if (streams < 0 || following == 0 || following % 2 != 0) {
            return List.of();
        }
        List<KeyReference> keys = new ArrayList<>();
        for (int i = streams + 1; i < argv.length - following / 2; i++) {
            keys.add(new KeyReference(i, NONE));
        }
        return keys;
    }

    /** Redis's strcasecmp against an ASCII word (Latin-1 folds no other byte onto an ASCII letter). */
    static boolean is(byte[] arg, String word) {
        return new String(arg, StandardCharsets.ISO_8859_1).equalsIgnoreCase(word);
    }
}
