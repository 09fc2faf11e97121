package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slowloris: many connections that send their command one byte at a time hold nobody up. Each
 * round sends one more byte on every slow connection, then a busy client is served in full; at
 * the end every slow command has run.
 */
class SlowClientsTest {
    private static final int SLOW_CONNECTIONS = 1_000;

    @RegisterExtension
    final TestServer kvd = new TestServer();

    @Test
    void connectionsTricklingOneByteAtATimeDoNotHoldUpOthersAndCompleteInTheEnd() throws Exception {
        int port = kvd.start();
        List<RespConnection> slow = new ArrayList<>();
        List<byte[]> commands = new ArrayList<>();
        try (RespConnection busy = new RespConnection(port)) {
            for (int i = 0; i < SLOW_CONNECTIONS; i++) {
                slow.add(new RespConnection(port));
                commands.add(RespConnection.encode("SET", "slow:" + i, "done"));
            }
            int longest = commands.stream().mapToInt(c -> c.length).max().orElseThrow();
            for (int offset = 0; offset < longest; offset++) {
                for (int i = 0; i < SLOW_CONNECTIONS; i++) {
                    byte[] command = commands.get(i);
                    if (offset < command.length) {
                        slow.get(i).send(new byte[]{command[offset]});
                    }
                }
                assertThat(busy.call("SET", "busy", "round " + offset)).isEqualTo(new SimpleString("OK"));
                assertThat(busy.call("GET", "busy")).isEqualTo(BulkString.of("round " + offset));
            }
            for (RespConnection c : slow) {
                assertThat(c.read()).isEqualTo(new SimpleString("OK"));
            }
            assertThat(busy.call("GET", "slow:" + (SLOW_CONNECTIONS - 1))).isEqualTo(BulkString.of("done"));
            assertThat(busy.call("DBSIZE")).isEqualTo(new RespReply.Integer(SLOW_CONNECTIONS + 1));
        } finally {
            for (RespConnection c : slow) {
                c.close();
            }
        }
    }
}
