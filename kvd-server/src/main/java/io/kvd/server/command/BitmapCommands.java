package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StringView;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongBinaryOperator;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.STRING;

/**
 * Bitmap commands (Redis's bitops.c) on string values: bit 0 is the most significant bit of the
 * first byte. SETBIT edits the stored string in place and BITCOUNT and BITPOS read it where it is
 * ({@link Keyspace#editString}, {@link Keyspace#read}), so neither copies a large bitmap.
 */
final class BitmapCommands {
    private static final byte[] EMPTY = {};
    private static final String BAD_OFFSET = "ERR bit offset is not an integer or out of range";
    private static final String BAD_BIT = "ERR bit is not an integer or out of range";
    /** Eight bytes of a string as one long, its first byte the most significant, as bit positions run. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BitmapCommands() {
    }

    /** SETBIT key offset value */
    static void setbit(Client client, byte[][] argv) {
        long offset = offset(client, argv[2]);
        long bit = Args.parseLong(argv[3], BAD_BIT);
        if ((bit & ~1) != 0) {
            throw new CommandError(BAD_BIT);
        }
        Keyspace keyspace = client.keyspace();
        StringView old = keyspace.read(argv[1]);
        int index = (int) (offset >>> 3);
        int mask = 0x80 >>> (int) (offset & 7);
        boolean grows = old == null || old.length() <= index;
        int oldBit = grows || (old.bytes()[old.offset() + index] & mask) == 0 ? 0 : 1;
        // As Redis: a string neither created, grown nor changed is not a write, and is not logged.
        if (grows || oldBit != bit) {
            StringView value = keyspace.editString(argv[1], index + 1);
            byte[] bytes = value.bytes();
            int at = value.offset() + index;
            bytes[at] = (byte) (bit == 1 ? bytes[at] | mask : bytes[at] & ~mask);
            client.events().notify(STRING, "setbit", argv[1], client.db());
        }
        client.reply().integer(oldBit);
    }

    /** GETBIT key offset */
    static void getbit(Client client, byte[][] argv) {
        long offset = offset(client, argv[2]);
        StringView value = client.keyspace().read(argv[1]);
        int index = (int) (offset >>> 3);
        boolean set = value != null && index < value.length()
                && (value.bytes()[value.offset() + index] & (0x80 >>> (int) (offset & 7))) != 0;
        client.reply().integer(set ? 1 : 0);
    }

    /** BITCOUNT key [start end [BYTE|BIT]] */
    static void bitcount(Client client, byte[][] argv) {
        StringView value = client.keyspace().read(argv[1]);
        // As Redis 7.0: a missing key answers 0 before its arguments are read.
        if (value == null) {
            client.reply().integer(0);
            return;
        }
        if (argv.length == 2) {
            client.reply().integer(count(value, 0, value.length() * 8L - 1));
            return;
        }
        if (argv.length != 4 && argv.length != 5) {
            throw new CommandError(Errors.SYNTAX);
        }
        long start = Args.parseLong(argv[2]);
        long end = Args.parseLong(argv[3]);
        // Both negative and reversed is empty, before the unit is read.
        if (start < 0 && end < 0 && start > end) {
            client.reply().integer(0);
            return;
        }
        BitRange range = BitRange.of(value.length(), start, end, argv.length == 5 && isBitUnit(argv[4]));
        client.reply().integer(range.isEmpty() ? 0 : count(value, range.from, range.to));
    }

    /** The set bits of {@code value} from bit {@code from} to bit {@code to}, both included. */
    private static long count(StringView view, long from, long to) {
        if (from > to) {
            return 0;
        }
        byte[] value = view.bytes();
        int first = view.offset() + (int) (from >>> 3);
        int last = view.offset() + (int) (to >>> 3);
        int head = 0xFF >>> (int) (from & 7);
        int tail = (0xFF << (int) (7 - (to & 7))) & 0xFF;
        if (first == last) {
            return Integer.bitCount(value[first] & head & tail);
        }
        long count = Integer.bitCount(value[first] & head) + Integer.bitCount(value[last] & tail);
        int i = first + 1;
        for (; i + 8 <= last; i += 8) {
            count += Long.bitCount((long) WORDS.get(value, i));
        }
        for (; i < last; i++) {
            count += Integer.bitCount(value[i] & 0xFF);
        }
        return count;
    }

    /** BITPOS key bit [start [end [BYTE|BIT]]] */
    static void bitpos(Client client, byte[][] argv) {
        long bit = Args.parseLong(argv[2]);
        if (bit != 0 && bit != 1) {
            throw new CommandError("ERR The bit argument must be 1 or 0.");
        }
        StringView value = client.keyspace().read(argv[1]);
        // A missing key is an endless run of clear bits.
        if (value == null) {
            client.reply().integer(bit == 1 ? -1 : 0);
            return;
        }
        if (argv.length > 6) {
            throw new CommandError(Errors.SYNTAX);
        }
        long start = argv.length > 3 ? Args.parseLong(argv[3]) : 0;
        boolean bits = argv.length == 6 && isBitUnit(argv[5]);
        boolean endGiven = argv.length > 4;
        // Without an end the range runs to the string's last byte or bit, as an end of -1 does.
        BitRange range = BitRange.of(value.length(), start, endGiven ? Args.parseLong(argv[4]) : -1, bits);
        if (range.isEmpty()) {
            client.reply().integer(-1);
            return;
        }
        long position = position(value, range.from, range.to, (int) bit);
        // As Redis: looking for a clear bit without an end, the string is padded with clear bits.
        if (position == -1 && bit == 0 && !endGiven) {
            position = range.to + 1;
        }
        client.reply().integer(position);
    }

