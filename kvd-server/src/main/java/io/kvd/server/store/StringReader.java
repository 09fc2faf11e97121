package io.kvd.server.store;

/** Reads a string value where the keyspace stores it ({@link Keyspace#readString}). */
@FunctionalInterface
public interface StringReader<R> {
    /**
     * The value is {@code length} bytes of {@code page} from {@code offset}; the page holds other
     * entries too, and is valid only during the call: it must be neither kept nor written.
     */
    R read(byte[] page, int offset, int length);
}
