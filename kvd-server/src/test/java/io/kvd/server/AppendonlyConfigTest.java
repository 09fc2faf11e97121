package io.kvd.server;

import io.kvd.codec.RespReply.Array;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.Error;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** CONFIG SET appendonly on a running server, which opens its AOF or not only at start. */
class AppendonlyConfigTest {
    @RegisterExtension
    final TestServer kvd = new TestServer();

    @Test
    void appendonlyTakesTheValueItHasAndRefusesAChangeAsRedisWordsAFailedApply() throws Exception {
        int port = kvd.start("--appendonly", "no");
        try (RespConnection admin = new RespConnection(port)) {
            assertThat(admin.call("CONFIG", "SET", "appendonly", "no")).isEqualTo(new SimpleString("OK"));
            assertThat(admin.call("CONFIG", "SET", "appendonly", "yes")).isEqualTo(new Error(
                    "ERR CONFIG SET failed (possibly related to argument 'appendonly') - Unable to turn on AOF. Check server logs."));
            assertThat(admin.call("CONFIG", "GET", "appendonly")).isEqualTo(Array.of(BulkString.of("appendonly"), BulkString.of("no")));
        }
    }
}
