package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import static io.kvd.it.support.Transcript.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHUTDOWN NOSAVE under a script past busy-reply-threshold: the writes the script made are not in
 * the AOF, as Redis exits before it propagates them; what was acknowledged before is.
 */
@ExtendWith(ServerLogsOnFailure.class)
class BusyScriptAofTest {
    @Test
    void shutdownNosaveUnderAScriptLeavesItsWritesOutOfTheAof() throws IOException {
        KvdProcess kvd = KvdProcess.start("--appendonly", "yes", "--appendfsync", "always", "--busy-reply-threshold", "50");
        try (RespConnection caller = RespConnection.open(kvd.port()); RespConnection other = RespConnection.open(kvd.port())) {
            assertThat(other.call("SET", "before", "1")).isEqualTo("+OK\r\n");
            caller.send(utf8("EVAL", "redis.call('SET', 'during', '1') local i = 0 while true do i = i + 1 end", "0"));
            BusyScriptDifferentialTest.awaitBusy(other);
            other.send(utf8("SHUTDOWN", "NOSAVE"));
            assertThat(BusyScriptDifferentialTest.isClosed(other)).isTrue();
            assertThat(BusyScriptDifferentialTest.isClosed(caller)).isTrue();
        }
        assertThat(kvd.stop()).isZero();
        String aof = Files.readString(kvd.dir().resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof"),
                StandardCharsets.ISO_8859_1);
        assertThat(aof).contains("before").doesNotContain("during");
    }
}
