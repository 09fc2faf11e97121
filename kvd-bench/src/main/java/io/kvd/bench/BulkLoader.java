package io.kvd.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One connection that SETs keys 0 to n-1 as fast as the socket takes them, as {@code redis-cli --pipe}
 * does: a writer thread sends the whole stream while the calling thread reads the replies. Keys are
 * {@code key:%012d} and values {@value #VALUE_SIZE} bytes ending with the key's digits, as the suite
 * loads them, so {@code kvbench -w get --verify -d 16} can check a load afterwards.
 */
final class BulkLoader implements AutoCloseable {
    static final int VALUE_SIZE = 16;
    /** SETs per write: 4096 of them are 236 KB, a system call per 4096 SETs in a buffer that stays in L2. */
    private static final int REQUESTS_PER_CHUNK = 4096;
    private static final int READ_BUFFER_BYTES = 64 * 1024;

    private final Socket socket;
    /** The first failure, the writer's or the reader's; the other side's is only the socket closing under it. */
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    /** Written by the writer thread; read after joining it. */
    private long firstByteSentNanos;

    private BulkLoader(Socket socket) {
        this.socket = socket;
    }

    static BulkLoader connect(ServerAddress server) throws IOException {
        return new BulkLoader(server.connect());
    }

    /**
     * Sends the SETs of keys 0 to {@code keys - 1} and reads their replies.
     *
     * @return nanoseconds from the first byte sent to the last reply read
     * @throws IOException when a reply is not {@code +OK}, or the connection fails
     */
    long load(long keys) throws IOException, InterruptedException {
        Thread writer = new Thread(() -> write(keys), "fairness-loader-writer");
        writer.setDaemon(true);
        writer.start();
        long lastReplyReadNanos = 0;
        try {
            lastReplyReadNanos = readReplies(keys);
        } catch (IOException e) {
            fail(e);
        }
        writer.join();
        IOException first = failure.get();
        if (first != null) {
            throw first;
        }
        return lastReplyReadNanos - firstByteSentNanos;
    }

    private void write(long keys) {
        RequestTemplate set = RequestTemplate.keyedWithStampedValue("SET", "key:", VALUE_SIZE);
        ByteBuf chunk = Unpooled.buffer(set.length() * REQUESTS_PER_CHUNK);
        try {
            OutputStream out = socket.getOutputStream();
            long next = fill(chunk, set, 0, keys);
            firstByteSentNanos = System.nanoTime();
            chunk.readBytes(out, chunk.readableBytes());
            while (next < keys) {
                next = fill(chunk, set, next, keys);
                chunk.readBytes(out, chunk.readableBytes());
            }
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Encodes the next chunk's SETs, from key {@code first} on, into {@code chunk}; returns the key after them. */
    private static long fill(ByteBuf chunk, RequestTemplate set, long first, long keys) {
        chunk.clear();
        long end = Math.min(keys, first + REQUESTS_PER_CHUNK);
        for (long key = first; key < end; key++) {
            set.writeTo(chunk, key);
        }
        return end;
    }

    /** Reads until every SET is answered; returns when the last reply was read. */
    private long readReplies(long keys) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[READ_BUFFER_BYTES];
        OkReplyCounter replies = new OkReplyCounter();
        while (replies.count() < keys) {
            int read;
            try {
                read = in.read(buffer);
            } catch (SocketTimeoutException e) {
                throw new IOException("the server stopped answering after " + replies.count() + " of " + keys
                        + " SETs", e);
            }
            if (read < 0) {
                throw new IOException("the server closed the loader's connection after " + replies.count() + " of "
                        + keys + " SETs");
            }
            replies.consume(buffer, read);
        }
        return System.nanoTime();
    }

    /** Keeps the first failure and closes the socket, which ends the other thread's write or read. */
    private void fail(IOException e) {
        failure.compareAndSet(null, e);
        try {
            socket.close();
        } catch (IOException closing) {
            e.addSuppressed(closing);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
