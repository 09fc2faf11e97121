package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A blocking test client: writes raw bytes or commands, reads whole replies with a timeout. */
final class RespConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ByteBuf received = Unpooled.buffer();
    private final byte[] chunk = new byte[64 * 1024];

    RespConnection(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    /** Over a socket already connected (a TLS one, say). */
    RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(20_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void sendCommand(String... argv) throws IOException {
        send(encode(argv));
    }

    /** The next complete reply; fails on timeout. */
    RespReply read() throws IOException {
        while (true) {
            RespReply reply = RespReplyParser.parse(received);
            if (reply != null) {
                received.discardReadBytes();
                return reply;
            }
            int n = in.read(chunk);
            if (n < 0) {
                throw new IOException("connection closed by the server");
            }
            received.writeBytes(chunk, 0, n);
        }
    }

    RespReply call(String... argv) throws IOException {
        sendCommand(argv);
        return read();
    }

    /**
     * Pipelines {@code request} {@code times} over in one write from another thread (a server
     * that pauses reading makes it block until this thread reads) and checks that every reply is
     * {@code expected}.
     */
    void sendWithoutReadingThenReadEach(byte[] request, int times, RespReply expected) throws Exception {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < times; i++) {
            batch.write(request);
        }
        Thread writer = new Thread(() -> {
            try {
                send(batch.toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.start();
        for (int i = 0; i < times; i++) {
            assertThat(read()).isEqualTo(expected);
        }
        writer.join();
    }

    /** A numeric field of INFO's {@code section}. */
    long infoField(String section, String field) throws IOException {
        String info = ((RespReply.BulkString) call("INFO", section)).utf8();
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("INFO " + section + " has no " + field + ": " + info);
    }

    /** True once the server closed the connection (after any unread replies). */
    boolean closedByServer() throws IOException {
        return received.readableBytes() == 0 && in.read() < 0;
    }

    static byte[] encode(String... argv) {
        byte[][] args = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            args[i] = argv[i].getBytes(StandardCharsets.UTF_8);
        }
        ByteBuf buf = Unpooled.buffer();
        RespWriter.writeCommand(buf, args);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        received.release();
    }
}
