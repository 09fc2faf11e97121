package io.kvd.bench;

import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Short soaks against {@link TinyRespServer}; they check outcomes and counts, never timings. */
class SoakTest {
    /** Small enough for a test server on one thread: a few clients, a few dozen churned connections. */
    private static final String[] LIGHT = {"--rate", "2000", "-c", "2", "--max-connections", "20", "-r", "100"};

    @Test
    void aSoakOfAServerThatKeepsWhatIsWrittenPasses() throws Exception {
        try (TinyRespServer server = TinyRespServer.answering(new Strings())) {
            Cli cli = new Cli();
            int exitCode = cli.run(soak(server.port(), "--duration", "2s", "--progress", "1s"));

            String out = cli.out.toString();
            assertThat(exitCode).as(out).isZero();
            assertThat(out).startsWith("soak 127.0.0.1:" + server.port() + " (multiplexing_api unknown), seed 1: 2.0 s,")
                    .containsPattern("(?m)^soak \\d+ s: \\d+ ops \\(\\d+/s\\), \\d+ open, \\d+ opened, \\d+ killed,"
                            + " \\d+ rewrites, \\d+ verified, \\d+ mismatches, \\d+ errors$")
                    .contains("  server: answered PING after the run", "  errors: 0")
                    .endsWith("soak passed" + System.lineSeparator());
            assertThat(count(out, "ops: (\\d+)")).isPositive();
            assertThat(count(out, "verified: (\\d+) values")).isPositive();
            assertThat(count(out, "(\\d+) opened")).isPositive();
            assertThat(server.received("BGREWRITEAOF")).isPositive();
            for (String command : new String[] {"GET", "SET", "MGET", "MSET", "INCR"}) {
                assertThat(server.received(command)).as(command).isPositive();
            }
        }
    }

    @Test
    void aServerThatIsNotListeningFailsTheSoak() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Cli cli = new Cli();

        assertThat(cli.run(soak(closedPort, "--duration", "2s"))).isEqualTo(1);
        assertThat(cli.err.toString().toLowerCase(Locale.ROOT))
                .startsWith("kvbench soak: cannot connect to 127.0.0.1:" + closedPort + ": ").contains("refused");
    }

    @Test
    void aServerGoneMidRunFailsTheSoak() throws Exception {
        TinyRespServer server = TinyRespServer.answering(new Strings());
        Cli cli = new Cli();
        String[] args = soak(server.port(), "--duration", "3s");
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> cli.run(args));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (server.receivedInAll() < 100 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        server.close();

        assertThat(run.get(3, TimeUnit.MINUTES)).isEqualTo(1);
        assertThat(cli.out.toString())
                .containsPattern("(?m)^soak FAILED: the server (became unreachable|did not answer after the run)");
    }

    @Test
    void aValueReadBackOtherThanTheOneWrittenFailsTheSoak() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringEveryGetWith("something else")) {
            Cli cli = new Cli();

            assertThat(cli.run(soak(server.port(), "--duration", "2s"))).isEqualTo(1);
            assertThat(cli.out.toString()).contains("    mismatch: ")
                    .containsPattern("(?m)^soak FAILED: \\d+ values read back differed from what was written$");
        }
    }

    @Test
    void valueLengthsRunFromOneByteToOneMegabyteMostlySmall() {
        SplittableRandom random = new SplittableRandom(1);
        int[] lengths = random.ints(0, 1).limit(100_000).map(i -> SoakValues.randomLength(random)).toArray();

        assertThat(Arrays.stream(lengths).min().orElseThrow()).isEqualTo(1);
        assertThat(Arrays.stream(lengths).max().orElseThrow())
                .isGreaterThan(64 << 10).isLessThanOrEqualTo(SoakValues.LARGEST);
        assertThat(Arrays.stream(lengths).filter(length -> length <= 64).count()).isBetween(94_000L, 96_000L);
    }

    @Test
    void aValueIsRecognisedOnlyIfItIsAPrefixOfTheBlock() {
        SoakValues values = new SoakValues(1);
        byte[] value = Arrays.copyOf(values.block(), 1000);

        assertThat(values.isPrefix(value)).isTrue();
        value[999] ^= 1;
        assertThat(values.isPrefix(value)).isFalse();
    }

    private static String[] soak(int port, String... args) {
        String[] all = new String[3 + LIGHT.length + args.length];
        all[0] = "soak";
        all[1] = "-p";
        all[2] = String.valueOf(port);
        System.arraycopy(LIGHT, 0, all, 3, LIGHT.length);
        System.arraycopy(args, 0, all, 3 + LIGHT.length, args.length);
        return all;
    }

    private static long count(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as(regex).isTrue();
        return Long.parseLong(m.group(1));
    }

    /**
     * The soak's commands on a map of strings, answered as Redis answers them; EXPIRE is accepted
     * and never applied, BGREWRITEAOF always starts.
     */
    private static final class Strings implements TinyRespServer.Responder {
        private final Map<String, byte[]> strings = new HashMap<>();

        @Override
        public void reply(byte[][] argv, ByteBuf out) {
            switch (text(argv[0])) {
                case "PING" -> RespWriter.writePong(out);
                case "GET" -> writeValue(out, strings.get(text(argv[1])));
                case "SET" -> {
                    strings.put(text(argv[1]), argv[2]);
                    RespWriter.writeOk(out);
                }
                case "MGET" -> {
                    RespWriter.writeArrayHeader(out, argv.length - 1);
                    for (int i = 1; i < argv.length; i++) {
                        writeValue(out, strings.get(text(argv[i])));
                    }
                }
                case "MSET" -> {
                    for (int i = 1; i < argv.length; i += 2) {
                        strings.put(text(argv[i]), argv[i + 1]);
                    }
                    RespWriter.writeOk(out);
                }
                case "DEL" -> {
                    int deleted = 0;
                    for (int i = 1; i < argv.length; i++) {
                        deleted += strings.remove(text(argv[i])) == null ? 0 : 1;
                    }
                    RespWriter.writeInteger(out, deleted);
                }
                case "INCR" -> {
                    byte[] old = strings.get(text(argv[1]));
                    long value = (old == null ? 0 : Long.parseLong(text(old))) + 1;
                    strings.put(text(argv[1]), String.valueOf(value).getBytes(StandardCharsets.US_ASCII));
                    RespWriter.writeInteger(out, value);
                }
                case "EXPIRE" -> RespWriter.writeInteger(out, strings.containsKey(text(argv[1])) ? 1 : 0);
                case "BGREWRITEAOF" -> RespWriter.writeSimpleString(out, "Background append only file rewriting started");
                default -> RespWriter.writeError(out, "ERR unknown command");
            }
        }

        private static void writeValue(ByteBuf out, byte[] value) {
            if (value == null) {
                RespWriter.writeNullBulk(out);
            } else {
                RespWriter.writeBulk(out, value);
            }
        }

        private static String text(byte[] bytes) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }
}
