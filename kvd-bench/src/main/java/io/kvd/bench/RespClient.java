package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.LongFunction;

/**
 * A plain blocking RESP connection for everything around a measurement: asking INFO, sampling DBSIZE,
 * loading keys. Not for the measurement itself (that is {@link LoadGenerator}'s).
 */
final class RespClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ByteBuf received = Unpooled.buffer();
    private final byte[] chunk = new byte[64 * 1024];

    private RespClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    static RespClient connect(ServerAddress server) throws IOException {
        return new RespClient(server.connect());
    }

    /** Sends one command (strings as UTF-8) and returns its reply, errors included. */
    RespReply call(String... args) throws IOException {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        ByteBuf request = Unpooled.buffer();
        RespWriter.writeCommand(request, argv);
        send(request);
        return read();
    }

    /** The reply's text: a status, a bulk, an integer. @throws IOException for an error reply */
    String callForText(String... args) throws IOException {
        RespReply reply = call(args);
        if (reply instanceof RespReply.SimpleString status) {
            return status.value();
        } else if (reply instanceof RespReply.BulkString bulk) {
            return bulk.utf8();
        } else if (reply instanceof RespReply.Integer integer) {
            return String.valueOf(integer.value());
        }
        throw new IOException(String.join(" ", args) + ": " + reply);
    }

    /**
     * Sends {@code count} requests, {@code request(i)} for i in {@code [0, count)}, {@code window} at a
     * time, and waits for every reply. @throws IOException at the first error reply, naming it
     */
    void pipeline(long count, LongFunction<byte[][]> request, int window) throws IOException {
        for (long first = 0; first < count; first += window) {
            int batch = (int) Math.min(window, count - first);
            ByteBuf requests = Unpooled.buffer();
            for (int i = 0; i < batch; i++) {
                RespWriter.writeCommand(requests, request.apply(first + i));
            }
            send(requests);
            for (int i = 0; i < batch; i++) {
                if (read() instanceof RespReply.Error error) {
                    throw new IOException("request " + (first + i) + ": -" + error.message());
                }
            }
        }
    }

    /** Sends the request's readable bytes, a whole command or any part of one. */
    void send(ByteBuf request) throws IOException {
        request.readBytes(out, request.readableBytes());
        out.flush();
    }

    /** The next reply, errors included. @throws IOException when the server closes the connection first */
    RespReply read() throws IOException {
        while (true) {
            RespReply reply = RespReplyParser.parse(received);
            if (reply != null) {
                received.discardSomeReadBytes();
                return reply;
            }
            int n = in.read(chunk);
            if (n < 0) {
                throw new IOException("the server closed the connection");
            }
            received.writeBytes(chunk, 0, n);
        }
    }

    /** Closes with a reset (SO_LINGER 0) instead of a FIN: what is unsent or unread is dropped. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
