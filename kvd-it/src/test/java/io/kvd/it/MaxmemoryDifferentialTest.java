package io.kvd.it;

import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;

/**
 * maxmemory's replies against redis-server's, byte for byte: the OOM refusal of denyoom commands,
 * of MULTI and EXEC, of scripts by their flags and of a script's first write, what still runs
 * when memory is full, OBJECT FREQ and IDLETIME under each kind of policy, and CONFIG SET and
 * GET of every directive. Memory is full on both by a limit of 1 byte with a key stored, where
 * neither can evict under noeviction.
 */
@ExtendWith(ServerLogsOnFailure.class)
class MaxmemoryDifferentialTest {
    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start("--appendonly", "no");
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void fullMemoryRefusesWhatMayGrowItAndRunsTheRest() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port)) {
                t.call("c", c, "SET", "a", "1");
                t.call("c", c, "FUNCTION", "LOAD", "#!lua name=lib\n"
                        + "redis.register_function('w', function() return redis.call('set', 'x', 'y') end)\n"
                        + "redis.register_function{function_name='oom', callback=function() return redis.call('set', 'x', 'y') end,"
                        + " flags={'allow-oom'}}\n"
                        + "redis.register_function{function_name='r', callback=function() return redis.call('get', 'a') end,"
                        + " flags={'no-writes'}}");
                t.call("c", c, "CONFIG", "SET", "maxmemory", "1");
                t.call("c", c, "SET", "b", "1");
                t.call("c", c, "APPEND", "a", "x");
                t.call("c", c, "GET", "a");
                t.call("c", c, "DEL", "nothing");
                t.call("c", c, "EVAL", "return redis.call('set', 'x', 'y')", "0");
                t.call("c", c, "EVAL", "redis.call('del', 'nothing'); return redis.call('set', 'x', 'y')", "0");
                t.call("c", c, "EVAL", "#!lua\nreturn redis.call('set', 'x', 'y')", "0");
                t.call("c", c, "EVAL", "#!lua flags=no-writes\nreturn redis.call('get', 'a')", "0");
                t.call("c", c, "FCALL", "w", "0");
                t.call("c", c, "FCALL", "r", "0");
                t.call("c", c, "MULTI");
                t.call("c", c, "GET", "a");
                t.call("c", c, "EXEC");
                t.call("c", c, "MULTI");
                t.call("c", c, "DISCARD");
                t.call("c", c, "OBJECT", "FREQ", "a");
                t.call("c", c, "OBJECT", "IDLETIME", "nothing");
                t.call("c", c, "CONFIG", "SET", "maxmemory", "0");
                t.call("c", c, "FCALL", "oom", "0");
                t.call("c", c, "SET", "b", "1");
                t.call("c", c, "CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
                t.call("c", c, "OBJECT", "IDLETIME", "a");
                t.call("c", c, "CONFIG", "SET", "maxmemory-policy", "volatile-lru");
                t.call("c", c, "OBJECT", "FREQ", "a");
            }
        });
    }

    @Test
    void everyDirectiveIsSetAndShownAsRedisDoes() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port)) {
                for (String[] setting : new String[][] {
                        {"maxmemory", "64mb"}, {"maxmemory", "1g"}, {"maxmemory", "-1"}, {"maxmemory", "lots"},
                        {"maxmemory-policy", "ALLKEYS-LRU"}, {"maxmemory-policy", "bogus"},
                        {"maxmemory-samples", "10"}, {"maxmemory-samples", "0"},
                        {"maxmemory-eviction-tenacity", "100"}, {"maxmemory-eviction-tenacity", "101"},
                        {"lfu-log-factor", "0"}, {"lfu-log-factor", "-1"},
                        {"lfu-decay-time", "0"}, {"lfu-decay-time", "x"}}) {
                    t.call("c", c, "CONFIG", "SET", setting[0], setting[1]);
                    t.call("c", c, "CONFIG", "GET", setting[0]);
                }
            }
        });
    }
}
