package io.kvd.server.store;

/**
 * A string value where it is stored: {@code length} bytes of {@code bytes} from {@code offset}, read
 * (and, from {@link Keyspace#editString}, written) without a copy. Valid only until the keyspace
 * next changes: any allocation may move the entry elsewhere, or the key may go.
 */
public record StringView(byte[] bytes, int offset, int length) {
}
