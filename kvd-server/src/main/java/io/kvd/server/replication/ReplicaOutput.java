package io.kvd.server.replication;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The connection of a replica, as the primary writes the replication stream to it: past the
 * client's reply buffer, straight to the socket.
 */
public interface ReplicaOutput {
    /** Writes {@code bytes} (released once written) and flushes. */
    void write(ByteBuf bytes);

    /**
     * Writes {@code header} and then the whole of {@code file}, the RDB of a full sync, and runs
     * {@code sent} on the event loop once the last byte left; the connection is closed if that fails.
     */
    void sendFile(ByteBuf header, Path file, Runnable sent) throws IOException;

    /** Bytes written and not yet taken by the socket (the replica's output buffer). */
    long pendingBytes();

    /** The replica's address, as {@code ip} of INFO's slave lines. */
    String ip();

    void close();
}
