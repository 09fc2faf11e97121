package io.kvd.server.command;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MIGRATE's arguments, its request and its outcomes against a scripted target; replies checked
 * against redis-server 7.0.15. The target runs on a thread of the test, answering fixed lines.
 */
class MigrateCommandTest {
    private final CommandFixture kvd = new CommandFixture();
    private final ServerSocket target;

    MigrateCommandTest() throws IOException {
        target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void closeTarget() throws IOException {
        target.close();
        kvd.server.migrateSockets().closeAll();
    }

    private String port() {
        return Integer.toString(target.getLocalPort());
    }

    /**
     * Accepts one connection, reads {@code length} bytes of request and answers {@code replies};
     * the future gives the request.
     */
    private CompletableFuture<String> answer(int length, String replies) {
        return answer(length, replies, false);
    }

    /** As {@link #answer(int, String)}; with {@code hangUp}, closes the connection once it answered. */
    private CompletableFuture<String> answer(int length, String replies, boolean hangUp) {
        CompletableFuture<String> request = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try (Socket s = target.accept()) {
                InputStream in = s.getInputStream();
                request.complete(new String(in.readNBytes(length), StandardCharsets.ISO_8859_1));
                s.getOutputStream().write(replies.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                if (!hangUp) {
                    // Held open until kvd closes it, as a real target's connection.
                    in.transferTo(OutputStream.nullOutputStream());
                }
            } catch (IOException e) {
                request.completeExceptionally(e);
            }
        }, "migrate-target");
        thread.setDaemon(true);
        thread.start();
        return request;
    }

