package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/** HyperLogLog commands as Redis 7.0 answers them; each expected reply and string was taken from redis-server 7.0.15. */
class HyperLogLogCommandsTest {
    private static final String NOT_HLL = "-WRONGTYPE Key is not a valid HyperLogLog string value.\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String CORRUPTED = "-INVALIDOBJ Corrupted HLL object detected\r\n";
    /** The header of a sparse HLL whose cache is stale, then one ZERO opcode: a single register of 16384. */
    private static final String TOO_SHORT = "48594c4c010000000000000000000080" + "00";

    private final CommandFixture kvd = new CommandFixture();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private String hex(String key) {
        return HexFormat.of().formatHex(kvd.keyspace.get(bytes(key)));
    }

    private void setHex(String key, String hex) {
        kvd.keyspace.put(bytes(key), HexFormat.of().parseHex(hex), Keyspace.PERSISTENT);
    }

    /** PFADD of the decimal numbers from 0 to {@code count - 1}, one per command as redis-cli sent them. */
    private void addNumbers(String key, int count) {
        for (int i = 0; i < count; i++) {
            kvd.call("PFADD", key, Integer.toString(i));
        }
    }

    @Test
    void pfaddCreatesASparseHllWithAStaleCacheAndSaysWhetherARegisterChanged() {
        assertThat(kvd.call("PFADD", "h", "a", "b", "c")).isEqualTo(integer(1));
        assertThat(hex("h")).isEqualTo("48594c4c010000000000000000000080" + "60f38050b1844bfb80425a");
        assertThat(kvd.call("PFADD", "h", "a", "b", "c")).isEqualTo(integer(0));
        assertThat(kvd.call("PFADD", "h")).isEqualTo(integer(0));
        assertThat(kvd.call("OBJECT", "ENCODING", "h")).isEqualTo("$3\r\nraw\r\n");
    }

    @Test
    void pfaddOfNoElementCreatesAnEmptyHll() {
        assertThat(kvd.call("PFADD", "h")).isEqualTo(integer(1));
        assertThat(hex("h")).isEqualTo("48594c4c010000000000000000000080" + "7fff");
        assertThat(kvd.call("PFCOUNT", "h")).isEqualTo(integer(0));
    }

    @Test
    void pfcountWritesTheCardinalityIntoTheHeader() {
        kvd.call("PFADD", "h", "a", "b", "c");
        assertThat(kvd.call("PFCOUNT", "h")).isEqualTo(integer(3));
        assertThat(hex("h")).isEqualTo("48594c4c010000000300000000000000" + "60f38050b1844bfb80425a");
        assertThat(kvd.call("PFCOUNT", "missing")).isEqualTo(integer(0));
    }

    @Test
    void pfcountTrustsAValidCache() {
        setHex("h", "48594c4c010000000700000000000000" + "7fff");
        assertThat(kvd.call("PFCOUNT", "h")).isEqualTo(integer(7));
    }

    @Test
    void estimatesMatchRedisAcrossTheSparseToDenseSwitch() {
        int[] counts = {100, 1000, 10000};
        long[] estimates = {100, 1001, 9987};
        String[] encodings = {"+sparse\r\n", "+sparse\r\n", "+dense\r\n"};
        long[] lengths = {287, 1923, 12304};
        for (int i = 0; i < counts.length; i++) {
            String key = "n" + counts[i];
            addNumbers(key, counts[i]);
            assertThat(kvd.call("PFCOUNT", key)).isEqualTo(integer(estimates[i]));
            assertThat(kvd.call("PFDEBUG", "ENCODING", key)).isEqualTo(encodings[i]);
            assertThat(kvd.call("STRLEN", key)).isEqualTo(integer(lengths[i]));
        }
    }

