package io.kvd.server.store;

/** The failure every store structure's checkInvariants reports (for tests). */
final class Invariants {
    private Invariants() {
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("keyspace invariant broken: " + message);
        }
    }
}
