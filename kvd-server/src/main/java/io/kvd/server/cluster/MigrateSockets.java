package io.kvd.server.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * MIGRATE's connections to its targets, Redis's migrate_cached_sockets (cluster.c): one per
 * host:port as the command named them, at most 64 (a new one past that closes one at random),
 * each closed by the cron once unused for more than 10 s. Every operation blocks the caller for
 * at most the timeout it is given, as Redis's connBlockingConnect, connSyncWrite and
 * connSyncReadLine do: a non-blocking channel waited on by its own selector, since a plain
 * socket's writes cannot time out.
 */
public final class MigrateSockets {
    private static final int MAX_SOCKETS = 64;
    private static final long IDLE_MS = 10_000;

    private final Map<String, Target> sockets = new HashMap<>();

    /** One cached connection: the database its last MIGRATE selected (-1: unknown) and when it was last used. */
    public static final class Target {
        private final SocketChannel channel;
        private final Selector selector;
        private final ByteBuffer input = ByteBuffer.allocate(16 * 1024).flip();
        /** Why the connection could not be completed, or null: the first write fails with it. */
        private IOException broken;
        private long lastDb = -1;
        private long lastUseMs;

        private Target(SocketChannel channel, Selector selector) {
            this.channel = channel;
            this.selector = selector;
        }

        public long lastDb() {
            return lastDb;
        }

        public void lastDb(long db) {
            lastDb = db;
        }

        /** Writes all of {@code bytes}, each 64 KB within {@code timeoutMs}, as Redis's transfer loop. */
        public void write(byte[] bytes, long timeoutMs) throws IOException {
            if (broken != null) {
                throw broken;
            }
            for (int pos = 0; pos < bytes.length; pos += 64 * 1024) {
                ByteBuffer chunk = ByteBuffer.wrap(bytes, pos, Math.min(64 * 1024, bytes.length - pos));
                long deadline = deadline(timeoutMs);
                while (chunk.hasRemaining()) {
                    if (channel.write(chunk) == 0) {
                        await(SelectionKey.OP_WRITE, deadline);
                    }
                }
            }
        }

        /**
         * Redis's syncReadLine into a 1024-byte buffer: up to the newline (the CR dropped), at most
         * 1023 bytes, each byte within {@code timeoutMs}; null for an empty read, which Redis
         * counts as an error too.
         */
        public String readLine(long timeoutMs) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (line.size() < 1023) {
                if (!input.hasRemaining()) {
                    fill(timeoutMs);
                }
                byte b = input.get();
                if (b == '\n') {
                    break;
                }
                line.write(b);
            }
            byte[] bytes = line.toByteArray();
            if (bytes.length == 0) {
                return null;
            }
            int length = bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        }

        private void fill(long timeoutMs) throws IOException {
            long deadline = deadline(timeoutMs);
            input.clear();
            try {
                while (true) {
                    int read = channel.read(input);
                    if (read < 0) {
                        throw new IOException("connection closed by the target");
                    }
                    if (read > 0) {
                        return;
                    }
                    await(SelectionKey.OP_READ, deadline);
                }
            } finally {
                input.flip();
            }
        }

        private void await(int op, long deadline) throws IOException {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new SocketTimeoutException();
            }
            SelectionKey key = channel.keyFor(selector);
            key.interestOps(op);
            selector.selectedKeys().clear();
            if (selector.select(left) == 0 && System.currentTimeMillis() >= deadline) {
                throw new SocketTimeoutException();
            }
        }

        private void close() {
            try {
                selector.close();
                channel.close();
            } catch (IOException ignored) {
                // Closing a socket that failed: nothing more to do.
            }
        }
    }

    private static long deadline(long timeoutMs) {
        long now = System.currentTimeMillis();
        return timeoutMs > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeoutMs;
    }

    /**
     * Redis's migrateGetSocket: the cached connection to {@code host}:{@code port}, or a new one
     * made within {@code timeoutMs}; an IOException if the connect cannot even start (an unknown
     * host, a bad port), as Redis's anetTcpNonBlockConnect fails.
     */
    public Target get(String host, String port, long timeoutMs, long nowMs) throws IOException {
        String name = host + ":" + port;
        Target cached = sockets.get(name);
        if (cached != null) {
            cached.lastUseMs = nowMs;
            return cached;
        }
        if (sockets.size() == MAX_SOCKETS) {
            List<String> names = new ArrayList<>(sockets.keySet());
            sockets.remove(names.get(ThreadLocalRandom.current().nextInt(names.size()))).close();
        }
        Target target = connect(host, atoi(port), timeoutMs);
        target.lastUseMs = nowMs;
        sockets.put(name, target);
        return target;
    }

    private static Target connect(String host, int port, long timeoutMs) throws IOException {
        // As getaddrinfo with Redis's "%d" of the port: a negative one is refused, a larger one wraps.
        if (port < 0) {
            throw new IOException("bad port");
        }
        SocketChannel channel = SocketChannel.open();
        Selector selector = null;
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            selector = Selector.open();
            long deadline = deadline(timeoutMs);
            InetSocketAddress address = new InetSocketAddress(host, port & 0xFFFF);
            if (address.isUnresolved()) {
                throw new IOException("unknown host");
            }
            channel.register(selector, SelectionKey.OP_CONNECT);
            Target target = new Target(channel, selector);
            if (!channel.connect(address)) {
                // As Redis's connSocketBlockingConnect: a connection refused or not made in time
                // is still returned (and cached); its first write fails, so MIGRATE answers
                // "writing" and retries unless it timed out.
                try {
                    while (!channel.finishConnect()) {
                        target.await(SelectionKey.OP_CONNECT, deadline);
                    }
                } catch (IOException e) {
                    target.broken = e;
                }
            }
            return target;
        } catch (IOException | RuntimeException e) {
            if (selector != null) {
                selector.close();
            }
            channel.close();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    /** C's atoi of the port argument, as Redis connects to {@code atoi(port)}: leading digits, else 0. */
    private static int atoi(String port) {
        int i = 0;
        while (i < port.length() && Character.isWhitespace(port.charAt(i))) {
            i++;
        }
        boolean negative = i < port.length() && port.charAt(i) == '-';
        if (i < port.length() && (port.charAt(i) == '-' || port.charAt(i) == '+')) {
            i++;
        }
        long value = 0;
        while (i < port.length() && port.charAt(i) >= '0' && port.charAt(i) <= '9' && value < 1_000_000) {
            value = value * 10 + (port.charAt(i++) - '0');
        }
        return (int) (negative ? -value : value);
    }

    /** Redis's migrateCloseSocket: drops the connection to {@code host}:{@code port}, if cached. */
    public void close(String host, String port) {
        Target target = sockets.remove(host + ":" + port);
        if (target != null) {
            target.close();
        }
    }

    /** Redis's migrateCloseTimedoutSockets, from the cron: closes the connections unused for more than 10 s. */
    public void closeIdle(long nowMs) {
        sockets.values().removeIf(target -> {
            boolean idle = nowMs - target.lastUseMs > IDLE_MS;
            if (idle) {
                target.close();
            }
            return idle;
        });
    }

    /** INFO's migrate_cached_sockets. */
    public int size() {
        return sockets.size();
    }

    /** Closes every connection (the server stops). */
    public void closeAll() {
        sockets.values().forEach(Target::close);
        sockets.clear();
    }
}
