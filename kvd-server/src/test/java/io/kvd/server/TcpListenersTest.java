package io.kvd.server;

import io.kvd.codec.RespReply.Array;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.Error;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** CONFIG SET port and bind move the listening sockets, after Redis's unit/networking. */
class TcpListenersTest {
    private static final SimpleString PONG = new SimpleString("PONG");

    @RegisterExtension
    final TestServer kvd = new TestServer();

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aNewPortIsServedAndOneInUseLeavesTheServerWhereItWas() throws Exception {
        int first = kvd.start();
        int second = freePort();
        try (RespConnection admin = new RespConnection(first)) {
            assertThat(admin.call("CONFIG", "SET", "port", Integer.toString(second))).isEqualTo(new SimpleString("OK"));
            // The connection the command came on stays; the old port takes no new ones.
            assertThat(admin.call("PING")).isEqualTo(PONG);
            assertThat(admin.call("CONFIG", "GET", "port")).isEqualTo(Array.of(BulkString.of("port"), BulkString.of(Integer.toString(second))));
        }
        assertThatThrownBy(() -> new RespConnection(first)).isInstanceOf(ConnectException.class);
        try (ServerSocket taken = new ServerSocket(0); RespConnection admin = new RespConnection(second)) {
            assertThat(admin.call("CONFIG", "SET", "port", Integer.toString(taken.getLocalPort()))).isEqualTo(new Error(
                    "ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port"));
            assertThat(admin.call("CONFIG", "GET", "port")).isEqualTo(Array.of(BulkString.of("port"), BulkString.of(Integer.toString(second))));
        }
        try (RespConnection again = new RespConnection(second)) {
            assertThat(again.call("PING")).isEqualTo(PONG);
        }
    }

    @Test
    void aFailedApplyUndoesEveryParameterOfTheSameConfigSet() throws Exception {
        int port = kvd.start();
        try (ServerSocket taken = new ServerSocket(0); RespConnection admin = new RespConnection(port)) {
            assertThat(admin.call("CONFIG", "SET", "maxmemory-samples", "7", "port", Integer.toString(taken.getLocalPort())))
                    .isInstanceOf(Error.class);
            assertThat(admin.call("CONFIG", "GET", "maxmemory-samples")).isEqualTo(Array.of(BulkString.of("maxmemory-samples"), BulkString.of("5")));
        }
    }

    @Test
    void anAddressThatCannotBeBoundKeepsTheOldOnesAndEmptyBindServesNoNewConnection() throws Exception {
        int port = kvd.start();
        try (RespConnection admin = new RespConnection(port)) {
            assertThat(admin.call("CONFIG", "SET", "bind", "999.999.999.999")).isEqualTo(new Error(
                    "ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to specified addresses."));
            try (RespConnection other = new RespConnection(port)) {
                assertThat(other.call("PING")).isEqualTo(PONG);
            }
            assertThat(admin.call("CONFIG", "SET", "bind", "")).isEqualTo(new SimpleString("OK"));
            assertThatThrownBy(() -> new RespConnection(port)).isInstanceOf(ConnectException.class);
            assertThat(admin.call("CONFIG", "SET", "bind", "* -::*")).isEqualTo(new SimpleString("OK"));
        }
        try (RespConnection other = new RespConnection(port)) {
            assertThat(other.call("PING")).isEqualTo(PONG);
        }
        assertThat(kvd.port()).isEqualTo(port);
    }

    @Test
    void connectionsGetTcpKeepalive() throws Exception {
        int port = kvd.start("--tcp-keepalive", "7");
        assumeTrue(new File("/usr/bin/ss").canExecute() || new File("/bin/ss").canExecute(), "ss (iproute2) to look");
        try (RespConnection client = new RespConnection(port)) {
            assertThat(client.call("PING")).isEqualTo(PONG);
            Process ss = new ProcessBuilder("ss", "-tno", "state", "established", "( sport = :" + port + " )")
                    .redirectErrorStream(true).start();
            String sockets = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ss.waitFor()).isZero();
            // The server's end: probes due within the 7 s of idle time.
            assertThat(sockets).contains("timer:(keepalive,");
        }
    }
}
