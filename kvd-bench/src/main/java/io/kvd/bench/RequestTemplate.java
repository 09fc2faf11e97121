package io.kvd.bench;

import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * One request encoded once; sending it copies the bytes and rewrites the key's digits in place.
 *
 * <p>Keys are the prefix followed by the random number as {@value #KEY_DIGITS} zero-padded digits,
 * as redis-benchmark expands {@code __rand_int__} under {@code -r}: both tools then touch the same keys
 * with requests of the same size, and every request of a template has the same length.
 */
final class RequestTemplate {
    static final int KEY_DIGITS = 12;
    /** Key numbers must fit in {@value #KEY_DIGITS} digits. */
    static final long MAX_KEY_RANGE = 1_000_000_000_000L;
    private static final int NO_KEY = -1;

    private final byte[] encoded;
    /** Where the last key digit sits in {@link #encoded}, or {@value #NO_KEY}. */
    private final int lastDigitOffset;

    private RequestTemplate(byte[] encoded, int lastDigitOffset) {
        this.encoded = encoded;
        this.lastDigitOffset = lastDigitOffset;
    }

    /** A request without a key, such as PING. */
    static RequestTemplate keyless(String command) {
        return new RequestTemplate(encode(ascii(command)), NO_KEY);
    }

    /** {@code command keyPrefix<digits> [args...]}: the key is the first argument, as for SET, GET and INCR. */
    static RequestTemplate keyed(String command, String keyPrefix, byte[]... moreArgs) {
        byte[] key = ascii(keyPrefix + "0".repeat(KEY_DIGITS));
        byte[][] args = new byte[2 + moreArgs.length][];
        args[0] = ascii(command);
        args[1] = key;
        System.arraycopy(moreArgs, 0, args, 2, moreArgs.length);
        byte[] encoded = encode(args);
        // The key is found rather than computed so that the template is exactly what writeCommand
        // produces; the command name's bulk precedes it, and that never holds the key's prefix.
        int keyOffset = ByteBufUtil.indexOf(Unpooled.wrappedBuffer(key), Unpooled.wrappedBuffer(encoded));
        return new RequestTemplate(encoded, keyOffset + key.length - 1);
    }

    int length() {
        return encoded.length;
    }

    /** Appends the request for key number {@code keyNumber} (ignored without a key). */
    void writeTo(ByteBuf out, long keyNumber) {
        int start = out.writerIndex();
        out.writeBytes(encoded);
        if (lastDigitOffset == NO_KEY) {
            return;
        }
        long rest = keyNumber;
        for (int i = start + lastDigitOffset; rest != 0; i--) {
            out.setByte(i, (int) ('0' + rest % 10));
            rest /= 10;
        }
    }

    private static byte[] encode(byte[]... args) {
        ByteBuf out = Unpooled.buffer();
        RespWriter.writeCommand(out, args);
        return ByteBufUtil.getBytes(out);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
