package io.kvd.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** A server kvbench connects to, written {@code host:port}. */
record ServerAddress(String host, int port) {
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    /** A server that sends nothing for this long while a reply is awaited has stopped answering. */
    private static final int READ_TIMEOUT_MS = 60_000;

    /** {@code host:port}; the host may itself hold colons (IPv6), the port follows the last one. */
    static ServerAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no port number");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("'" + text + "': the port must be in 1..65535");
        }
        return new ServerAddress(text.substring(0, colon), port);
    }

    /** A blocking socket to the server, without Nagle's delay; a read fails after 60 s without a byte. */
    Socket connect() throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
