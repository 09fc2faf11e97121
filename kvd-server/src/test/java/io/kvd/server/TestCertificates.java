package io.kvd.server;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway CA with the server and client certificates it signed, written by
 * {@code src/test/scripts/tls/gen-test-certs.sh} (openssl) into a directory, and TLS client
 * sockets that trust that CA.
 */
final class TestCertificates {
    /** The password of {@code server-pass.key}, as the script sets it. */
    static final String KEY_PASSWORD = "kvd-test";
    private static final Path SCRIPT = Path.of("src", "test", "scripts", "tls", "gen-test-certs.sh");

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    static TestCertificates generate(Path dir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", SCRIPT.toAbsolutePath().toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError(SCRIPT + " failed (needs openssl): " + output);
        }
        return new TestCertificates(dir);
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    /** The {@code --tls-*} options of a server presenting server.crt on {@code tlsPort}. */
    String[] serverOptions(int tlsPort, String authClients) {
        return new String[]{"--tls-port", String.valueOf(tlsPort),
                "--tls-cert-file", file("server.crt").toString(), "--tls-key-file", file("server.key").toString(),
                "--tls-ca-cert-file", file("ca.crt").toString(), "--tls-auth-clients", authClients};
    }

    /** A TLS connection to {@code port} that trusts the test CA, presenting client.crt if {@code withCertificate}. */
    RespConnection connect(int port, boolean withCertificate) throws IOException {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .trustManager(file("ca.crt").toFile());
        if (withCertificate) {
            builder.keyManager(file("client.crt").toFile(), file("client.key").toFile());
        }
        JdkSslContext context = (JdkSslContext) builder.build();
        SSLSocket socket = (SSLSocket) context.context().getSocketFactory().createSocket("127.0.0.1", port);
        return new RespConnection(socket);
    }

    /** A port that was free a moment ago (tls-port has no "pick one" value: 0 turns TLS off). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