    @Test
    void optionErrorsComeBeforeTheNumbersAndTheKeys() {
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "0", "1000", "FOO")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "0", "1000", "AUTH")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "0", "1000", "AUTH2", "u")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "x", "1", "KEYS"))
                .isEqualTo("-ERR When using MIGRATE KEYS option, the key argument must be set to the empty string\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "0", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "x", "1")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "k", "0")).isEqualTo("-ERR wrong number of arguments for 'migrate' command\r\n");
    }

    @Test
    void noExistingKeyIsNokeyWithoutConnecting() {
        assertThat(kvd.call("MIGRATE", "h", "p", "missing", "0", "1000")).isEqualTo("+NOKEY\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "", "0", "1000", "KEYS", "a", "b")).isEqualTo("+NOKEY\r\n");
        assertThat(kvd.call("MIGRATE", "h", "p", "", "0", "1000", "COPY", "KEYS")).isEqualTo("+NOKEY\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("migrate_cached_sockets:0\r\n");
    }

    @Test
    void aConnectThatCannotStartIsIoerrConnecting() {
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("MIGRATE", "127.0.0.1", "-1", "k", "0", "1000"))
                .isEqualTo("-IOERR error or timeout connecting to the client\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(":1\r\n");
    }

    /** As Redis 7.0: its blocking connect hands back a refused connection, whose write then fails. */
    @Test
    void aRefusedConnectionIsIoerrWritingAndNotCached() throws IOException {
        kvd.call("SET", "k", "v");
        int closed;
        try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            closed = gone.getLocalPort();
        }
        assertThat(kvd.call("MIGRATE", "127.0.0.1", Integer.toString(closed), "k", "0", "1000"))
                .isEqualTo("-IOERR error or timeout writing to target instance\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(":1\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("migrate_cached_sockets:0\r\n");
    }

    @Test
    void aTargetThatNeverAnswersIsIoerrReadingAfterTheTimeoutAndTheKeyStays() {
        kvd.call("SET", "k", "v");
        long start = System.nanoTime();
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "k", "0", "200"))
                .isEqualTo("-IOERR error or timeout reading to target instance\r\n");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(150L, 5000L);
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(":1\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("migrate_cached_sockets:0\r\n");
    }

    @Test
    void movedKeysAreSentAsRestoreWithTheirTtlThenDeletedAndLoggedAsOneDel() throws Exception {
        kvd.call("SET", "a", "bar");
        kvd.call("PSETEX", "b", "5000", "bar");
        kvd.server.commandLog().setEnabled(true);
        String expected = record("AUTH", "u", "pw") + record("SELECT", "3")
                + restore("a", "0", true)
                + restore("b", "5000", true);
        CompletableFuture<String> request = answer(expected.length(), "+OK\r\n+OK\r\n+OK\r\n+OK\r\n");
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "", "3", "5000", "REPLACE", "AUTH2", "u", "pw",
                "KEYS", "a", "missing", "b")).isEqualTo("+OK\r\n");
        assertThat(request.get(10, TimeUnit.SECONDS)).isEqualTo(expected);
        assertThat(kvd.call("EXISTS", "a", "b")).isEqualTo(":0\r\n");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("DEL", "a", "b"));
        assertThat(kvd.call("INFO", "stats")).contains("migrate_cached_sockets:1\r\n");
    }

    @Test
    void theTargetsFirstErrorIsTheReplyAndOnlyAcknowledgedKeysAreDeleted() throws Exception {
        kvd.call("MSET", "a", "1", "b", "2", "c", "3");
        kvd.server.commandLog().setEnabled(true);
        String request = record("SELECT", "0");
        for (String key : new String[] {"a", "b", "c"}) {
            request += restore(key, "0", false);
        }
        CompletableFuture<String> sent = answer(request.length(),
                "+OK\r\n+OK\r\n-BUSYKEY Target key name already exists.\r\n+OK\r\n");
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "", "0", "5000", "KEYS", "a", "b", "c"))
                .isEqualTo("-ERR Target instance replied with error: BUSYKEY Target key name already exists.\r\n");
        assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(request);
        assertThat(kvd.call("EXISTS", "a", "b", "c")).isEqualTo(":1\r\n");
        assertThat(kvd.call("EXISTS", "b")).isEqualTo(":1\r\n");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("DEL", "a", "c"));
    }

    @Test
    void copyKeepsTheKeysAndLogsNothing() throws Exception {
        kvd.call("SET", "a", "1");
        kvd.server.commandLog().setEnabled(true);
        String request = record("SELECT", "0") + restore("a", "0", false);
        CompletableFuture<String> sent = answer(request.length(), "+OK\r\n+OK\r\n");
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "a", "0", "5000", "COPY")).isEqualTo("+OK\r\n");
        assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(request);
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":1\r\n");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void aCachedConnectionTheTargetClosedIsReplacedOnceWithoutAnError() throws Exception {
        kvd.call("SET", "a", "1");
        String first = record("SELECT", "0") + restore("a", "0", false);
        CompletableFuture<String> sent = answer(first.length(), "+OK\r\n+OK\r\n", true);
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "a", "0", "5000", "COPY")).isEqualTo("+OK\r\n");
        assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(first);
        // The second goes over the dead cached connection, reads nothing, and retries on a new one,
        // which needs its SELECT again.
        CompletableFuture<String> again = answer(first.length(), "+OK\r\n+OK\r\n");
        assertThat(kvd.call("MIGRATE", "127.0.0.1", port(), "a", "0", "5000")).isEqualTo("+OK\r\n");
        assertThat(again.get(10, TimeUnit.SECONDS)).isEqualTo(first);
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":0\r\n");
        assertThat(kvd.call("INFO", "stats")).contains("migrate_cached_sockets:1\r\n");
    }

    @Test
    void getkeysFindsTheKeyArgumentOrTheKeysAfterKeys() {
        assertThat(kvd.call("COMMAND", "GETKEYS", "MIGRATE", "h", "p", "k", "0", "0")).isEqualTo("*1\r\n$1\r\nk\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "MIGRATE", "h", "p", "", "0", "0", "AUTH", "keys", "KEYS", "a", "b"))
                .isEqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "MIGRATE", "h", "p", "k", "0", "0", "KEYS", "a"))
                .isEqualTo("-ERR Invalid arguments specified for command\r\n");
    }

    /** The RESTORE MIGRATE sends for {@code key}: its DUMP payload, as Latin-1 text. */
    private String restore(String key, String ttl, boolean replace) {
        String reply = new String(kvd.callRaw("DUMP", key), StandardCharsets.ISO_8859_1);
        String payload = reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
        return (replace ? "*5" : "*4") + "\r\n$7\r\nRESTORE\r\n" + bulk(key) + bulk(ttl) + bulk(payload)
                + (replace ? bulk("REPLACE") : "");
    }

    private static String bulk(String latin1) {
        return "$" + latin1.length() + "\r\n" + latin1 + "\r\n";
    }
}