    @Test
    void pfcountOfSeveralKeysCountsTheirUnionWithoutStoringIt() {
        addNumbers("n100", 100);
        addNumbers("n1000", 1000);
        addNumbers("n10000", 10000);
        kvd.server.commandLog().setEnabled(true);
        assertThat(kvd.call("PFCOUNT", "n100", "n1000", "n10000")).isEqualTo(integer(9987));
        assertThat(kvd.call("PFCOUNT", "n100", "n1000", "missing")).isEqualTo(integer(1001));
        assertThat(kvd.logged()).isEmpty();
        assertThat(kvd.call("EXISTS", "missing")).isEqualTo(integer(0));
    }

    @Test
    void aSmallSparseMaxBytesTurnsTheHllDense() {
        kvd.keyspace.limits().setHllSparseMaxBytes(100);
        addNumbers("small", 50);
        assertThat(kvd.call("PFDEBUG", "ENCODING", "small")).isEqualTo("+dense\r\n");
        assertThat(kvd.call("PFCOUNT", "small")).isEqualTo(integer(50));
        kvd.keyspace.limits().setHllSparseMaxBytes(3000);
        addNumbers("small2", 50);
        assertThat(kvd.call("PFDEBUG", "ENCODING", "small2")).isEqualTo("+sparse\r\n");
        assertThat(kvd.call("STRLEN", "small2")).isEqualTo(integer(160));
    }

    @Test
    void sparseMaxBytesDefaultsTo3000TakesUnitsAndRefusesNegativeSizes() {
        assertThat(kvd.call("CONFIG", "GET", "hll-sparse-max-bytes"))
                .isEqualTo("*2\r\n$20\r\nhll-sparse-max-bytes\r\n$4\r\n3000\r\n");
        kvd.call("CONFIG", "SET", "hll-sparse-max-bytes", "3kb");
        assertThat(kvd.config.encodingLimits().hllSparseMaxBytes()).isEqualTo(3072);
        assertThat(kvd.call("CONFIG", "SET", "hll-sparse-max-bytes", "-1")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'hll-sparse-max-bytes') - argument must be a memory value\r\n");
        assertThat(Config.defaults().encodingLimits().hllSparseMaxBytes()).isEqualTo(3000);
    }

    @Test
    void pfmergeStaysSparseForSparseSourcesAndTurnsDenseForADenseOne() {
        addNumbers("n100", 100);
        addNumbers("n1000", 1000);
        addNumbers("n10000", 10000);
        assertThat(kvd.call("PFMERGE", "m", "n100", "n1000")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("PFDEBUG", "ENCODING", "m")).isEqualTo("+sparse\r\n");
        assertThat(kvd.call("PFCOUNT", "m")).isEqualTo(integer(1001));
        assertThat(kvd.call("PFMERGE", "m2", "n100", "n10000")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("PFDEBUG", "ENCODING", "m2")).isEqualTo("+dense\r\n");
        assertThat(kvd.call("PFCOUNT", "m2")).isEqualTo(integer(9987));
    }

    @Test
    void pfmergeMergesTheDestinationItselfAndCreatesAnEmptyOne() {
        kvd.call("PFADD", "d", "x");
        kvd.call("PFADD", "s", "y");
        kvd.call("PFMERGE", "d", "s");
        assertThat(kvd.call("PFCOUNT", "d")).isEqualTo(integer(2));
        assertThat(kvd.call("PFMERGE", "e")).isEqualTo("+OK\r\n");
        assertThat(hex("e")).isEqualTo("48594c4c010000000000000000000080" + "7fff");
    }

    @Test
    void pfaddKeepsTheKeysTtl() {
        kvd.call("PFADD", "h", "x");
        kvd.call("EXPIRE", "h", "100");
        kvd.call("PFADD", "h", "y");
        assertThat(kvd.keyspace.deadline(bytes("h"))).isEqualTo(START_MS + 100_000);
    }

