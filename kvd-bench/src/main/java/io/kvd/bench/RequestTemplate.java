package io.kvd.bench;

import io.kvd.codec.KeySlot;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One request encoded once; sending it copies the bytes and rewrites the key's digits in place.
 *
 * <p>Keys are the prefix followed by the random number as {@value #KEY_DIGITS} zero-padded digits,
 * as redis-benchmark expands {@code __rand_int__} under {@code -r}: both tools then touch the same keys
 * with requests of the same size, and every request of a template has the same length.
 *
 * <p>A stamped value ({@link #keyedWithStampedValue}) ends with the key number's last digits too, so
 * that a GET of any key can be checked against what a SET of it wrote ({@link #stampedValue}).
 *
 * <p>A template belongs to one client, on one event loop: {@link #slot} reuses a buffer.
 */
final class RequestTemplate {
    static final int KEY_DIGITS = 12;
    /** Key numbers must fit in {@value #KEY_DIGITS} digits. */
    static final long MAX_KEY_RANGE = 1_000_000_000_000L;
    private static final int NONE = -1;

    private final byte[] encoded;
    /** Where the last key digit sits in {@link #encoded}, or {@value #NONE}. */
    private final int lastKeyDigit;
    /** Where the last value digit sits, or {@value #NONE} when the value is not stamped. */
    private final int lastValueDigit;
    private final int valueDigits;
    /** The key, its digits rewritten by each {@link #slot} call; null without a key. */
    private final byte[] key;

    private RequestTemplate(byte[] encoded, int lastKeyDigit, int lastValueDigit, int valueDigits, byte[] key) {
        this.encoded = encoded;
        this.lastKeyDigit = lastKeyDigit;
        this.lastValueDigit = lastValueDigit;
        this.valueDigits = valueDigits;
        this.key = key;
    }

    /** A request without a key, such as PING. */
    static RequestTemplate keyless(String command) {
        return new RequestTemplate(encode(ascii(command)), NONE, NONE, 0, null);
    }

    /** {@code command keyPrefix<digits> [args...]}: the key is the first argument, as for SET, GET and INCR. */
    static RequestTemplate keyed(String command, String keyPrefix, byte[]... moreArgs) {
        byte[] encoded = encode(argv(command, keyPrefix, moreArgs));
        return new RequestTemplate(encoded, lastKeyDigit(encoded, keyPrefix), NONE, 0, zeroKey(keyPrefix));
    }

    /** {@code command keyPrefix<digits> value}, the value being {@link #stampedValue} of the key number. */
    static RequestTemplate keyedWithStampedValue(String command, String keyPrefix, int valueSize) {
        byte[] encoded = encode(argv(command, keyPrefix, stampedValue(valueSize, 0)));
        // The value is the last argument: its last byte precedes the final CRLF.
        return new RequestTemplate(encoded, lastKeyDigit(encoded, keyPrefix), encoded.length - 3,
                Math.min(valueSize, KEY_DIGITS), zeroKey(keyPrefix));
    }

    /** {@code size} bytes of 'x' whose last (up to {@value #KEY_DIGITS}) bytes are the key number's digits. */
    static byte[] stampedValue(int size, long keyNumber) {
        byte[] value = new byte[size];
        Arrays.fill(value, (byte) 'x');
        long rest = keyNumber;
        for (int i = size - 1; i >= Math.max(0, size - KEY_DIGITS); i--) {
            value[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return value;
    }

    int length() {
        return encoded.length;
    }

    /** Appends the request for key number {@code keyNumber} (ignored without a key). */
    void writeTo(ByteBuf out, long keyNumber) {
        int start = out.writerIndex();
        out.writeBytes(encoded);
        if (lastKeyDigit == NONE) {
            return;
        }
        // The template holds zeros, so only the significant digits need writing.
        long rest = keyNumber;
        for (int i = start + lastKeyDigit; rest != 0; i--) {
            out.setByte(i, (int) ('0' + rest % 10));
            rest /= 10;
        }
        rest = keyNumber;
        for (int i = 0; i < valueDigits; i++) {
            out.setByte(start + lastValueDigit - i, (int) ('0' + rest % 10));
            rest /= 10;
        }
    }

    /**
     * The Redis Cluster slot of the key for {@code keyNumber}. A keyless request has no slot of its own;
     * it gets the number modulo the slot count, so that such requests spread over the nodes as keys do.
     */
    int slot(long keyNumber) {
        if (key == null) {
            return (int) (keyNumber % KeySlot.SLOTS);
        }
        long rest = keyNumber;
        for (int i = key.length - 1; i >= key.length - KEY_DIGITS; i--) {
            key[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return KeySlot.of(key);
    }

    private static byte[] zeroKey(String keyPrefix) {
        return ascii(keyPrefix + "0".repeat(KEY_DIGITS));
    }

    private static byte[][] argv(String command, String keyPrefix, byte[]... moreArgs) {
        byte[][] args = new byte[2 + moreArgs.length][];
        args[0] = ascii(command);
        args[1] = zeroKey(keyPrefix);
        System.arraycopy(moreArgs, 0, args, 2, moreArgs.length);
        return args;
    }

    private static int lastKeyDigit(byte[] encoded, String keyPrefix) {
        byte[] key = zeroKey(keyPrefix);
        // The key is found rather than computed so that the template is exactly what writeCommand
        // produces; the command name's bulk precedes it, and that never holds the key's prefix.
        int keyOffset = ByteBufUtil.indexOf(Unpooled.wrappedBuffer(key), Unpooled.wrappedBuffer(encoded));
        return keyOffset + key.length - 1;
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
