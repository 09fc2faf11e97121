package io.kvd.server.rdb;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.kvd.server.store.Databases;
import io.kvd.server.store.EncodingLimits;
import io.kvd.server.store.Keyspace;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Untrusted bytes into the RDB reader, as RESTORE payloads and as files: each is read whole or
 * refused with {@link RdbFormatException} (RESTORE's "Bad data format") or, for a payload, a
 * wrong footer; never another exception, and what is read is stored with the keyspace's
 * invariants holding. Most payloads get a correct footer, so the fuzzer explores the value
 * reader rather than the checksum. Replays the corpus in src/test/resources on every build;
 * {@code JAZZER_FUZZ=1 mvn test -pl kvd-codec,kvd-server -Dtest=RdbFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false} fuzzes.
 */
class RdbFuzzTest {
    private static final EncodingLimits LIMITS = new EncodingLimits();
    private static final byte[] KEY = "k".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAGIC = "REDIS0010".getBytes(StandardCharsets.US_ASCII);

    /** A payload read is stored, and its DUMP restores to the same DUMP (Redis's round trip). */
    @FuzzTest(maxDuration = "60s")
    void restorePayloadIsReadWholeOrRefused(FuzzedDataProvider data) {
        boolean correctFooter = data.consumeBoolean();
        byte[] body = data.consumeRemainingAsBytes();
        byte[] payload = correctFooter ? withFooter(body) : body;
        RdbValue value;
        Databases databases = new Databases(1, 1, LIMITS);
        Keyspace keyspace = databases.get(0);
        try {
            value = RdbLoader.readPayload(payload);
            if (value == null) {
                return;
            }
            StoredValues.store(keyspace, KEY, value, Keyspace.PERSISTENT);
        } catch (RdbFormatException refused) {
            return;
        }
        keyspace.checkInvariants();
        byte[] dump = RdbWriter.dumpPayload(StoredValues.read(keyspace, KEY), LIMITS, true);
        Keyspace again = new Databases(1, 1, LIMITS).get(0);
        StoredValues.store(again, KEY, RdbLoader.readPayload(dump), Keyspace.PERSISTENT);
        again.checkInvariants();
        assertThat(RdbWriter.dumpPayload(StoredValues.read(again, KEY), LIMITS, true)).isEqualTo(dump);
    }

    /** A file after the magic: loaded or refused, the checksum checked only at its end. */
    @FuzzTest(maxDuration = "60s")
    void rdbFileIsLoadedOrRefused(FuzzedDataProvider data) {
        byte[] rest = data.consumeRemainingAsBytes();
        byte[] file = new byte[MAGIC.length + rest.length];
        System.arraycopy(MAGIC, 0, file, 0, MAGIC.length);
        System.arraycopy(rest, 0, file, MAGIC.length, rest.length);
        Databases databases = new Databases(16, 1, LIMITS);
        try {
            new RdbLoader(databases, code -> { }, 0).load(new ByteArrayInputStream(file), file.length);
        } catch (RdbFormatException refused) {
            return;
        }
        for (int db = 0; db < databases.count(); db++) {
            databases.get(db).checkInvariants();
        }
    }

    /** The body followed by RESTORE's footer: this RDB version and the CRC-64 of both. */
    private static byte[] withFooter(byte[] body) {
        byte[] payload = new byte[body.length + 10];
        System.arraycopy(body, 0, payload, 0, body.length);
        payload[body.length] = Rdb.VERSION;
        RedisListpack.putLe(payload, body.length + 2, Crc64.of(payload, body.length + 2), 8);
        return payload;
    }
}