    @Test
    void pfaddToADenseHllRaisesItsRegistersInPlaceAsTheCopyWould() {
        kvd.call("PFADD", "inPlace", "a");
        kvd.call("PFDEBUG", "TODENSE", "inPlace");
        kvd.call("EXPIRE", "inPlace", "100");
        kvd.server.commandLog().setEnabled(true);
        assertThat(kvd.call("PFADD", "inPlace", "b", "c")).isEqualTo(integer(1));
        assertThat(kvd.call("PFADD", "inPlace", "b", "c")).isEqualTo(integer(0));
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("PFADD", "inPlace", "b", "c"));
        kvd.call("PFADD", "copied", "a", "b", "c");
        kvd.call("PFDEBUG", "TODENSE", "copied");
        assertThat(hex("inPlace")).isEqualTo(hex("copied"));
        assertThat(kvd.keyspace.deadline(bytes("inPlace"))).isEqualTo(START_MS + 100_000);
        assertThat(kvd.call("OBJECT", "ENCODING", "inPlace")).isEqualTo("$3\r\nraw\r\n");
    }

    @Test
    void pfaddToADenseHllRaisesTheElementsAfterOnesThatRaiseNothing() {
        kvd.call("PFADD", "inPlace", "a", "b");
        kvd.call("PFDEBUG", "TODENSE", "inPlace");
        assertThat(kvd.call("PFADD", "inPlace", "a", "b", "c", "d")).isEqualTo(integer(1));
        kvd.call("PFADD", "copied", "a", "b", "c", "d");
        kvd.call("PFDEBUG", "TODENSE", "copied");
        assertThat(hex("inPlace")).isEqualTo(hex("copied"));
    }

    @Test
    void pfaddToADenseHllInvalidatesAWatch() {
        kvd.call("PFADD", "h", "a");
        kvd.call("PFDEBUG", "TODENSE", "h");
        kvd.call("WATCH", "h");
        kvd.call("PFADD", "h", "b");
        kvd.call("MULTI");
        kvd.call("PING");
        assertThat(kvd.call("EXEC")).isEqualTo("*-1\r\n");
    }

    @Test
    void aStringThatIsNotAnHllIsRefused() {
        kvd.call("SET", "s", "hello");
        assertThat(kvd.call("PFADD", "s", "a")).isEqualTo(NOT_HLL);
        assertThat(kvd.call("PFCOUNT", "s")).isEqualTo(NOT_HLL);
        assertThat(kvd.call("PFMERGE", "d", "s")).isEqualTo(NOT_HLL);
        kvd.call("SET", "s", "HYLL");
        assertThat(kvd.call("PFCOUNT", "s")).isEqualTo(NOT_HLL);
        // Encoding 2 is unknown; a dense HLL must have the exact size.
        setHex("s", "48594c4c020000000000000000000080" + "7fff");
        assertThat(kvd.call("PFCOUNT", "s")).isEqualTo(NOT_HLL);
        setHex("s", "48594c4c000000000000000000000080" + "7fff");
        assertThat(kvd.call("PFCOUNT", "s")).isEqualTo(NOT_HLL);
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("PFADD", "l", "a")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("PFCOUNT", "h", "l")).isEqualTo(WRONGTYPE);
    }

    @Test
    void corruptedSparseOpcodesAreInvalidObjects() {
        setHex("c", TOO_SHORT);
        assertThat(kvd.call("PFCOUNT", "c")).isEqualTo(CORRUPTED);
        assertThat(kvd.call("PFCOUNT", "c", "missing")).isEqualTo(CORRUPTED);
        assertThat(kvd.call("PFMERGE", "d", "c")).isEqualTo(CORRUPTED);
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
        assertThat(kvd.call("PFADD", "c", "a", "b", "c")).isEqualTo(CORRUPTED);
        assertThat(kvd.call("PFDEBUG", "TODENSE", "c")).isEqualTo(CORRUPTED);
        // Two XZEROs of 16384 registers each: twice too many.
        setHex("c", "48594c4c010000000000000000000080" + "7fff7fff");
        assertThat(kvd.call("PFCOUNT", "c")).isEqualTo(CORRUPTED);
        assertThat(kvd.call("PFDEBUG", "DECODE", "c")).isEqualTo("$15\r\nZ:16384 Z:16384\r\n");
    }

    @Test
    void pfdebugReportsEncodingsDecodesAndConverts() {
        kvd.call("PFADD", "h", "a", "b", "c");
        assertThat(kvd.call("PFDEBUG", "ENCODING", "h")).isEqualTo("+sparse\r\n");
        assertThat(kvd.call("PFDEBUG", "decode", "h"))
                .isEqualTo("$44\r\nZ:8436 v:1,1 Z:4274 v:2,1 Z:3068 v:1,1 Z:603\r\n");
        assertThat(kvd.call("PFDEBUG", "TODENSE", "h")).isEqualTo(integer(1));
        assertThat(kvd.call("PFDEBUG", "TODENSE", "h")).isEqualTo(integer(0));
        assertThat(kvd.call("STRLEN", "h")).isEqualTo(integer(12304));
        assertThat(kvd.call("PFDEBUG", "DECODE", "h")).isEqualTo("-ERR HLL encoding is not sparse\r\n");
        assertThat(kvd.call("PFCOUNT", "h")).isEqualTo(integer(3));
        assertThat(kvd.call("PFDEBUG", "Foo", "h")).isEqualTo("-ERR Unknown PFDEBUG subcommand 'Foo'\r\n");
        assertThat(kvd.call("PFDEBUG", "Foo", "missing")).isEqualTo("-ERR The specified key does not exist\r\n");
    }

    @Test
    void pfdebugGetregAnswersEveryRegisterAndKeepsTheDenseForm() {
        kvd.call("PFADD", "x", "a");
        assertThat(hex("x")).isEqualTo("48594c4c010000000000000000000080" + "71a6844e57");
        String reply = kvd.call("PFDEBUG", "GETREG", "x");
        assertThat(reply).startsWith("*16384\r\n");
        assertThat(reply.split("\r\n:2\r\n", -1)).hasSize(2);
        assertThat(reply.split("\r\n:0", -1)).hasSize(16384);
        assertThat(kvd.call("PFDEBUG", "ENCODING", "x")).isEqualTo("+dense\r\n");
    }

    @Test
    void writesAreLoggedAsThemselvesAndPfcountOnlyWhenItWritesTheCache() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("PFADD", "h", "a");
        kvd.call("PFADD", "h", "a");
        kvd.call("PFCOUNT", "h");
        kvd.call("PFCOUNT", "h");
        kvd.call("PFMERGE", "d", "h");
        kvd.call("PFDEBUG", "TODENSE", "h");
        kvd.call("PFDEBUG", "TODENSE", "h");
        kvd.call("PFDEBUG", "GETREG", "d");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("PFADD", "h", "a")
                + record("PFCOUNT", "h") + record("PFMERGE", "d", "h") + record("PFDEBUG", "TODENSE", "h")
                + record("PFDEBUG", "GETREG", "d"));
    }

    @Test
    void pfaddAndPfmergeAnnouncePfadd() {
        Client subscriber = kvd.newClient();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "E$");
        kvd.callAs(subscriber, "SUBSCRIBE", "__keyevent@0__:pfadd");
        kvd.call("PFADD", "h", "a");
        kvd.call("PFADD", "h", "a");
        kvd.call("PFCOUNT", "h");
        kvd.call("PFMERGE", "d", "h");
        String message = "*3\r\n$7\r\nmessage\r\n$20\r\n__keyevent@0__:pfadd\r\n";
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message + "$1\r\nh\r\n" + message + "$1\r\nd\r\n");
    }

    @Test
    void pfselftestPasses() {
        assertThat(kvd.call("PFSELFTEST")).isEqualTo("+OK\r\n");
    }
}
