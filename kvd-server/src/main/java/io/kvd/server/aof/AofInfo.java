package io.kvd.server.aof;

/**
 * One file of the AOF directory as its manifest lists it (Redis's aofInfo): its name in the
 * directory, its sequence number and its type.
 */
record AofInfo(String name, long seq, Type type) {
    /** The manifest's {@code type} letters. */
    enum Type {
        /** The snapshot of the last rewrite, RDB or commands; at most one. */
        BASE('b'),
        /** A base or incr a rewrite replaced, deleted once the new manifest is written. */
        HISTORY('h'),
        /** Commands since the base, in sequence order; the last one is the one appended to. */
        INCR('i');

        final char letter;

        Type(char letter) {
            this.letter = letter;
        }

        /** Null for a letter Redis does not know. */
        static Type of(char letter) {
            for (Type type : values()) {
                if (type.letter == letter) {
                    return type;
                }
            }
            return null;
        }
    }

    AofInfo as(Type other) {
        return new AofInfo(name, seq, other);
    }
}