    /** The first bit equal to {@code bit} from bit {@code from} to bit {@code to} (both included), or -1. */
    private static long position(StringView view, long from, long to, int bit) {
        byte[] value = view.bytes();
        int base = view.offset();
        int first = base + (int) (from >>> 3);
        int last = base + (int) (to >>> 3);
        // Looking for a clear bit is looking for a set bit in the complement.
        long flip = bit == 1 ? 0 : -1L;
        int i = first;
        while (i <= last) {
            if (i > first && i + 8 <= last) {
                long word = (long) WORDS.get(value, i) ^ flip;
                if (word != 0) {
                    return (i - base) * 8L + Long.numberOfLeadingZeros(word);
                }
                i += 8;
                continue;
            }
            int b = (value[i] ^ (int) flip) & 0xFF;
            if (i == first) {
                b &= 0xFF >>> (int) (from & 7);
            }
            if (i == last) {
                b &= 0xFF << (int) (7 - (to & 7));
            }
            if (b != 0) {
                return (i - base) * 8L + Integer.numberOfLeadingZeros(b) - 24;
            }
            i++;
        }
        return -1;
    }

    /** BITOP AND|OR|XOR|NOT destkey key [key ...] */
    static void bitop(Client client, byte[][] argv) {
        boolean not = Args.is(argv[1], "not");
        LongBinaryOperator operation = not ? null : operation(argv[1]);
        if (not && argv.length != 4) {
            throw new CommandError("ERR BITOP NOT must be called with a single source key.");
        }
        Keyspace keyspace = client.keyspace();
        byte[][] sources = new byte[argv.length - 3][];
        int length = 0;
        for (int i = 0; i < sources.length; i++) {
            byte[] value = keyspace.get(argv[i + 3]);
            sources[i] = value == null ? EMPTY : value;
            length = Math.max(length, sources[i].length);
        }
        byte[] destination = argv[2];
        if (length > 0) {
            byte[] result = not ? not(sources[0]) : combine(sources, length, operation);
            // As Redis's setKey: the destination is replaced whatever it held, without its TTL.
            keyspace.rebuild(destination, () -> keyspace.putRaw(destination, result));
            client.events().notify(STRING, "set", destination, client.db());
        } else if (keyspace.remove(destination)) {
            client.events().notify(GENERIC, "del", destination, client.db());
        }
        client.reply().integer(length);
    }

    /** AND, OR or XOR, else a syntax error. */
    private static LongBinaryOperator operation(byte[] name) {
        if (Args.is(name, "and")) {
            return (a, b) -> a & b;
        }
        if (Args.is(name, "or")) {
            return (a, b) -> a | b;
        }
        if (Args.is(name, "xor")) {
            return (a, b) -> a ^ b;
        }
        throw new CommandError(Errors.SYNTAX);
    }

    private static byte[] not(byte[] source) {
        byte[] result = new byte[source.length];
        for (int i = 0; i < result.length; i++) {
            result[i] = (byte) ~source[i];
        }
        return result;
    }

    /** The sources combined eight bytes at a time, each padded with zero bytes to {@code length}. */
    private static byte[] combine(byte[][] sources, int length, LongBinaryOperator operation) {
        byte[] result = Arrays.copyOf(sources[0], length);
        for (int s = 1; s < sources.length; s++) {
            byte[] source = sources[s].length == length ? sources[s] : Arrays.copyOf(sources[s], length);
            int i = 0;
            for (; i + 8 <= length; i += 8) {
                WORDS.set(result, i, operation.applyAsLong((long) WORDS.get(result, i), (long) WORDS.get(source, i)));
            }
            for (; i < length; i++) {
                result[i] = (byte) operation.applyAsLong(result[i], source[i]);
            }
        }
        return result;
    }

    /** BYTE (the default) or BIT, else a syntax error. */
    private static boolean isBitUnit(byte[] arg) {
        if (Args.is(arg, "bit")) {
            return true;
        }
        if (Args.is(arg, "byte")) {
            return false;
        }
        throw new CommandError(Errors.SYNTAX);
    }

    /**
     * Redis's range of BITCOUNT and BITPOS as bit positions, both included: negative indexes
     * count from the end, then both are clamped into the string; empty when {@code from > to}.
     */
    private record BitRange(long from, long to) {
        static BitRange of(long length, long start, long end, boolean bits) {
            long total = bits ? length * 8 : length;
            start = Math.max(start < 0 ? total + start : start, 0);
            end = Math.min(Math.max(end < 0 ? total + end : end, 0), total - 1);
            return bits ? new BitRange(start, end) : new BitRange(start * 8, end * 8 + 7);
        }

        boolean isEmpty() {
            return from > to;
        }
    }

    /** Redis's getBitOffsetFromArgument: a bit offset within a string of at most proto-max-bulk-len bytes. */
    private static long offset(Client client, byte[] arg) {
        return offset(client, arg, 0);
    }

    /**
     * As {@link #offset(Client, byte[])}, where BITFIELD's {@code #N} also names the N-th field of
     * {@code fieldBits} bits (the product wraps as Redis's does).
     */
    static long offset(Client client, byte[] arg, int fieldBits) {
        boolean fields = fieldBits > 0 && arg.length > 0 && arg[0] == '#';
        long offset = Args.parseLong(fields ? Arrays.copyOfRange(arg, 1, arg.length) : arg, BAD_OFFSET);
        if (fields) {
            offset *= fieldBits;
        }
        if (offset < 0 || (offset >>> 3) >= client.server().config().protoMaxBulkLen()) {
            throw new CommandError(BAD_OFFSET);
        }
        return offset;
    }
}
