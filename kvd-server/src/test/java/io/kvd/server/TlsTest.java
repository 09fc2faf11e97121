package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The TLS listener (tls-port) over real sockets, with certificates made for the test. */
class TlsTest {
    @TempDir
    static Path certificateDir;
    private static TestCertificates certs;

    @RegisterExtension
    final TestServer kvd = new TestServer();

    @BeforeAll
    static void generateCertificates() throws Exception {
        certs = TestCertificates.generate(certificateDir);
    }

    @Test
    void pingSetAndGetOverTls() throws Exception {
        int tlsPort = startTls("yes");
        try (RespConnection c = certs.connect(tlsPort, true)) {
            assertThat(c.call("PING")).isEqualTo(new SimpleString("PONG"));
            assertThat(c.call("SET", "k", "v")).isEqualTo(new SimpleString("OK"));
            assertThat(c.call("GET", "k")).isEqualTo(BulkString.of("v"));
        }
    }

    @Test
    void clientWithoutCertificateIsRefusedWhenTlsAuthClientsIsYes() throws Exception {
        int tlsPort = startTls("yes");
        assertThatThrownBy(() -> {
            try (RespConnection c = certs.connect(tlsPort, false)) {
                c.call("PING");
            }
        }).isInstanceOf(IOException.class);
    }

    @Test
    void clientWithoutCertificateIsServedWhenTlsAuthClientsIsOptional() throws Exception {
        int tlsPort = startTls("optional");
        try (RespConnection c = certs.connect(tlsPort, false)) {
            assertThat(c.call("PING")).isEqualTo(new SimpleString("PONG"));
        }
    }

    @Test
    void clientWithoutCertificateIsServedWhenTlsAuthClientsIsNo() throws Exception {
        int tlsPort = startTls("no");
        try (RespConnection c = certs.connect(tlsPort, false)) {
            assertThat(c.call("PING")).isEqualTo(new SimpleString("PONG"));
        }
    }

    @Test
    void pipelineOfTenThousandCommandsInOneWriteGetsEveryReplyInOrder() throws Exception {
        int tlsPort = startTls("yes");
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < 5_000; i++) {
            batch.write(RespConnection.encode("SET", "key:" + i, "value:" + i));
            batch.write(RespConnection.encode("GET", "key:" + i));
        }
        try (RespConnection c = certs.connect(tlsPort, true)) {
            c.send(batch.toByteArray());
            for (int i = 0; i < 5_000; i++) {
                assertThat(c.read()).isEqualTo(new SimpleString("OK"));
                assertThat(c.read()).isEqualTo(BulkString.of("value:" + i));
            }
        }
    }

    @Test
    void repliesOfOneIterationLeaveInOneTlsWrite() throws Exception {
        int tlsPort = startTls("yes");
        int pings = 2_000;
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < pings; i++) {
            batch.write(RespConnection.encode("PING"));
        }
        try (TlsRecordCountingProxy proxy = new TlsRecordCountingProxy(tlsPort);
             RespConnection c = certs.connect(proxy.port(), true)) {
            c.send(batch.toByteArray());
            for (int i = 0; i < pings; i++) {
                assertThat(c.read()).isEqualTo(new SimpleString("PONG"));
            }
            // 14 KB of replies from a 28 KB request: a flush per reply would be 2,000 records; one
            // per iteration is a handful (plus the handshake's).
            assertThat(proxy.serverRecords()).isLessThan(50);
        }
    }

    @Test
    void clientThatDoesNotReadIsPausedAndStillGetsEveryReply() throws Exception {
        int tlsPort = startTls("yes", "--client-output-soft-limit", "64kb");
        String value = "v".repeat(1024);
        int gets = 5_000;
        try (RespConnection c = certs.connect(tlsPort, true)) {
            assertThat(c.call("SET", "k", value)).isEqualTo(new SimpleString("OK"));
            c.sendWithoutReadingThenReadEach(RespConnection.encode("GET", "k"), gets, BulkString.of(value));
            assertThat(c.infoField("stats", "client_output_read_pauses")).isPositive();
        }
    }

    @Test
    void portZeroBesideATlsPortServesTlsOnly() throws Exception {
        startTls("yes");
        assertThat(kvd.port()).isZero();
    }

    @Test
    void plainAndTlsClientsShareOneKeyspace() throws Exception {
        int tlsPort = startTls("yes", "--port", String.valueOf(TestCertificates.freePort()));
        try (RespConnection tls = certs.connect(tlsPort, true); RespConnection plain = new RespConnection(kvd.port())) {
            assertThat(tls.call("SET", "k", "over tls")).isEqualTo(new SimpleString("OK"));
            assertThat(plain.call("GET", "k")).isEqualTo(BulkString.of("over tls"));
        }
    }

    @Test
    void encryptedKeyIsReadWithTlsKeyFilePass() throws Exception {
        int tlsPort = startTls("yes", "--tls-key-file", certs.file("server-pass.key").toString(),
                "--tls-key-file-pass", TestCertificates.KEY_PASSWORD);
        try (RespConnection c = certs.connect(tlsPort, true)) {
            assertThat(c.call("PING")).isEqualTo(new SimpleString("PONG"));
        }
    }

    @Test
    void connectionBeyondMaxclientsGetsTheErrorAfterTheHandshake() throws Exception {
        int tlsPort = startTls("yes", "--maxclients", "1");
        try (RespConnection first = certs.connect(tlsPort, true)) {
            assertThat(first.call("PING")).isEqualTo(new SimpleString("PONG"));
            try (RespConnection second = certs.connect(tlsPort, true)) {
                assertThat(second.read()).isEqualTo(new RespReply.Error("ERR max number of clients reached"));
                assertThat(second.closedByServer()).isTrue();
            }
        }
    }

    @Test
    void missingCertificateFileStopsTheStartNamingIt() {
        String missing = certificateDir.resolve("missing.crt").toString();
        assertThatThrownBy(() -> startTls("yes", "--tls-cert-file", missing))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("tls-cert-file " + missing + ": no such readable file");
    }

    @Test
    void keyFileWithoutAKeyStopsTheStartNamingIt() {
        String notAKey = certs.file("ca.crt").toString();
        assertThatThrownBy(() -> startTls("yes", "--tls-key-file", notAKey))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("File does not contain valid private key: " + notAKey);
    }

    @Test
    void tlsPortWithoutCertificateStopsTheStart() {
        assertThatThrownBy(() -> kvd.start("--tls-port", "1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("TLS needs tls-cert-file (tls-port is set)");
    }

    @Test
    void clientCertificatesNeedTheCa() {
        assertThatThrownBy(() -> startTls("yes", "--tls-ca-cert-file", ""))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("TLS needs tls-ca-cert-file (tls-auth-clients is yes)");
    }

    /**
     * Starts kvd serving the test certificates on a free TLS port (the plain port is 0: TLS only,
     * unless {@code options} set one); later options win. Returns the TLS port.
     */
    private int startTls(String authClients, String... options) throws Exception {
        for (int attempt = 1; ; attempt++) {
            List<String> all = new ArrayList<>(List.of(certs.serverOptions(TestCertificates.freePort(), authClients)));
            all.addAll(List.of(options));
            try {
                kvd.start(all.toArray(String[]::new));
                return kvd.tlsPort();
            } catch (IllegalStateException e) {
                // The free port was taken in between: try another.
                if (attempt == 3 || !e.getMessage().startsWith("cannot listen")) {
                    throw e;
                }
            }
        }
    }
}
