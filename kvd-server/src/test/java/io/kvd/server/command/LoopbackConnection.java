package io.kvd.server.command;

import io.kvd.server.client.Client;
/** The connection of a socket-less test client: fixed loopback addresses; it remembers a close and a block. */
public final class LoopbackConnection implements Client.Connection {
    private boolean closed;
    private boolean blocked;

    @Override
    public String remoteAddress() {
        return "127.0.0.1:50000";
    }

    @Override
    public String localAddress() {
        return "127.0.0.1:6379";
    }

    @Override
    public int queryBufferBytes() {
        return 0;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Published messages stay in the client's reply until the test takes them. */
    @Override
    public void outputAdded() {
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void blocked() {
        blocked = true;
    }

    @Override
    public void unblocked() {
        blocked = false;
    }

    /** A pause's held command is not run again here: tests of CLIENT PAUSE use real connections. */
    @Override
    public void postpone(byte[][] argv) {
        blocked = true;
    }

    @Override
    public void runPostponed() {
        blocked = false;
    }

    /** Between {@link #blocked} and {@link #unblocked}. */
    public boolean isBlocked() {
        return blocked;
    }
}
