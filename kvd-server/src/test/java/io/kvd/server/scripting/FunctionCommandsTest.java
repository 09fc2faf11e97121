package io.kvd.server.scripting;

import io.kvd.server.command.ClusterFixture;
import io.kvd.server.command.CommandFixture;
import io.kvd.server.protocol.Args;
import io.kvd.server.rdb.Crc64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * FUNCTION and FCALL as Redis 7.0: libraries in an interpreter of their own, the load-time
 * sandbox, KEYS and ARGV as the callback's arguments, the flags, the AOF records, and FUNCTION
 * DUMP's payload read as redis-server writes it.
 */
class FunctionCommandsTest {
    private static final String SETGET = "#!lua name=lib1\n"
            + "redis.register_function('setget', function(keys, args) redis.call('set', keys[1], args[1])"
            + " return redis.call('get', keys[1]) end)";
    private static final String READER = "#!lua name=lib2\n"
            + "redis.register_function{function_name='reader', callback=function(keys, args)"
            + " return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads'}";
    /** redis-server 7.0.15's FUNCTION DUMP of one library, its code LZF-compressed. */
    private static final String REDIS_DUMP = "f5c3405340631f23216c7561206e616d653d6d796c69620a72656469732e72656769"
            + "737465725f0b66756e6374696f6e28276d79400b02272c20400660120f292072657475726e202768656c6c6f20e008050527"
            + "20656e64290a008c0d0a5bad1b2fe4";

    private final CommandFixture kvd = new CommandFixture();

    @AfterEach
    void closeInterpreters() {
        kvd.server.scripting().close();
    }

    @Test
    void fcallPassesTheKeysAndTheArgumentsAsTheCallbacksTwoArguments() {
        assertThat(kvd.call("FUNCTION", "LOAD", SETGET)).isEqualTo(bulk("lib1"));
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v")).isEqualTo(bulk("v"));
        assertThat(kvd.call("FCALL", "SETGET", "1", "k", "w")).isEqualTo(bulk("w"));
        kvd.call("FUNCTION", "LOAD", "#!lua name=shape\n"
                + "redis.register_function('shape', function(keys, args) return {#keys, #args, keys[1], args[2]} end)");
        assertThat(kvd.call("FCALL", "shape", "1", "a", "b", "c")).isEqualTo("*4\r\n:1\r\n:2\r\n$1\r\na\r\n$1\r\nc\r\n");
    }

