package io.kvd.server.command;

import io.kvd.server.scripting.LuaScripts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scripts and functions on node a of {@link ClusterFixture} (it serves bar and hello, in two
 * slots, not foo): the keys a script touches must be served here and share one slot, with Redis
 * 7.0's errors (script.c, scriptVerifyClusterState).
 */
class ClusterScriptsTest {
    private static final String NON_LOCAL = "Script attempted to access a non local key in a cluster node";
    private static final String CROSS_SLOT = "Script attempted to access keys that do not hash to the same slot";

    @TempDir
    Path dir;
    private CommandFixture kvd;

    @BeforeEach
    void startNodeA() {
        kvd = ClusterFixture.nodeA(dir);
    }

    private static String raised(String message, String script) {
        return "-ERR " + message + " script: " + LuaScripts.sha1hex(script.getBytes(StandardCharsets.UTF_8))
                + ", on @user_script:1.\r\n";
    }

    @Test
    void declaredKeysOfAnotherNodeAreMovedBeforeTheScriptRuns() {
        assertThat(kvd.call("EVAL", "return redis.call('SET', KEYS[1], 'v')", "1", "foo"))
                .isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
    }

    @Test
    void anUndeclaredKeyOfAnotherNodeIsRefusedToTheScript() {
        String script = "return redis.call('GET', 'foo')";
        assertThat(kvd.call("EVAL", script, "0")).isEqualTo(raised(NON_LOCAL, script));
        assertThat(kvd.call("EVAL", "return redis.pcall('GET', 'foo')['err']", "0"))
                .isEqualTo("$" + ("ERR " + NON_LOCAL).length() + "\r\nERR " + NON_LOCAL + "\r\n");
    }

    @Test
    void undeclaredKeysMustShareTheSlotOfTheFirstOne() {
        String script = "redis.call('SET', 'bar', '1') return redis.call('GET', 'hello')";
        assertThat(kvd.call("EVAL", script, "0")).isEqualTo(raised(CROSS_SLOT, script));
        assertThat(kvd.call("GET", "bar")).isEqualTo("$1\r\n1\r\n");
        assertThat(kvd.call("EVAL", "redis.call('SET', '{bar}2', '2') return redis.call('GET', 'bar')", "0"))
                .isEqualTo("$1\r\n1\r\n");
    }

    @Test
    void aSubcommandsKeyMustBeServedHereAndShareTheSlot() {
        String foreign = "return redis.call('XGROUP', 'CREATE', 'foo', 'g', '$', 'MKSTREAM')";
        assertThat(kvd.call("EVAL", foreign, "0")).isEqualTo(raised(NON_LOCAL, foreign));
        String crossSlot = "redis.call('XGROUP', 'CREATE', 'bar', 'g', '$', 'MKSTREAM') return redis.call('XINFO', 'STREAM', 'hello')";
        assertThat(kvd.call("EVAL", crossSlot, "0")).isEqualTo(raised(CROSS_SLOT, crossSlot));
    }

    @Test
    void theDeclaredKeysSetTheSlot() {
        String script = "return redis.call('GET', 'hello')";
        assertThat(kvd.call("EVAL", script, "1", "bar")).isEqualTo(raised(CROSS_SLOT, script));
        assertThat(kvd.call("EVAL", script, "1", "hello")).isEqualTo("$-1\r\n");
    }

    @Test
    void aFunctionAllowingCrossSlotKeysMayTouchEverySlotServedHere() {
        kvd.call("FUNCTION", "LOAD", """
                #!lua name=slots
                redis.register_function{function_name='both', flags={'allow-cross-slot-keys'}, callback=function()
                  redis.call('SET', 'bar', '1')
                  return redis.call('GET', 'hello')
                end}
                redis.register_function{function_name='remote', flags={'allow-cross-slot-keys'}, callback=function()
                  return redis.call('GET', 'foo')
                end}
                redis.register_function('strict', function() redis.call('GET', 'bar') return redis.call('GET', 'hello') end)""");
        assertThat(kvd.call("FCALL", "both", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("FCALL", "remote", "0"))
                .isEqualTo("-ERR " + NON_LOCAL + " script: remote, on @user_function:7.\r\n");
        assertThat(kvd.call("FCALL", "strict", "0"))
                .isEqualTo("-ERR " + CROSS_SLOT + " script: strict, on @user_function:9.\r\n");
    }
}
