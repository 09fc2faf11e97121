package io.kvd.server.client;

import java.util.Arrays;

/** A key of one database, by value: what WATCH and the blocked clients look keys up by. */
record DbKey(int db, byte[] key) {
    @Override
    public boolean equals(Object o) {
        return o instanceof DbKey other && other.db == db && Arrays.equals(other.key, key);
    }

    @Override
    public int hashCode() {
        return 31 * db + Arrays.hashCode(key);
    }
}
