package io.kvd.server.command;

/** The connection of a socket-less test client: fixed loopback addresses, and it remembers a close. */
public final class LoopbackConnection implements Client.Connection {
    private boolean closed;

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
}
