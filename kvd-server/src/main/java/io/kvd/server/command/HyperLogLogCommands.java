package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.hyperloglog.HyperLogLog;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StringView;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static io.kvd.server.config.KeyspaceEventTypes.STRING;

/**
 * HyperLogLog commands (Redis's hyperloglog.c) on string values in {@link HyperLogLog}'s
 * representation. Reads (PFADD's look for a register to raise too) use the bytes where the
 * keyspace stores them. Redis edits the string in place; so does kvd for a dense HLL, whose size
 * never changes, while a sparse one, which grows, is edited as a copy and stored back, keeping
 * the key's TTL as an in-place edit does.
 */
final class HyperLogLogCommands {
    /** Redis's HLL_TEST_CYCLES: rounds of PFSELFTEST's register test. */
    private static final int TEST_CYCLES = 1000;

    private HyperLogLogCommands() {
    }

    /** PFADD key [element [element ...]] */
    static void pfadd(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        HyperLogLog stored = view(keyspace.read(argv[1]));
        if (stored != null && stored.encoding() == HyperLogLog.DENSE) {
            client.reply().integer(addToDense(client, argv, stored) ? 1 : 0);
            return;
        }
        // Most PFADDs to a well-filled HLL change no register: found so, nothing is copied or written.
        if (stored != null && !changesAny(stored, argv)) {
            client.reply().integer(0);
            return;
        }
        long sparseMaxBytes = keyspace.limits().hllSparseMaxBytes();
        byte[] value = keyspace.get(argv[1]);
        // As Redis: creating the key is an update even with no element.
        boolean updated = value == null;
        HyperLogLog hll = updated ? HyperLogLog.empty() : valid(value);
        for (int j = 2; j < argv.length; j++) {
            int result = hll.add(argv[j], sparseMaxBytes);
            if (result < 0) {
                throw new CommandError(HyperLogLog.CORRUPTED);
            }
            updated |= result == 1;
        }
        if (updated) {
            hll.invalidateCache();
            keyspace.putRaw(argv[1], hll.toValue());
            client.events().notify(STRING, "pfadd", argv[1], client.db());
        }
        client.reply().integer(updated ? 1 : 0);
    }

    /**
     * PFADD's elements into the dense HLL {@code stored} (read where it is stored), hashing each
     * once: a dense HLL keeps its size, so its registers are raised in place, the string opened
     * for editing only at the first register that rises (most PFADDs to a well-filled HLL raise
     * none, and write nothing). True if one rose.
     */
    private static boolean addToDense(Client client, byte[][] argv, HyperLogLog stored) {
        HyperLogLog edited = null;
        for (int j = 2; j < argv.length; j++) {
            long hash = HyperLogLog.hash(argv[j]);
            if (edited == null) {
                if (!stored.wouldChange(hash)) {
                    continue;
                }
                edited = view(client.keyspace().editString(argv[1], HyperLogLog.DENSE_SIZE));
            }
            edited.addHashed(hash, client.keyspace().limits().hllSparseMaxBytes());
        }
        if (edited == null) {
            return false;
        }
        edited.invalidateCache();
        client.events().notify(STRING, "pfadd", argv[1], client.db());
        return true;
    }

    /** PFCOUNT key [key ...] */
    static void pfcount(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        if (argv.length > 2) {
            // The cardinality of the union, merged into registers of one byte each and never stored.
            byte[] max = new byte[HyperLogLog.REGISTERS];
            for (int j = 1; j < argv.length; j++) {
                mergeInto(keyspace, argv[j], max);
            }
            client.reply().integer(HyperLogLog.count(max));
            return;
        }
        HyperLogLog stored = view(keyspace.read(argv[1]));
        if (stored == null || stored.isCacheValid()) {
            client.reply().integer(stored == null ? 0 : stored.cachedCardinality());
            return;
        }
        HyperLogLog hll = valid(keyspace.get(argv[1]));
        long cardinality = hll.count();
        if (cardinality < 0) {
            throw new CommandError(HyperLogLog.CORRUPTED);
        }
        // As Redis 7.0: the cache written back changes the string, so this read is propagated as itself.
        hll.cacheCardinality(cardinality);
        keyspace.putRaw(argv[1], hll.toValue());
        client.logAs(argv);
        client.reply().integer(cardinality);
    }

