package io.kvd.server.command;

import io.kvd.server.store.Keyspace;

import java.util.Arrays;

import static io.kvd.server.config.KeyspaceEventTypes.STRING;

/**
 * Bitmap commands (Redis's bitops.c) on string values: bit 0 is the most significant bit of the
 * first byte. As in {@link StringCommands}, a stored array is never changed in place.
 */
final class BitmapCommands {
    private static final String BAD_OFFSET = "ERR bit offset is not an integer or out of range";
    private static final String BAD_BIT = "ERR bit is not an integer or out of range";

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
        byte[] old = keyspace.get(argv[1]);
        int index = (int) (offset >>> 3);
        int mask = 0x80 >>> (int) (offset & 7);
        boolean grows = old == null || old.length <= index;
        int oldBit = grows || (old[index] & mask) == 0 ? 0 : 1;
        // As Redis: a string neither created, grown nor changed is not a write, and is not logged.
        if (grows || oldBit != bit) {
            byte[] value = old == null ? new byte[index + 1] : grows ? Arrays.copyOf(old, index + 1) : old;
            value[index] = (byte) (bit == 1 ? value[index] | mask : value[index] & ~mask);
            keyspace.putEdited(argv[1], value);
            client.events().notify(STRING, "setbit", argv[1], client.db());
        }
        client.reply().integer(oldBit);
    }

    /** GETBIT key offset */
    static void getbit(Client client, byte[][] argv) {
        long offset = offset(client, argv[2]);
        byte[] value = client.keyspace().get(argv[1]);
        int index = (int) (offset >>> 3);
        boolean set = value != null && index < value.length && (value[index] & (0x80 >>> (int) (offset & 7))) != 0;
        client.reply().integer(set ? 1 : 0);
    }

    /** Redis's getBitOffsetFromArgument: a bit offset within a string of at most proto-max-bulk-len bytes. */
    private static long offset(Client client, byte[] arg) {
        long offset = Args.parseLong(arg, BAD_OFFSET);
        if (offset < 0 || (offset >>> 3) >= client.server().config().protoMaxBulkLen()) {
            throw new CommandError(BAD_OFFSET);
        }
        return offset;
    }
}
