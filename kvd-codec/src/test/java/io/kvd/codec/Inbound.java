package io.kvd.codec;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds request bytes through a {@link RespDecoder} in an {@link EmbeddedChannel}. Decoded commands
 * come back as lists of Latin-1 strings (one char per byte, so exact and readable in failures);
 * protocol errors as they are.
 */
final class Inbound {
    static final long MAX_BULK = 512L * 1024 * 1024;

    private Inbound() {
    }

    static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    static List<String> args(String... args) {
        return List.of(args);
    }

    /** Decodes {@code input} delivered in pieces that end at each of {@code cuts} and at the end. */
    static List<Object> decodeCutAt(byte[] input, int... cuts) {
        List<byte[]> pieces = new ArrayList<>();
        int start = 0;
        for (int cut : cuts) {
            pieces.add(Arrays.copyOfRange(input, start, cut));
            start = cut;
        }
        pieces.add(Arrays.copyOfRange(input, start, input.length));
        return decode(new RespDecoder(() -> MAX_BULK), pieces);
    }

    static List<Object> decode(String... pieces) {
        List<byte[]> bytes = new ArrayList<>();
        for (String piece : pieces) {
            bytes.add(bytes(piece));
        }
        return decode(new RespDecoder(() -> MAX_BULK), bytes);
    }

    static List<Object> decode(RespDecoder decoder, List<byte[]> pieces) {
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        try {
            for (byte[] piece : pieces) {
                channel.writeInbound(Unpooled.wrappedBuffer(piece));
            }
            return readAll(channel);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    static List<Object> readAll(EmbeddedChannel channel) {
        List<Object> decoded = new ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ) {
            decoded.add(message instanceof byte[][] command ? strings(command) : message);
        }
        return decoded;
    }

    static List<String> strings(byte[][] command) {
        List<String> strings = new ArrayList<>(command.length);
        for (byte[] arg : command) {
            strings.add(new String(arg, StandardCharsets.ISO_8859_1));
        }
        return strings;
    }

    static RespProtocolError protocolError(String text) {
        return new RespProtocolError("ERR Protocol error: " + text);
    }
}
