package io.kvd.server.debug;

import io.kvd.server.numeric.Printf;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.ValueType;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Redis 7.0's DEBUG DIGEST and DIGEST-VALUE (debug.c's computeDatasetDigest and
 * xorObjectDigest), over kvd's store: the same 20 bytes as redis-server for the same data. An
 * unordered collection xors in each element's SHA1 (digest ^= SHA1(element)); a list or a
 * stream mixes its elements in order (digest = SHA1(digest ^ SHA1(element))).
 */
public final class DatasetDigest {
    private static final byte[] EXPIRE = "!!expire!!".getBytes(StandardCharsets.US_ASCII);
    /** Redis's OBJ_* numbers, which the digest mixes in. */
    private static final int OBJ_STRING = 0;
    private static final int OBJ_LIST = 1;
    private static final int OBJ_SET = 2;
    private static final int OBJ_ZSET = 3;
    private static final int OBJ_HASH = 4;
    private static final int OBJ_STREAM = 6;

    private final MessageDigest sha1;

    public DatasetDigest() {
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** DEBUG DIGEST: every database's keys with their values and whether they expire, in hex. */
    public String of(Databases databases) {
        byte[] total = new byte[20];
        for (int db = 0; db < databases.count(); db++) {
            Keyspace keyspace = databases.get(db);
            if (keyspace.size() == 0) {
                continue;
            }
            mix(total, new byte[]{(byte) (db >>> 24), (byte) (db >>> 16), (byte) (db >>> 8), (byte) db});
            keyspace.forEachKey(key -> {
                byte[] entry = new byte[20];
                mix(entry, key);
                addValue(entry, keyspace, key);
                xorDigestOf(total, entry);
            });
        }
        return HexFormat.of().formatHex(total);
    }

    /** DEBUG DIGEST-VALUE's digest of one key's value (with whether it expires); 40 zeros if missing. */
    public String ofValue(Keyspace keyspace, byte[] key) {
        byte[] digest = new byte[20];
        if (keyspace.holds(key)) {
            addValue(digest, keyspace, key);
        }
        return HexFormat.of().formatHex(digest);
    }

    private void addValue(byte[] digest, Keyspace keyspace, byte[] key) {
        ValueType type = keyspace.type(key);
        switch (type) {
            case STRING -> {
                mixType(digest, OBJ_STRING);
                mix(digest, keyspace.get(key));
            }
            case LIST -> {
                mixType(digest, OBJ_LIST);
                keyspace.list(key).forEach(element -> mix(digest, element));
            }
            case SET -> {
                mixType(digest, OBJ_SET);
                keyspace.set(key).forEach(member -> xorDigestOf(digest, member));
            }
            case ZSET -> {
                mixType(digest, OBJ_ZSET);
                long cursor = 0;
                do {
                    cursor = keyspace.zset(key).scan(cursor, (member, score) -> {
                        byte[] element = new byte[20];
                        mix(element, member);
                        mix(element, Printf.g17(score).getBytes(StandardCharsets.US_ASCII));
                        xorDigestOf(digest, element);
                    });
                } while (cursor != 0);
            }
            case HASH -> {
                mixType(digest, OBJ_HASH);
                keyspace.hash(key).forEach((field, value) -> {
                    byte[] element = new byte[20];
                    mix(element, field);
                    mix(element, value);
                    xorDigestOf(digest, element);
                });
            }
            case STREAM -> {
                mixType(digest, OBJ_STREAM);
                keyspace.stream(key).range(StreamId.MIN, StreamId.MAX, false, (id, fieldsAndValues) -> {
                    mix(digest, (Long.toUnsignedString(id.ms()) + "." + Long.toUnsignedString(id.seq()))
                            .getBytes(StandardCharsets.US_ASCII));
                    for (byte[] part : fieldsAndValues) {
                        mix(digest, part);
                    }
                    return true;
                });
            }
            default -> throw new IllegalStateException("no digest for " + type);
        }
        if (keyspace.deadline(key) != Keyspace.PERSISTENT) {
            xorDigestOf(digest, EXPIRE);
        }
    }

    private void mixType(byte[] digest, int type) {
        mix(digest, new byte[]{0, 0, 0, (byte) type});
    }

    /** Redis's xorDigest: digest ^= SHA1(data). */
    private void xorDigestOf(byte[] digest, byte[] data) {
        xor(digest, sha1.digest(data));
    }

    /** Redis's mixDigest: digest = SHA1(digest ^ SHA1(data)). */
    private void mix(byte[] digest, byte[] data) {
        xorDigestOf(digest, data);
        System.arraycopy(sha1.digest(digest), 0, digest, 0, 20);
    }

    private static void xor(byte[] digest, byte[] other) {
        for (int i = 0; i < 20; i++) {
            digest[i] ^= other[i];
        }
    }
}
