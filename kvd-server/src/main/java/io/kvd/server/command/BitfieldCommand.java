package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StringView;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.kvd.server.config.KeyspaceEventTypes.STRING;

/**
 * BITFIELD and BITFIELD_RO (Redis's bitfieldGeneric in bitops.c): signed and unsigned integers of
 * 1 to 64 bits (unsigned up to 63) at any bit offset of a string, bit 0 being the most significant
 * bit of the first byte, as SETBIT counts. Every operation is parsed before any runs, so a bad
 * argument anywhere changes nothing; then the string is grown once to the farthest bit written and
 * edited in place ({@link Keyspace#editString}).
 */
final class BitfieldCommand {
    private static final String BAD_TYPE =
            "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";

    private enum Kind { GET, SET, INCRBY }

    /** OVERFLOW's modes, applying to the SETs and INCRBYs after it. */
    private enum Overflow { WRAP, SAT, FAIL }

    /** One GET, SET or INCRBY; {@code value} is SET's value or INCRBY's increment. */
    private record Operation(Kind kind, boolean signed, int bits, long offset, long value, Overflow overflow) {
    }

    private BitfieldCommand() {
    }

    /** BITFIELD key [GET encoding offset | [OVERFLOW WRAP|SAT|FAIL] SET encoding offset value | INCRBY encoding offset increment ...] */
    static void bitfield(Client client, byte[][] argv) {
        run(client, argv, false);
    }

    /** BITFIELD_RO key [GET encoding offset ...] */
    static void bitfieldReadOnly(Client client, byte[][] argv) {
        run(client, argv, true);
    }

