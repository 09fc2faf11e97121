package io.kvd.server.config;

/**
 * The classes of keyspace notifications (Redis's NOTIFY_* flags, same bits) and the letters of
 * {@code notify-keyspace-events} that name them, read and printed as Redis 7.0's notify.c does.
 */
public final class KeyspaceEventTypes {
    /** K: publish to {@code __keyspace@<db>__:<key>}. */
    public static final int KEYSPACE = 1;
    /** E: publish to {@code __keyevent@<db>__:<event>}. */
    public static final int KEYEVENT = 1 << 1;
    public static final int GENERIC = 1 << 2;
    public static final int STRING = 1 << 3;
    public static final int LIST = 1 << 4;
    public static final int SET = 1 << 5;
    public static final int HASH = 1 << 6;
    public static final int ZSET = 1 << 7;
    public static final int EXPIRED = 1 << 8;
    /** Reserved: kvd never evicts. */
    public static final int EVICTED = 1 << 9;
    /** Accepted; kvd has no streams. */
    public static final int STREAM = 1 << 10;
    public static final int KEY_MISS = 1 << 11;
    /** Modules' events in Redis; accepted, kvd has no modules. */
    public static final int MODULE = 1 << 13;
    public static final int NEW = 1 << 14;
    /** A: every class but key misses and new keys. */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    private KeyspaceEventTypes() {
    }

    /** Redis's keyspaceEventsStringToFlags; IllegalArgumentException with Redis's text for a letter it does not know. */
    public static int parse(String letters) {
        int flags = 0;
        for (int i = 0; i < letters.length(); i++) {
            flags |= switch (letters.charAt(i)) {
                case 'A' -> ALL;
                case 'g' -> GENERIC;
                case '$' -> STRING;
                case 'l' -> LIST;
                case 's' -> SET;
                case 'h' -> HASH;
                case 'z' -> ZSET;
                case 'x' -> EXPIRED;
                case 'e' -> EVICTED;
                case 'K' -> KEYSPACE;
                case 'E' -> KEYEVENT;
                case 't' -> STREAM;
                case 'm' -> KEY_MISS;
                case 'd' -> MODULE;
                case 'n' -> NEW;
                default -> throw new IllegalArgumentException("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            };
        }
        return flags;
    }

    /**
     * Redis's keyspaceEventsFlagsToString, the form CONFIG GET shows: A for all classes, else each
     * letter, then K, E, m. As in Redis 7.0, n is printed only when A is not (so "KEAn" reads back "AKE").
     */
    public static String format(int flags) {
        StringBuilder out = new StringBuilder();
        if ((flags & ALL) == ALL) {
            out.append('A');
        } else {
            append(out, flags, GENERIC, 'g');
            append(out, flags, STRING, '$');
            append(out, flags, LIST, 'l');
            append(out, flags, SET, 's');
            append(out, flags, HASH, 'h');
            append(out, flags, ZSET, 'z');
            append(out, flags, EXPIRED, 'x');
            append(out, flags, EVICTED, 'e');
            append(out, flags, STREAM, 't');
            append(out, flags, MODULE, 'd');
            append(out, flags, NEW, 'n');
        }
        append(out, flags, KEYSPACE, 'K');
        append(out, flags, KEYEVENT, 'E');
        append(out, flags, KEY_MISS, 'm');
        return out.toString();
    }

    private static void append(StringBuilder out, int flags, int flag, char letter) {
        if ((flags & flag) != 0) {
            out.append(letter);
        }
    }
}
