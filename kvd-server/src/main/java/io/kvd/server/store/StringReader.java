package io.kvd.server.store;

/** Reads (or edits) a string value where the keyspace stores it ({@link Keyspace#readString}, {@link Keyspace#editString}). */
@FunctionalInterface
public interface StringReader<R> {
    /**
     * The value is {@code length} bytes of {@code page} from {@code offset}; the page holds other
     * entries too, and is valid only during the call: it must not be kept, nor written outside
     * the value (nor at all by a reader).
     */
    R read(byte[] page, int offset, int length);
}
