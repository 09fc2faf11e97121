package io.kvd.server;

import io.kvd.server.config.Config;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The server side of TLS, built once at start from the {@code tls-*} directives: OpenSSL
 * (BoringSSL through netty-tcnative) when its native library loads, the JDK's provider otherwise.
 * A missing or unreadable file, or one that holds no certificate or key, stops the start with a
 * message naming the directive and the file.
 */
final class TlsContext {
    private static final Logger log = LoggerFactory.getLogger(TlsContext.class);
    /** Redis's protocols when tls-protocols is empty. */
    private static final String[] DEFAULT_PROTOCOLS = {"TLSv1.2", "TLSv1.3"};

    private TlsContext() {
    }

    static SslContext create(Config config) {
        File cert = readable(Config.TLS_CERT_FILE, config.tlsCertFile(), "tls-port is set");
        File key = readable(Config.TLS_KEY_FILE, config.tlsKeyFile(), "tls-port is set");
        String password = config.tlsKeyFilePass().isEmpty() ? null : config.tlsKeyFilePass();
        ClientAuth clientAuth = switch (config.tlsAuthClients()) {
            case "yes" -> ClientAuth.REQUIRE;
            case "optional" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        };
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        SslContextBuilder builder = fromFiles(() -> SslContextBuilder.forServer(cert, key, password))
                .sslProvider(provider)
                .clientAuth(clientAuth)
                .protocols(config.tlsProtocols().isEmpty() ? DEFAULT_PROTOCOLS : config.tlsProtocols().split(" "));
        if (clientAuth != ClientAuth.NONE) {
            // As Redis: verifying client certificates needs the CA that issued them.
            File ca = readable(Config.TLS_CA_CERT_FILE, config.tlsCaCertFile(),
                    "tls-auth-clients is " + config.tlsAuthClients());
            fromFiles(() -> builder.trustManager(ca));
        }
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot configure TLS with " + Config.TLS_CERT_FILE + " " + cert + " and "
                    + Config.TLS_KEY_FILE + " " + key + ": " + e.getMessage(), e);
        }
        if (provider == SslProvider.OPENSSL) {
            log.info("TLS provider: OpenSSL ({})", OpenSsl.versionString());
        } else {
            log.info("TLS provider: JDK (OpenSSL unavailable: {})", OpenSsl.unavailabilityCause().toString());
        }
        return context;
    }

    private static File readable(String directive, String path, String why) {
        if (path.isEmpty()) {
            throw new IllegalStateException("TLS needs " + directive + " (" + why + ")");
        }
        if (!Files.isReadable(Path.of(path)) || Files.isDirectory(Path.of(path))) {
            throw new IllegalStateException(directive + " " + path + ": no such readable file");
        }
        return new File(path);
    }

    /** Netty names the file in its IllegalArgumentException ("File does not contain valid certificates: ..."). */
    private static SslContextBuilder fromFiles(Supplier<SslContextBuilder> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException(e.getMessage() + (cause == null ? "" : " (" + cause.getMessage() + ")"), e);
        }
    }
}
