package io.kvd.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay for one TLS connection that counts the TLS records the server sends (from their
 * 5-byte headers; the payload stays encrypted). Every flush of an SslHandler ends at least one
 * record, so the count bounds how many separate writes the server made.
 */
final class TlsRecordCountingProxy implements AutoCloseable {
    private static final int HEADER = 5;

    private final ServerSocket listener;
    private final AtomicInteger serverRecords = new AtomicInteger();
    private Socket client;
    private Socket server;

    TlsRecordCountingProxy(int serverPort) throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(() -> {
            try {
                client = listener.accept();
                server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                relay(client.getInputStream(), server.getOutputStream(), null);
                relay(server.getInputStream(), client.getOutputStream(), serverRecords);
            } catch (IOException e) {
                close();
            }
        }, "tls-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Records the server has sent so far (handshake records included). */
    int serverRecords() {
        return serverRecords.get();
    }

    private void relay(InputStream in, OutputStream out, AtomicInteger records) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            // Bytes left of the record being relayed; at 0 the next bytes start a header.
            long recordLeft = 0;
            byte[] header = new byte[HEADER];
            int headerBytes = 0;
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    for (int i = 0; records != null && i < n; ) {
                        if (recordLeft > 0) {
                            int skip = (int) Math.min(recordLeft, n - i);
                            recordLeft -= skip;
                            i += skip;
                        } else {
                            header[headerBytes++] = buffer[i++];
                            if (headerBytes == HEADER) {
                                records.incrementAndGet();
                                recordLeft = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
                                headerBytes = 0;
                            }
                        }
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // The other side closed: the relay ends.
            } finally {
                close();
            }
        }, "tls-proxy-relay");
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() {
        closeQuietly(client);
        closeQuietly(server);
        try {
            listener.close();
        } catch (IOException ignored) {
            // Closing: nothing left to do.
        }
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing: nothing left to do.
            }
        }
    }
}
