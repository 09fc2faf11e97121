package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import io.kvd.server.propagate.LogRecords;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.rdb.RdbValue;
import io.kvd.server.rdb.RdbWriter;
import io.kvd.server.rdb.StoredValues;
import io.kvd.server.store.Keyspace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;

/**
 * DUMP and RESTORE, as Redis 7.0's cluster.c: the payload is the value as RDB writes it, the RDB
 * version in two bytes and the CRC-64 of both ({@link RdbWriter#dumpPayload}), so payloads move
 * between kvd and redis-server in both directions.
 */
final class DumpCommands {
    private static final byte[] ABSTTL = "ABSTTL".getBytes(StandardCharsets.US_ASCII);

    private DumpCommands() {
    }

    /** DUMP key: the payload, or a null bulk for a missing key. */
    static void dump(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        if (!keyspace.exists(argv[1])) {
            client.reply().nullBulk();
            return;
        }
        boolean compression = "yes".equals(client.server().config().get(Config.RDBCOMPRESSION));
        client.reply().bulk(RdbWriter.dumpPayload(StoredValues.read(keyspace, argv[1]), keyspace.limits(), compression));
    }

    /**
     * RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]:
     * checked in restoreCommand's order (options, an existing key, the TTL, the footer, the
     * value). IDLETIME or FREQ sets the key's access stamp as the policy reads it (Redis's
     * objectSetLRUOrLFU). A relative TTL is logged as absolute with ABSTTL, as Redis
     * propagates it; a key restored already expired is not created (logged as DEL if REPLACE
     * removed one).
     */
    static void restore(Client client, byte[][] argv) {
        boolean replace = false;
        boolean absttl = false;
        long idleSeconds = -1;
        long frequency = -1;
        for (int i = 4; i < argv.length; i++) {
            boolean more = i + 1 < argv.length;
            if (Args.is(argv[i], "replace")) {
                replace = true;
            } else if (Args.is(argv[i], "absttl")) {
                absttl = true;
            } else if (Args.is(argv[i], "idletime") && more && frequency < 0) {
                idleSeconds = Args.parseLong(argv[++i], Errors.NOT_AN_INTEGER);
                if (idleSeconds < 0) {
                    throw new CommandError("ERR Invalid IDLETIME value, must be >= 0");
                }
            } else if (Args.is(argv[i], "freq") && more && idleSeconds < 0) {
                frequency = Args.parseLong(argv[++i], Errors.NOT_AN_INTEGER);
                if (frequency < 0 || frequency > 255) {
                    throw new CommandError("ERR Invalid FREQ value, must be >= 0 and <= 255");
                }
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        Keyspace keyspace = client.keyspace();
        byte[] key = argv[1];
        if (!replace && keyspace.exists(key)) {
            throw new CommandError("BUSYKEY Target key name already exists.");
        }
        long ttl = Args.parseLong(argv[2], Errors.NOT_AN_INTEGER);
        if (ttl < 0) {
            throw new CommandError("ERR Invalid TTL value, must be >= 0");
        }
        RdbValue value;
        try {
            value = RdbLoader.readPayload(argv[3]);
        } catch (RdbFormatException e) {
            throw new CommandError("ERR Bad data format");
        }
        if (value == null) {
            throw new CommandError("ERR DUMP payload version or checksum are wrong");
        }
        boolean deleted = replace && keyspace.remove(key);
        long deadline = ttl == 0 ? Keyspace.PERSISTENT : absttl ? ttl : ttl + keyspace.now();
        if (ttl != 0 && deadline <= keyspace.now()) {
            if (deleted) {
                client.logAs(LogRecords.del(key));
                client.events().notify(GENERIC, "del", key, client.db());
            }
            client.reply().ok();
            return;
        }
        try {
            StoredValues.store(keyspace, key, value, deadline);
        } catch (RdbFormatException e) {
            throw new CommandError("ERR Bad data format");
        }
        int stamp = keyspace.databases().access().restored(frequency, idleSeconds);
        if (stamp >= 0) {
            keyspace.setAccessStamp(key, stamp);
        }
        if (ttl != 0 && !absttl) {
            byte[][] record = Arrays.copyOf(argv, argv.length + 1);
            record[2] = Long.toString(deadline).getBytes(StandardCharsets.US_ASCII);
            record[argv.length] = ABSTTL;
            client.logAs(record);
        }
        client.events().notify(GENERIC, "restore", key, client.db());
        client.reply().ok();
    }
}
