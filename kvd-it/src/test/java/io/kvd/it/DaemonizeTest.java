package io.kvd.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** daemonize yes: the start returns once a detached kvd serves, which its pidfile names. */
class DaemonizeTest {
    @TempDir
    Path dir;

    private static Path jar() {
        return Path.of(System.getProperty("kvd.jar", "../kvd-server/target/kvd.jar")).toAbsolutePath();
    }

    private Process start(int port) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-jar", jar().toString(), "--daemonize", "yes", "--port", String.valueOf(port),
                "--dir", dir.toString(), "--pidfile", dir.resolve("kvd.pid").toString(),
                "--logfile", dir.resolve("kvd.log").toString(), "--appendonly", "no"));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Sends an inline command and returns the reply's first line. */
    private static String call(int port, String command) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
                line.append((char) b);
            }
            return line.toString().strip();
        }
    }

    @Test
    void theStartReturnsOnceTheDetachedServerAnswers() throws Exception {
        int port = freePort();
        Process start = start(port);
        assertThat(start.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(start.exitValue()).as(new String(start.getInputStream().readAllBytes())).isZero();
        long pid = Long.parseLong(Files.readString(dir.resolve("kvd.pid")).strip());
        Optional<ProcessHandle> daemon = ProcessHandle.of(pid);
        assertThat(daemon).isPresent();
        assertThat(call(port, "PING")).isEqualTo("+PONG");
        call(port, "SHUTDOWN");
        assertThat(daemon.get().onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(dir.resolve("kvd.pid")).doesNotExist();
    }

    @Test
    void aDetachedServerThatCannotStartFailsTheStart() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Process start = start(taken.getLocalPort());
            assertThat(start.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(start.exitValue()).isEqualTo(1);
            assertThat(new String(start.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("kvd: the detached server stopped with exit code 1 before it was ready");
            assertThat(Files.readString(dir.resolve("kvd.log"))).contains("Failed listening on port " + taken.getLocalPort());
        }
    }
}