    /** PFMERGE destkey [sourcekey [sourcekey ...]] */
    static void pfmerge(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        byte[] max = new byte[HyperLogLog.REGISTERS];
        boolean dense = false;
        // The destination is merged too, as the first source.
        for (int j = 1; j < argv.length; j++) {
            // As Redis: one dense input makes the result dense at once, sparing the conversion.
            dense |= mergeInto(keyspace, argv[j], max) == HyperLogLog.DENSE;
        }
        byte[] value = keyspace.get(argv[1]);
        HyperLogLog destination = value == null ? HyperLogLog.empty() : HyperLogLog.of(value);
        if (dense && !destination.toDense()) {
            throw new CommandError(HyperLogLog.CORRUPTED);
        }
        long sparseMaxBytes = keyspace.limits().hllSparseMaxBytes();
        for (int j = 0; j < HyperLogLog.REGISTERS; j++) {
            if (max[j] != 0) {
                destination.set(j, max[j], sparseMaxBytes);
            }
        }
        destination.invalidateCache();
        keyspace.putRaw(argv[1], destination.toValue());
        // As Redis: PFMERGE announces itself as pfadd.
        client.events().notify(STRING, "pfadd", argv[1], client.db());
        client.reply().simpleString("OK");
    }

    /** PFDEBUG GETREG|DECODE|ENCODING|TODENSE key */
    static void pfdebug(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        byte[] value = keyspace.get(argv[2]);
        if (value == null) {
            throw new CommandError("ERR The specified key does not exist");
        }
        HyperLogLog hll = valid(value);
        if (Args.is(argv[1], "getreg")) {
            // Redis answers from the dense form, and keeps (and propagates) the conversion.
            boolean converted = toDense(hll);
            if (converted) {
                keyspace.putRaw(argv[2], hll.toValue());
            }
            byte[] dense = hll.toValue();
            Reply reply = client.reply();
            reply.arrayHeader(HyperLogLog.REGISTERS);
            for (int j = 0; j < HyperLogLog.REGISTERS; j++) {
                reply.integer(HyperLogLog.denseGet(dense, HyperLogLog.HEADER_SIZE, j));
            }
        } else if (Args.is(argv[1], "decode")) {
            if (hll.encoding() != HyperLogLog.SPARSE) {
                throw new CommandError("ERR HLL encoding is not sparse");
            }
            client.reply().bulk(hll.decode());
        } else if (Args.is(argv[1], "encoding")) {
            client.reply().simpleString(hll.encoding() == HyperLogLog.DENSE ? "dense" : "sparse");
        } else if (Args.is(argv[1], "todense")) {
            boolean converted = toDense(hll);
            if (converted) {
                keyspace.putRaw(argv[2], hll.toValue());
            }
            client.reply().integer(converted ? 1 : 0);
        } else {
            throw new CommandError("ERR Unknown PFDEBUG subcommand '" + new String(argv[1], StandardCharsets.UTF_8) + "'");
        }
    }

    /** True if a sparse HLL was made dense, false if it already was; the corruption error if it cannot be. */
    private static boolean toDense(HyperLogLog hll) {
        if (hll.encoding() == HyperLogLog.DENSE) {
            return false;
        }
        if (!hll.toDense()) {
            throw new CommandError(HyperLogLog.CORRUPTED);
        }
        return true;
    }

