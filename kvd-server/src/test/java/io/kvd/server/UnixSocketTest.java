package io.kvd.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** unixsocket and unixsocketperm: kvd listens on a UNIX domain socket beside TCP, as Redis. */
class UnixSocketTest {
    @RegisterExtension
    final TestServer kvd = new TestServer();
    @TempDir
    Path dir;

    /** Sends one inline command over the socket and returns the reply's first line. */
    private static String call(Path socket, String command) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap((command + "\r\n").getBytes(StandardCharsets.UTF_8)));
            ByteBuffer in = ByteBuffer.allocate(4096);
            StringBuilder reply = new StringBuilder();
            while (reply.indexOf("\r\n") < 0 || reply.charAt(0) == '$' && reply.indexOf("\r\n", reply.indexOf("\r\n") + 2) < 0) {
                in.clear();
                if (channel.read(in) < 0) {
                    break;
                }
                reply.append(StandardCharsets.UTF_8.decode(in.flip()));
            }
            return reply.toString();
        }
    }

    @Test
    void clientsConnectOverTheSocketWithItsPathAsTheirAddressAndFlagU() throws Exception {
        Path socket = dir.resolve("kvd.sock");
        kvd.start("--unixsocket", socket.toString());
        assertThat(call(socket, "PING")).isEqualTo("+PONG\r\n");
        assertThat(call(socket, "CLIENT INFO")).contains(" addr=" + socket + ":0 laddr=" + socket + ":0 ", " flags=U ");
    }

    @Test
    void monitorsShowTheSocketsClientsAsUnixPath() throws Exception {
        Path socket = dir.resolve("kvd.sock");
        int port = kvd.start("--unixsocket", socket.toString());
        try (RespConnection monitor = new RespConnection(port)) {
            monitor.call("MONITOR");
            call(socket, "PING");
            assertThat(monitor.read().toString()).contains(" [0 unix:" + socket + "] \"PING\"");
        }
    }

    @Test
    void unixsocketpermSetsTheFilesPermissions() throws Exception {
        Path socket = dir.resolve("kvd.sock");
        kvd.start("--unixsocket", socket.toString(), "--unixsocketperm", "700");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rwx------");
    }

    @Test
    void aStaleSocketFileIsReplacedAndTheSocketRemovedAtStop() throws Exception {
        Path socket = dir.resolve("kvd.sock");
        Files.writeString(socket, "left by a crash");
        kvd.start("--unixsocket", socket.toString());
        assertThat(call(socket, "PING")).isEqualTo("+PONG\r\n");
        kvd.afterEach(null);
        assertThat(socket).doesNotExist();
    }
}
