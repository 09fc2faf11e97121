package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * redis-cli and Lettuce over TLS against kvd.jar serving TLS only (tls-port, port 0) with
 * tls-auth-clients yes, on certificates made by kvd-server's gen-test-certs.sh.
 */
class TlsInteropTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Path GEN_CERTS = Path.of("..", "kvd-server", "src", "test", "scripts", "tls", "gen-test-certs.sh");

    private static Path certs;
    private static KvdProcess kvd;
    private static int tlsPort;

    @BeforeAll
    static void startKvdWithTls() throws IOException {
        Tools.require("openssl");
        certs = WorkDir.create("tls-certs");
        Tools.Result generated = Tools.run(TIMEOUT, null, "bash", GEN_CERTS.toAbsolutePath().toString(), certs.toString());
        assertThat(generated.exitCode()).as("gen-test-certs.sh: %s", generated).isZero();
        try (ServerSocket free = new ServerSocket(0)) {
            tlsPort = free.getLocalPort();
        }
        kvd = KvdProcess.start("--tls-port", String.valueOf(tlsPort),
                "--tls-cert-file", cert("server.crt"), "--tls-key-file", cert("server.key"),
                "--tls-ca-cert-file", cert("ca.crt"), "--tls-auth-clients", "yes");
    }

    @AfterAll
    static void stopKvd() {
        if (kvd != null) {
            kvd.close();
        }
    }

    @Test
    void redisCliWithAClientCertificateSetsAndGets() {
        assertThat(tlsCli(true, "set", "greeting", "over tls").stdout()).isEqualTo("OK\n");
        assertThat(tlsCli(true, "get", "greeting").stdout()).isEqualTo("over tls\n");
    }

    @Test
    void redisCliWithoutAClientCertificateIsRefused() {
        Tools.Result result = tlsCli(false, "ping");
        assertThat(result.stdout() + result.stderr()).doesNotContain("PONG").contains("Error");
    }

    @Test
    void lettuceWithAClientCertificateVerifiesTheServerAndIsServed() {
        SslOptions ssl = SslOptions.builder()
                .jdkSslProvider()
                .trustManager(certs.resolve("ca.crt").toFile())
                .keyManager(certs.resolve("client.crt").toFile(), certs.resolve("client.key").toFile(), null)
                .build();
        RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(tlsPort)
                .withSsl(true).withVerifyPeer(SslVerifyMode.FULL).build();
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder().sslOptions(ssl).build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            assertThat(redis.ping()).isEqualTo("PONG");
            assertThat(redis.set("lettuce", "over tls")).isEqualTo("OK");
            assertThat(redis.get("lettuce")).isEqualTo("over tls");
        } finally {
            client.shutdown();
        }
    }

    /** redis-cli over TLS trusting the test CA; skips when this redis-cli was built without TLS. */
    private static Tools.Result tlsCli(boolean withCertificate, String... command) {
        Assumptions.assumeTrue(Tools.run(TIMEOUT, null, "redis-cli", "--help").stdout().contains("--tls"),
                "redis-cli was built without TLS (no --tls in redis-cli --help)");
        List<String> args = new ArrayList<>(List.of(
                "-p", String.valueOf(tlsPort), "--tls", "--cacert", cert("ca.crt")));
        if (withCertificate) {
            args.addAll(List.of("--cert", cert("client.crt"), "--key", cert("client.key")));
        }
        args.addAll(List.of(command));
        return Tools.run(TIMEOUT, null, "redis-cli", args.toArray(String[]::new));
    }

    private static String cert(String name) {
        return certs.resolve(name).toString();
    }
}
