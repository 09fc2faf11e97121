package io.kvd.server.client;

/**
 * The connection of a client that has no socket of its own: the AOF's replay, a replica's master
 * client. Such a client never blocks and is never paused (it is denied blocking, and CLIENT PAUSE
 * passes it), so those calls are errors; its output goes nowhere.
 */
public abstract class SocketlessConnection implements Client.Connection {
    @Override
    public String localAddress() {
        return "";
    }

    @Override
    public int queryBufferBytes() {
        return 0;
    }

    @Override
    public void outputAdded() {
    }

    @Override
    public void blocked() {
        throw new IllegalStateException("a client without a socket blocked");
    }

    @Override
    public void unblocked() {
        throw new IllegalStateException("a client without a socket was unblocked");
    }

    @Override
    public void postpone(byte[][] argv) {
        throw new IllegalStateException("a client without a socket was paused");
    }

    @Override
    public void runPostponed() {
        throw new IllegalStateException("a client without a socket was paused");
    }
}