    @Test
    void fcallChecksTheFunctionThenTheKeyCount() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        assertThat(kvd.call("FCALL", "nosuch", "x")).isEqualTo("-ERR Function not found\r\n");
        assertThat(kvd.call("FCALL", "setget", "x")).isEqualTo("-ERR Bad number of keys provided\r\n");
        assertThat(kvd.call("FCALL", "setget", "2", "k"))
                .isEqualTo("-ERR Number of keys can't be greater than number of args\r\n");
        assertThat(kvd.call("FCALL", "setget", "-1")).isEqualTo("-ERR Number of keys can't be negative\r\n");
    }

    @Test
    void aLibrarysTopLevelSeesOnlyRegisterFunctionLogAndTheVersions() {
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nredis.call('set', 'x', 'y')")).isEqualTo(
                "-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent"
                        + " global variable 'call'\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nlocal x = string.len('x')")).isEqualTo(
                "-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent"
                        + " global variable 'string'\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nx = 1"))
                .isEqualTo("-ERR Error registering functions: ERR user_function:2: Attempt to modify a readonly table\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nredis.log(redis.LOG_NOTICE, redis.REDIS_VERSION)\n"
                + "redis.register_function('f', function() return string.len(tostring(redis.REDIS_VERSION_NUM)) end)"))
                .isEqualTo(bulk("a"));
        assertThat(kvd.call("FCALL", "f", "0")).isEqualTo(":6\r\n");
    }

    @Test
    void aLibraryCannotChangeWhatOtherLibrariesSee() {
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function = nil")).isEqualTo(
                "-ERR Error registering functions: ERR user_function:2: Attempt to modify a readonly table\r\n");
        kvd.call("FUNCTION", "LOAD", "#!lua name=b\nredis.register_function('change', function(keys, args)"
                + " local ok, err = pcall(loadstring(args[1])) return err end)\n"
                + "redis.register_function('upper', function(keys, args) return string.upper(args[1]) end)");
        assertThat(kvd.call("FCALL", "change", "0", "string.upper = nil"))
                .isEqualTo(bulk("[string \"string.upper = nil\"]:1: Attempt to modify a readonly table"));
        assertThat(kvd.call("FCALL", "change", "0", "rawset(_G, 'string', nil)"))
                .isEqualTo(bulk("Attempt to modify a readonly table"));
        assertThat(kvd.call("FCALL", "upper", "0", "a")).isEqualTo(bulk("A"));
    }

    @Test
    void theShebangAndRegisterFunctionAreCheckedAsRedisChecksThem() {
        assertThat(kvd.call("FUNCTION", "LOAD", "return 1")).isEqualTo("-ERR Missing library metadata\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a")).isEqualTo("-ERR Invalid library metadata\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a x=1\n"))
                .isEqualTo("-ERR Invalid metadata value given: x=1\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a-b\n"))
                .isEqualTo("-ERR " + FunctionLibraries.INVALID_NAME + "\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!js name=a\n")).isEqualTo("-ERR Engine 'js' not found\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nreturn 1")).isEqualTo("-ERR No functions registered\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function('f', function() end)\n"
                + "redis.register_function('f', function() end)"))
                .isEqualTo("-ERR Error registering functions: ERR Function already exists in the library\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\n"
                + "redis.register_function{function_name='f', callback=function() end, flags={'bad'}}"))
                .isEqualTo("-ERR Error registering functions: ERR unknown flag given\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function{function_name='f'}"))
                .isEqualTo("-ERR Error registering functions: ERR redis.register_function must get a callback argument\r\n");
        assertThat(kvd.call("FUNCTION", "LIST")).isEqualTo("*0\r\n");
    }

    @Test
    void aNameCollisionLeavesTheLibrariesAsTheyWereAndReplaceSwapsALibrary() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        assertThat(kvd.call("FUNCTION", "LOAD", SETGET)).isEqualTo("-ERR Library 'lib1' already exists\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=other\nredis.register_function('SetGet', function() end)"))
                .isEqualTo("-ERR Function SetGet already exists\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", "REPLACE", "#!lua name=lib1\nreturn 1"))
                .isEqualTo("-ERR No functions registered\r\n");
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v")).isEqualTo(bulk("v"));
        assertThat(kvd.call("FUNCTION", "LOAD", "REPLACE", "#!lua name=lib1\nredis.register_function('two', function() return 2 end)"))
                .isEqualTo(bulk("lib1"));
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v")).isEqualTo("-ERR Function not found\r\n");
        assertThat(kvd.call("FCALL", "two", "0")).isEqualTo(":2\r\n");
    }

    @Test
    void noWritesRefusesWritesInsideAndFcallRoRunsOnlyNoWritesFunctions() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FUNCTION", "LOAD", READER);
        kvd.call("FUNCTION", "LOAD", "#!lua name=lib3\nredis.register_function{function_name='sneaky',"
                + " callback=function(keys) return redis.call('set', keys[1], 'x') end, flags={'no-writes'}}");
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("FCALL_RO", "reader", "1", "k")).isEqualTo(bulk("v"));
        assertThat(kvd.call("FCALL_RO", "setget", "1", "k", "v"))
                .isEqualTo("-ERR Can not execute a script with write flag using *_ro command.\r\n");
        assertThat(kvd.call("FCALL", "sneaky", "1", "k")).isEqualTo(
                "-ERR Write commands are not allowed from read-only scripts. script: sneaky, on @user_function:2.\r\n");
    }

    @Test
    void aFailingAofRefusesAWritingFunctionAndLibraryChanges() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FUNCTION", "LOAD", READER);
        kvd.server.commandLog().setFailure("No space left on device");
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v"))
                .isEqualTo("-MISCONF Errors writing to the AOF file: No space left on device\r\n");
        assertThat(kvd.call("FCALL", "reader", "1", "k")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("FUNCTION", "DELETE", "lib1"))
                .isEqualTo("-MISCONF Errors writing to the AOF file: No space left on device\r\n");
        assertThat(kvd.call("FUNCTION", "LIST", "LIBRARYNAME", "lib1")).startsWith("*1\r\n");
    }

    @Test
    void onAClusterNodeFcallsKeysMustBeServedHereAndNoClusterFunctionsAreRefused(@TempDir Path dir) {
        CommandFixture node = ClusterFixture.nodeA(dir);
        try {
            node.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function{function_name='local_only',"
                    + " callback=function() return 1 end, flags={'no-cluster'}}");
            assertThat(node.call("FCALL", "local_only", "0"))
                    .isEqualTo("-ERR Can not run script on cluster, 'no-cluster' flag is set.\r\n");
            node.call("FUNCTION", "LOAD", SETGET);
            assertThat(node.call("FCALL", "setget", "1", "foo", "v")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
            assertThat(node.call("FCALL_RO", "setget", "1", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        } finally {
            node.server.scripting().close();
        }
    }

    @Test
    void functionListPrintsFlagsInRedisOrderAndTheCodeOnRequest() {
        kvd.call("FUNCTION", "LOAD", READER);
        kvd.call("FUNCTION", "LOAD", "#!lua name=flags\nredis.register_function{function_name='f',"
                + " callback=function() end, flags={'allow-cross-slot-keys', 'allow-oom', 'no-writes'}}");
        assertThat(kvd.call("FUNCTION", "LIST", "LIBRARYNAME", "FL*")).isEqualTo("*1\r\n*6\r\n"
                + bulk("library_name") + bulk("flags") + bulk("engine") + bulk("LUA") + bulk("functions")
                + "*1\r\n*6\r\n" + bulk("name") + bulk("f") + bulk("description") + "$-1\r\n" + bulk("flags")
                + "*3\r\n+no-writes\r\n+allow-oom\r\n+allow-cross-slot-keys\r\n");
        assertThat(kvd.call("FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "lib2")).isEqualTo("*1\r\n*8\r\n"
                + bulk("library_name") + bulk("lib2") + bulk("engine") + bulk("LUA") + bulk("functions")
                + "*1\r\n*6\r\n" + bulk("name") + bulk("reader") + bulk("description") + bulk("reads") + bulk("flags")
                + "*1\r\n+no-writes\r\n" + bulk("library_code") + bulk(READER));
    }

    @Test
    void statsCountsLibrariesAndFunctionsAndFlushEmptiesThem() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FUNCTION", "LOAD", READER);
        String engines = bulk("running_script") + "$-1\r\n" + bulk("engines") + "*2\r\n" + bulk("LUA") + "*4\r\n"
                + bulk("libraries_count");
        assertThat(kvd.call("FUNCTION", "STATS")).isEqualTo("*4\r\n" + engines + ":2\r\n" + bulk("functions_count") + ":2\r\n");
        assertThat(kvd.call("INFO", "memory")).contains("number_of_functions:2\r\nnumber_of_libraries:2\r\n");
        assertThat(kvd.call("FUNCTION", "DELETE", "lib1")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("FUNCTION", "DELETE", "lib1")).isEqualTo("-ERR Library not found\r\n");
        assertThat(kvd.call("FUNCTION", "FLUSH", "ASYNC")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("FUNCTION", "STATS")).isEqualTo("*4\r\n" + engines + ":0\r\n" + bulk("functions_count") + ":0\r\n");
        assertThat(kvd.call("FCALL", "reader", "0")).isEqualTo("-ERR Function not found\r\n");
        assertThat(kvd.call("FUNCTION", "KILL")).isEqualTo("-NOTBUSY No scripts in execution right now.\r\n");
    }

    @Test
    void aFunctionsWritesAreLoggedAsTheCommandsItRanAndLibraryChangesAsSent() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FCALL", "setget", "1", "k", "v");
        kvd.call("FUNCTION", "LOAD", "#!lua name=two\nredis.register_function('two', function(keys)"
                + " redis.call('set', keys[1], 'a') return redis.call('incr', keys[2]) end)");
        kvd.call("FCALL", "two", "2", "a", "b");
        kvd.call("FUNCTION", "DELETE", "nosuch");
        kvd.call("FUNCTION", "DELETE", "lib1");
        kvd.call("FUNCTION", "FLUSH");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("FUNCTION", "LOAD", SETGET)
                + record("set", "k", "v")
                + record("FUNCTION", "LOAD", "#!lua name=two\nredis.register_function('two', function(keys)"
                + " redis.call('set', keys[1], 'a') return redis.call('incr', keys[2]) end)")
                + record("MULTI") + record("set", "a", "a") + record("incr", "b") + record("EXEC")
                + record("FUNCTION", "DELETE", "lib1") + record("FUNCTION", "FLUSH"));
    }

    @Test
    void aLibraryStillRunningItsTopLevelAfterHalfASecondIsStopped() {
        assertThat(kvd.call("FUNCTION", "LOAD", "#!lua name=a\nwhile true do end"))
                .isEqualTo("-ERR Error registering functions: ERR FUNCTION LOAD timeout\r\n");
        assertThat(kvd.call("FUNCTION", "LOAD", SETGET)).isEqualTo(bulk("lib1"));
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v")).isEqualTo(bulk("v"));
    }

    @Test
    void functionsAndEvalRunInSeparateInterpreters() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        assertThat(kvd.call("EVAL", "return type(redis.register_function)", "0")).isEqualTo(bulk("nil"));
        kvd.call("SCRIPT", "FLUSH");
        assertThat(kvd.call("FCALL", "setget", "1", "k", "v")).isEqualTo(bulk("v"));
    }

    @Test
    void restoreReadsRedisServersLzfCompressedDump() {
        byte[] payload = HexFormat.of().parseHex(REDIS_DUMP);
        assertThat(restore(payload)).isEqualTo("+OK\r\n");
        assertThat(kvd.call("FCALL", "myfunc", "0")).isEqualTo(bulk("hello hello hello hello"));
        assertThat(restore(payload)).isEqualTo("-ERR Library mylib already exists\r\n");
        assertThat(restore(payload, "REPLACE")).isEqualTo("+OK\r\n");
        payload[3] ^= 1;
        assertThat(restore(payload)).isEqualTo("-ERR DUMP payload version or checksum are wrong\r\n");
    }

    @Test
    void dumpThenRestoreWithFlushGivesBackTheSameLibraries() {
        kvd.call("FUNCTION", "LOAD", SETGET);
        kvd.call("FUNCTION", "LOAD", READER);
        String listed = kvd.call("FUNCTION", "LIST", "WITHCODE");
        byte[] payload = payload(kvd.callRaw("FUNCTION", "DUMP"));
        kvd.call("FUNCTION", "LOAD", "#!lua name=extra\nredis.register_function('extra', function() end)");
        assertThat(restore(payload, "FLUSH")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("FUNCTION", "LIST", "WITHCODE")).isEqualTo(listed);
        assertThat(FunctionPayload.read(payload)).hasSize(2);
    }

    @Test
    void dumpWritesTheBytesRedisServerWrites() {
        kvd.call("FUNCTION", "LOAD", "#!lua name=mylib\nredis.register_function('myfunc', function() return 'hello hello hello hello' end)");
        assertThat(HexFormat.of().formatHex(payload(kvd.callRaw("FUNCTION", "DUMP")))).isEqualTo(REDIS_DUMP);
    }

    @Test
    void aPayloadClaimingMoreBytesThanItHoldsIsRefused() {
        byte[] body = {(byte) 0xF5, (byte) 0x80, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 'x'};
        byte[] payload = FunctionPayload.write(List.of());
        byte[] claimed = new byte[body.length + payload.length];
        System.arraycopy(body, 0, claimed, 0, body.length);
        claimed[body.length] = 10;
        long crc = Crc64.of(claimed, body.length + 2);
        for (int i = 0; i < 8; i++) {
            claimed[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        assertThat(restore(claimed)).isEqualTo("-ERR failed loading the given functions payload\r\n");
    }

    @Test
    void randomPayloadsWithAValidChecksumAreRefusedWithAnErrorNeverACrash() {
        long seed = 20261203L;
        System.out.println("seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] starts = {{(byte) 0xF5}, {(byte) 0xF5, (byte) 0xC3}, {(byte) 0xF5, (byte) 0x80}, {(byte) 0xF6}, {}};
        for (int round = 0; round < 2000; round++) {
            byte[] start = starts[random.nextInt(starts.length)];
            byte[] body = new byte[start.length + random.nextInt(40)];
            random.nextBytes(body);
            System.arraycopy(start, 0, body, 0, start.length);
            byte[] payload = java.util.Arrays.copyOf(body, body.length + 10);
            payload[body.length] = 10;
            long crc = Crc64.of(payload, body.length + 2);
            for (int i = 0; i < 8; i++) {
                payload[body.length + 2 + i] = (byte) (crc >>> (8 * i));
            }
            assertThat(restore(payload)).as("payload %s", HexFormat.of().formatHex(payload)).matches("(?s)(\\+OK|-ERR .*)\r\n");
        }
    }

    /** A bulk reply's bytes. */
    private static byte[] payload(byte[] bulk) {
        int start = new String(bulk, StandardCharsets.ISO_8859_1).indexOf("\r\n") + 2;
        return java.util.Arrays.copyOfRange(bulk, start, bulk.length - 2);
    }

    private String restore(byte[] payload, String... policy) {
        byte[][] argv = new byte[3 + policy.length][];
        argv[0] = Args.bytes("FUNCTION");
        argv[1] = Args.bytes("RESTORE");
        argv[2] = payload;
        for (int i = 0; i < policy.length; i++) {
            argv[3 + i] = Args.bytes(policy[i]);
        }
        kvd.commands.call(kvd.client, argv);
        return kvd.pendingOutput(kvd.client);
    }
}
