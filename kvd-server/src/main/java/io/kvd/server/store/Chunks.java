package io.kvd.server.store;

/**
 * The fixed chunk size the store's big arrays are cut into. Growing one of them appends a chunk
 * and copies only the small directory of chunks, and a fresh chunk is quick to zero, so no single
 * command pays for copying or clearing millions of slots (a flat int[8M] costs milliseconds to
 * allocate and zero; a chunk, microseconds).
 */
final class Chunks {
    static final int SHIFT = 12;
    static final int SIZE = 1 << SHIFT;
    static final int MASK = SIZE - 1;

    private Chunks() {
    }

    static int chunk(int index) {
        return index >>> SHIFT;
    }

    static int offset(int index) {
        return index & MASK;
    }

    /** Directory length that holds chunk {@code chunk}: doubled, so appends are amortized O(1). */
    static int grownLength(int length, int chunk) {
        return Math.max(length * 2, chunk + 1);
    }
}
