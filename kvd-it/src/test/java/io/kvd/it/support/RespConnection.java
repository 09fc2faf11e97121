package io.kvd.it.support;

import io.kvd.codec.RespReplyParser;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw client socket that sends bytes and reads replies as the exact bytes the server sent. Only
 * the reply's end is found by parsing; nothing is decoded, so two servers' replies compare byte for byte.
 */
public final class RespConnection implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** Bytes received and not yet returned as a reply. */
    private final ByteBuf received = Unpooled.buffer();

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    public static RespConnection open(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            return new RespConnection(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends the arguments as a RESP array of bulk strings, as clients do. */
    public void send(byte[]... args) throws IOException {
        ByteBuf request = Unpooled.buffer();
        RespWriter.writeCommand(request, args);
        sendRaw(request.array(), request.arrayOffset(), request.readableBytes());
    }

    /** Sends bytes as they are, e.g. an inline command. */
    public void sendRaw(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        sendRaw(bytes, 0, bytes.length);
    }

    /** The next complete reply, as the bytes the server sent. */
    public byte[] readReply() throws IOException {
        byte[] chunk = new byte[16 * 1024];
        while (true) {
            int start = received.readerIndex();
            if (RespReplyParser.parse(received) != null) {
                byte[] reply = new byte[received.readerIndex() - start];
                received.getBytes(start, reply);
                received.discardReadBytes();
                return reply;
            }
            int n = in.read(chunk);
            if (n < 0) {
                throw new EOFException("connection closed; received " + received.readableBytes()
                        + " bytes of an incomplete reply: " + Escape.bytes(ByteBufUtil.getBytes(received)));
            }
            received.writeBytes(chunk, 0, n);
        }
    }

    /**
     * Whether the server has closed the connection once every reply was read: true at end of stream,
     * false if more bytes arrive (one is consumed); waits up to the read timeout.
     */
    public boolean isClosedByServer() throws IOException {
        return received.readableBytes() == 0 && in.read() < 0;
    }

    /** Sends a command of UTF-8 arguments and returns its reply as text. */
    public String call(String... args) throws IOException {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        send(argv);
        return new String(readReply(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        received.release();
        socket.close();
    }

    private void sendRaw(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        out.flush();
    }
}