    private static void run(Client client, byte[][] argv, boolean readOnly) {
        List<Operation> operations = parse(client, argv);
        long farthestWrite = -1;
        for (Operation operation : operations) {
            if (operation.kind != Kind.GET) {
                farthestWrite = Math.max(farthestWrite, operation.offset + operation.bits - 1);
            }
        }
        Keyspace keyspace = client.keyspace();
        StringView value;
        if (farthestWrite < 0) {
            value = keyspace.read(argv[1]);
        } else if (readOnly) {
            throw new CommandError("ERR BITFIELD_RO only supports the GET subcommand");
        } else {
            long length = (farthestWrite >>> 3) + 1;
            // Only with proto-max-bulk-len near its 2 GB maximum: a field there ends past what an array holds.
            if (length > Integer.MAX_VALUE - 8) {
                throw new CommandError("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
            }
            // As Redis's lookupStringForBitCommand: created or grown even if every write then fails.
            value = keyspace.editString(argv[1], (int) length);
        }
        Reply reply = client.reply();
        reply.arrayHeader(operations.size());
        for (Operation operation : operations) {
            if (operation.kind == Kind.GET) {
                reply.integer(read(value, operation));
                continue;
            }
            long old = read(value, operation);
            long base = operation.kind == Kind.SET ? operation.value : old;
            long increment = operation.kind == Kind.SET ? 0 : operation.value;
            Long stored = operation.signed ? signedResult(base, increment, operation.bits, operation.overflow)
                    : unsignedResult(base, increment, operation.bits, operation.overflow);
            if (stored == null) {
                reply.nullBulk();
            } else {
                write(value, operation.offset, operation.bits, stored);
                reply.integer(operation.kind == Kind.SET ? old : stored);
            }
        }
        // As Redis: any SET or INCRBY, even one refused by OVERFLOW FAIL, makes the command a write.
        if (farthestWrite >= 0) {
            client.events().notify(STRING, "setbit", argv[1], client.db());
        }
    }

    private static List<Operation> parse(Client client, byte[][] argv) {
        List<Operation> operations = new ArrayList<>();
        Overflow overflow = Overflow.WRAP;
        for (int i = 2; i < argv.length; i++) {
            int remaining = argv.length - i - 1;
            Kind kind;
            if (Args.is(argv[i], "get") && remaining >= 2) {
                kind = Kind.GET;
            } else if (Args.is(argv[i], "set") && remaining >= 3) {
                kind = Kind.SET;
            } else if (Args.is(argv[i], "incrby") && remaining >= 3) {
                kind = Kind.INCRBY;
            } else if (Args.is(argv[i], "overflow") && remaining >= 1) {
                overflow = overflow(argv[++i]);
                continue;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
            byte[] type = argv[i + 1];
            boolean signed = type.length > 0 && type[0] == 'i';
            int bits = bits(type);
            long offset = BitmapCommands.offset(client, argv[i + 2], bits);
            long value = kind == Kind.GET ? 0 : Args.parseLong(argv[i + 3]);
            operations.add(new Operation(kind, signed, bits, offset, value, overflow));
            i += kind == Kind.GET ? 2 : 3;
        }
        return operations;
    }

    private static Overflow overflow(byte[] name) {
        if (Args.is(name, "wrap")) {
            return Overflow.WRAP;
        }
        if (Args.is(name, "sat")) {
            return Overflow.SAT;
        }
        if (Args.is(name, "fail")) {
            return Overflow.FAIL;
        }
        throw new CommandError("ERR Invalid OVERFLOW type specified");
    }

    /** Redis's getBitfieldTypeFromArgument: {@code i1} to {@code i64} or {@code u1} to {@code u63}, lower case only. */
    private static int bits(byte[] type) {
        if (type.length < 2 || (type[0] != 'i' && type[0] != 'u')) {
            throw new CommandError(BAD_TYPE);
        }
        Long bits = Args.toLong(Arrays.copyOfRange(type, 1, type.length));
        if (bits == null || bits < 1 || bits > (type[0] == 'i' ? 64 : 63)) {
            throw new CommandError(BAD_TYPE);
        }
        return bits.intValue();
    }

    /** The field's value, bits past the string's end (or of a missing string) read as zeros. */
    private static long read(StringView value, Operation operation) {
        long field = 0;
        for (int i = 0; i < operation.bits; i++) {
            long bit = operation.offset + i;
            int index = (int) (bit >>> 3);
            int set = value != null && index < value.length()
                    ? value.bytes()[value.offset() + index] >>> (7 - (int) (bit & 7)) & 1 : 0;
            field = field << 1 | set;
        }
        // Sign-extended from the field's top bit.
        return operation.signed && operation.bits < 64 ? field << (64 - operation.bits) >> (64 - operation.bits) : field;
    }

    /** Writes the low {@code bits} bits of {@code field}; the string reaches that far. */
    private static void write(StringView value, long offset, int bits, long field) {
        byte[] bytes = value.bytes();
        for (int i = 0; i < bits; i++) {
            long bit = offset + i;
            int at = value.offset() + (int) (bit >>> 3);
            int mask = 0x80 >>> (int) (bit & 7);
            bytes[at] = (byte) ((field >>> (bits - 1 - i) & 1) != 0 ? bytes[at] | mask : bytes[at] & ~mask);
        }
    }

    /**
     * Redis's checkUnsignedBitfieldOverflow applied: {@code value + increment} if it fits in
     * {@code bits} unsigned bits, else wrapped or saturated, or null when FAIL refuses it. A SET
     * passes its value with no increment; a negative one is past the top, as in C's unsigned compare.
     */
    private static Long unsignedResult(long value, long increment, int bits, Overflow overflow) {
        long max = (1L << bits) - 1;
        boolean over = Long.compareUnsigned(value, max) > 0 || (increment > 0 && increment > max - value);
        boolean under = !over && increment < 0 && increment < -value;
        if (!over && !under) {
            return value + increment;
        }
        return switch (overflow) {
            case WRAP -> (value + increment) & max;
            case SAT -> over ? max : 0;
            case FAIL -> null;
        };
    }

    /**
     * Redis's checkSignedBitfieldOverflow applied, its tests kept as they are (the limits minus the
     * value wrap as C's do): {@code value + increment} if it fits in {@code bits} signed bits, else
     * wrapped or saturated, or null when FAIL refuses it.
     */
    private static Long signedResult(long value, long increment, int bits, Overflow overflow) {
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        long maxIncrement = max - value;
        long minIncrement = min - value;
        boolean over = value > max || (bits != 64 && increment > maxIncrement)
                || (value >= 0 && increment > 0 && increment > maxIncrement);
        boolean under = !over && (value < min || (bits != 64 && increment < minIncrement)
                || (value < 0 && increment < 0 && increment < minIncrement));
        if (!over && !under) {
            return value + increment;
        }
        return switch (overflow) {
            // The sum cut to the field and sign-extended from its top bit.
            case WRAP -> bits == 64 ? value + increment : (value + increment) << (64 - bits) >> (64 - bits);
            case SAT -> over ? max : min;
            case FAIL -> null;
        };
    }
}
