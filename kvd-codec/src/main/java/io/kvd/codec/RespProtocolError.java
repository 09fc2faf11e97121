package io.kvd.codec;

/**
 * Emitted by {@link RespDecoder} when a request breaks the protocol. The server answers with
 * {@code -message} and closes the connection once that reply is flushed, as Redis does.
 *
 * @param message the error line without the leading '-', e.g. {@code ERR Protocol error: invalid bulk length}
 */
public record RespProtocolError(String message) {
}