    /**
     * PFSELFTEST: Redis's self test. Every register holds what was written to it without
     * touching its neighbours; then up to 10 M elements go into a dense and a sparse HLL, whose
     * estimates must agree and stay within 6 standard errors at each power of ten.
     */
    static void pfselftest(Client client, byte[][] argv) {
        SplittableRandom random = new SplittableRandom();
        byte[] registers = new byte[HyperLogLog.DENSE_SIZE];
        byte[] expected = new byte[HyperLogLog.REGISTERS];
        for (int cycle = 0; cycle < TEST_CYCLES; cycle++) {
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                expected[i] = (byte) random.nextInt(64);
                HyperLogLog.denseWrite(registers, HyperLogLog.HEADER_SIZE, i, expected[i]);
            }
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                int found = HyperLogLog.denseGet(registers, HyperLogLog.HEADER_SIZE, i);
                if (found != expected[i]) {
                    throw new CommandError("TESTFAILED Register " + i + " should be " + expected[i] + " but is " + found);
                }
            }
        }
        HyperLogLog dense = HyperLogLog.emptyDense();
        HyperLogLog sparse = HyperLogLog.empty();
        long sparseMaxBytes = client.keyspace().limits().hllSparseMaxBytes();
        double relativeError = 1.04 / Math.sqrt(HyperLogLog.REGISTERS);
        long checkpoint = 1;
        long seed = random.nextLong();
        byte[] element = new byte[8];
        for (long j = 1; j <= 10_000_000; j++) {
            HyperLogLog.putLongLittleEndian(element, j ^ seed);
            dense.add(element, sparseMaxBytes);
            sparse.add(element, sparseMaxBytes);
            if (j != checkpoint) {
                continue;
            }
            if (j < sparseMaxBytes / 2 && sparse.encoding() != HyperLogLog.SPARSE) {
                throw new CommandError("TESTFAILED sparse encoding not used");
            }
            long estimate = dense.count();
            if (estimate != sparse.count()) {
                throw new CommandError("TESTFAILED dense/sparse disagree");
            }
            // As Redis: at 10 a collision is likely enough to allow an error of 1.
            long maxError = j == 10 ? 1 : (long) Math.ceil(relativeError * 6 * checkpoint);
            long error = Math.abs(checkpoint - estimate);
            if (error > maxError) {
                throw new CommandError("TESTFAILED Too big error. card:" + checkpoint + " abserr:" + error);
            }
            checkpoint *= 10;
        }
        client.reply().simpleString("OK");
    }

    /**
     * Redis's hllMerge of the HLL under {@code key}, read in place, into {@code max}: its
     * encoding, or -1 for a missing key; Redis's errors for a value that is not an HLL or is corrupted.
     */
    private static int mergeInto(Keyspace keyspace, byte[] key, byte[] max) {
        HyperLogLog source = view(keyspace.read(key));
        if (source == null) {
            return -1;
        }
        if (!source.mergeInto(max)) {
            throw new CommandError(HyperLogLog.CORRUPTED);
        }
        return source.encoding();
    }

    /** True if adding one of the elements would change the HLL (or find it corrupted). */
    private static boolean changesAny(HyperLogLog hll, byte[][] argv) {
        for (int j = 2; j < argv.length; j++) {
            if (hll.wouldChange(HyperLogLog.hash(argv[j]))) {
                return true;
            }
        }
        return false;
    }

    /** The HLL of a string where it is stored (valid until the keyspace next changes), or null for none. */
    private static HyperLogLog view(StringView string) {
        return string == null ? null : valid(HyperLogLog.of(string.bytes(), string.offset(), string.length()));
    }

    /** The string as an HLL to work on. */
    private static HyperLogLog valid(byte[] value) {
        return valid(HyperLogLog.of(value));
    }

    /** The HLL, or Redis's WRONGTYPE for a string that is not one (null). */
    private static HyperLogLog valid(HyperLogLog hll) {
        if (hll == null) {
            throw new CommandError(HyperLogLog.NOT_HLL);
        }
        return hll;
    }
}
