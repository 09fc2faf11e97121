package io.kvd.server.scripting;

import io.kvd.server.client.Client;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * EVAL, EVALSHA, their read-only forms and SCRIPT, with Redis 7.0's conversions between Lua and
 * replies, its error texts, and a script's writes logged as the commands it ran.
 */
class ScriptingCommandsTest {
    private final CommandFixture kvd = new CommandFixture();

    @AfterEach
    void closeInterpreter() {
        LuaEngines.of(kvd.server).scripts().flush();
    }

    /** Redis's suffix of an error raised inside a script: its sha1 and the script's line. */
    private static String at(String script, int line) {
        return " script: " + LuaScripts.sha1hex(script.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                + ", on @user_script:" + line + ".\r\n";
    }

    @Test
    void redisCallRepliesBecomeLuaValuesAndBack() {
        kvd.call("SET", "k", "v");
        kvd.call("RPUSH", "l", "a", "b");
        assertThat(kvd.call("EVAL", "return redis.call('GET', KEYS[1])", "1", "k")).isEqualTo("$1\r\nv\r\n");
        assertThat(kvd.call("EVAL", "return redis.call('GET', 'nokey')", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EVAL", "return redis.call('GET', 'nokey') == false", "0")).isEqualTo(":1\r\n");
        assertThat(kvd.call("EVAL", "return redis.call('RPUSH', 'l', 'c') + 0.5", "0")).isEqualTo(":3\r\n");
        assertThat(kvd.call("EVAL", "return redis.call('LRANGE', 'l', 0, -1)", "0"))
                .isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n");
        assertThat(kvd.call("EVAL", "return redis.call('SET', 'k', 'w').ok", "0")).isEqualTo("$2\r\nOK\r\n");
    }

    @Test
    void luaValuesBecomeRepliesAsRedisConvertsThem() {
        assertThat(kvd.call("EVAL", "return {1, -2.9, 'x', true, false, nil, 5}", "0"))
                .isEqualTo("*5\r\n:1\r\n:-2\r\n$1\r\nx\r\n:1\r\n$-1\r\n");
        assertThat(kvd.call("EVAL", "return nil", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EVAL", "return {ok='fine'}", "0")).isEqualTo("+fine\r\n");
        assertThat(kvd.call("EVAL", "return {err='MY bad'}", "0")).isEqualTo("-MY bad\r\n");
        assertThat(kvd.call("EVAL", "return redis.error_reply('bad')", "0")).isEqualTo("-ERR bad\r\n");
        assertThat(kvd.call("EVAL", "return redis.status_reply('fine')", "0")).isEqualTo("+fine\r\n");
        assertThat(kvd.call("EVAL", "return {1, {2, {3}}, {}}", "0")).isEqualTo("*3\r\n:1\r\n*2\r\n:2\r\n*1\r\n:3\r\n*0\r\n");
    }

    @Test
    void aTableHoldingItselfNestsAsDeepAsLuasStackThenErrs() {
        String reply = kvd.call("EVAL", "local t = {} t[1] = t return t", "0");
        // Redis 7.0.15 answers the same 7,995 levels.
        assertThat(reply).isEqualTo("*1\r\n".repeat(7995) + "-ERR reached lua stack limit\r\n");
    }

    @Test
    void keysAndArgvArriveByteForByte() {
        assertThat(kvd.call("EVAL", "return {KEYS[1], ARGV[1], ARGV[2], #ARGV}", "1", "k", "\u00e9\u0000x", "2"))
                .isEqualTo("*4\r\n$1\r\nk\r\n$4\r\n\u00e9\u0000x\r\n$1\r\n2\r\n:2\r\n");
        assertThat(kvd.call("EVAL", "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('STRLEN', KEYS[1])", "1", "k", "\u00e9"))
                .isEqualTo(":2\r\n");
    }

    @Test
    void numbersPassedToCommandsAreFormattedWithSeventeenDigits() {
        kvd.call("EVAL", "redis.call('SET', 'a', 0.1) redis.call('SET', 'b', 3) redis.call('SET', 'c', 1e20)", "0");
        assertThat(kvd.call("MGET", "a", "b", "c")).isEqualTo("*3\r\n$19\r\n0.10000000000000001\r\n$1\r\n3\r\n$5\r\n1e+20\r\n");
    }

    @Test
    void callRaisesACommandErrorAndPcallReturnsIt() {
        kvd.call("SET", "s", "abc");
        String call = "return redis.call('INCR', KEYS[1])";
        assertThat(kvd.call("EVAL", call, "1", "s"))
                .isEqualTo("-ERR value is not an integer or out of range" + at(call, 1));
        assertThat(kvd.call("EVAL", "return redis.pcall('INCR', KEYS[1])", "1", "s"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("EVAL", "return redis.pcall('HGET', KEYS[1], 'f')", "1", "s"))
                .isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("EVAL", "return redis.pcall('nosuch')", "0"))
                .isEqualTo("-ERR Unknown Redis command called from script\r\n");
    }

    @Test
    void scriptErrorsCarryTheScriptAndLine() {
        String boom = "local a = 1\nerror('boom')";
        assertThat(kvd.call("EVAL", boom, "0")).isEqualTo("-ERR user_script:2: boom" + at(boom, 2));
        String table = "error({err='MY bad'})";
        assertThat(kvd.call("EVAL", table, "0")).isEqualTo("-MY bad" + at(table, 1));
        String wrongArgs = "return redis.call('GET')";
        assertThat(kvd.call("EVAL", wrongArgs, "0"))
                .isEqualTo("-ERR Wrong number of args calling Redis command from script" + at(wrongArgs, 1));
        assertThat(kvd.call("EVAL", "return 'a' ..", "0"))
                .isEqualTo("-ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'\r\n");
    }

    @Test
    void globalsAreReadOnlyAndMissingOnesAnError() {
        assertThat(kvd.call("EVAL", "x = 1", "0"))
                .isEqualTo("-ERR user_script:1: Attempt to modify a readonly table" + at("x = 1", 1));
        assertThat(kvd.call("EVAL", "return os", "0"))
                .isEqualTo("-ERR user_script:1: Script attempted to access nonexistent global variable 'os'" + at("return os", 1));
        assertThat(kvd.call("EVAL", "return {type(unpack), type(loadstring), type(table.getn), type(math.mod)}", "0"))
                .isEqualTo("*4\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n");
    }

    @Test
    void aScriptCannotChangeTheLibrariesAnotherClientsScriptsUse() {
        Client other = kvd.newClient();
        kvd.call("SET", "x", "1");
        for (String change : new String[]{"redis.call = function() return 'pwned' end", "string.upper = nil",
                "table.insert = nil", "cjson.encode = nil", "redis = nil", "_G.string = nil",
                "loadstring('redis = nil')()", "getmetatable('').__index = {}"}) {
            String sha = LuaScripts.sha1hex(change.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(kvd.call("EVAL", change, "0")).as(change).startsWith("-ERR ")
                    .contains("Attempt to modify a readonly table script: " + sha);
        }
        assertThat(kvd.callAs(other, "EVAL", "return {redis.call('GET', 'x'), string.upper('a'), ('b'):upper(),"
                + " cjson.encode({1})}", "0")).isEqualTo("*4\r\n$1\r\n1\r\n$1\r\nA\r\n$1\r\nB\r\n$3\r\n[1]\r\n");
    }

    @Test
    void rawsetSetmetatableAndTableInsertRefuseAProtectedTableWithoutAPosition() {
        String rawset = "rawset(redis, 'call', nil)";
        assertThat(kvd.call("EVAL", rawset, "0")).isEqualTo("-ERR Attempt to modify a readonly table" + at(rawset, 1));
        String setmetatable = "setmetatable(string, {})";
        assertThat(kvd.call("EVAL", setmetatable, "0"))
                .isEqualTo("-ERR Attempt to modify a readonly table" + at(setmetatable, 1));
        String insert = "table.insert(math, 1)";
        assertThat(kvd.call("EVAL", insert, "0")).isEqualTo("-ERR Attempt to modify a readonly table" + at(insert, 1));
        String badArgument = "rawset(redis, 'x')";
        assertThat(kvd.call("EVAL", badArgument, "0"))
                .isEqualTo("-ERR user_script:1: bad argument #3 to 'rawset' (value expected)" + at(badArgument, 1));
    }

    @Test
    void protectedTablesStillReadIterateAndAnswerTheBaseFunctions() {
        assertThat(kvd.call("EVAL", "local n = 0 for k in pairs(string) do n = n + 1 end return n", "0")).isEqualTo(":15\r\n");
        assertThat(kvd.call("EVAL", "return {type(rawget(string, 'upper')), type(getmetatable(redis)),"
                + " type(getmetatable(_G)), tostring(getmetatable('').__index == string), tostring(_G._G == _G)}", "0"))
                .isEqualTo("*5\r\n$8\r\nfunction\r\n$3\r\nnil\r\n$5\r\ntable\r\n$4\r\ntrue\r\n$4\r\ntrue\r\n");
        assertThat(kvd.call("EVAL", "KEYS[1] = 'changed' local t = {} table.insert(t, KEYS[1]) return t", "1", "k"))
                .isEqualTo("*1\r\n$7\r\nchanged\r\n");
    }

    @Test
    void errorReplyTakesItsCodeFromTheFirstWordAfterTheDashItAdds() {
        assertThat(kvd.call("EVAL", "return redis.error_reply('My Error')", "0")).isEqualTo("-My Error\r\n");
        assertThat(kvd.call("EVAL", "return redis.error_reply('ERR My Error')", "0")).isEqualTo("-ERR My Error\r\n");
        assertThat(kvd.call("EVAL", "return redis.error_reply('-WRONG')", "0")).isEqualTo("-ERR WRONG\r\n");
        assertThat(kvd.call("EVAL", "return redis.error_reply('-\\nMy Error\\r\\n')", "0")).isEqualTo("- My Error\r\n");
    }

    @Test
    void aclCheckCmdAllowsEveryCommandOfTheDefaultUserAndRefusesUnknownOnes() {
        assertThat(kvd.call("EVAL", "return {redis.acl_check_cmd('set', 'k', 'v'), redis.acl_check_cmd('client'),"
                + " redis.acl_check_cmd('CONFIG', 'GET', 'x')}", "0")).isEqualTo("*3\r\n:1\r\n:1\r\n:1\r\n");
        String unknown = "return redis.acl_check_cmd('config', 'nosuch')";
        assertThat(kvd.call("EVAL", unknown, "0"))
                .isEqualTo("-ERR Invalid command passed to redis.acl_check_cmd()" + at(unknown, 1));
        String none = "return redis.acl_check_cmd()";
        assertThat(kvd.call("EVAL", none, "0"))
                .isEqualTo("-ERR Please specify at least one argument for this redis lib call" + at(none, 1));
    }

    @Test
    void commandsScriptsMayNotRunAreRefusedAndBlockingOnesDoNotBlock() {
        String multi = "return redis.call('MULTI')";
        assertThat(kvd.call("EVAL", multi, "0")).isEqualTo("-ERR This Redis command is not allowed from script" + at(multi, 1));
        assertThat(kvd.call("EVAL", "return redis.call('BLMPOP', 0, 1, 'q', 'LEFT')", "0")).isEqualTo("$-1\r\n");
    }

    @Test
    void numkeysMustFitTheArguments() {
        assertThat(kvd.call("EVAL", "return 1", "2", "a")).isEqualTo("-ERR Number of keys can't be greater than number of args\r\n");
        assertThat(kvd.call("EVAL", "return 1", "-1")).isEqualTo("-ERR Number of keys can't be negative\r\n");
        assertThat(kvd.call("EVAL", "return 1", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void scriptLoadCachesBySha1ForEvalshaUntilFlush() {
        String sha = LuaScripts.sha1hex("return ARGV[1]".getBytes());
        assertThat(kvd.call("EVALSHA", sha, "0", "x")).isEqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n");
        assertThat(kvd.call("SCRIPT", "LOAD", "return ARGV[1]")).isEqualTo("$40\r\n" + sha + "\r\n");
        assertThat(kvd.call("SCRIPT", "EXISTS", sha, sha.toUpperCase(), "ffff")).isEqualTo("*3\r\n:1\r\n:1\r\n:0\r\n");
        assertThat(kvd.call("EVALSHA", sha.toUpperCase(), "0", "x")).isEqualTo("$1\r\nx\r\n");
        assertThat(kvd.call("SCRIPT", "FLUSH", "ASYNC")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("SCRIPT", "EXISTS", sha)).isEqualTo("*1\r\n:0\r\n");
        assertThat(kvd.call("SCRIPT", "FLUSH", "LATER")).isEqualTo("-ERR SCRIPT FLUSH only support SYNC|ASYNC option\r\n");
        assertThat(kvd.call("EVAL", "return ARGV[1]", "0", "y")).isEqualTo("$1\r\ny\r\n");
        assertThat(kvd.call("SCRIPT", "EXISTS", sha)).isEqualTo("*1\r\n:1\r\n");
    }

    @Test
    void readOnlyScriptsRefuseWrites() {
        String set = "return redis.call('SET', KEYS[1], 'v')";
        assertThat(kvd.call("EVAL_RO", set, "1", "k"))
                .isEqualTo("-ERR Write commands are not allowed from read-only scripts." + at(set, 1));
        assertThat(kvd.call("EVAL_RO", "return redis.call('EXISTS', KEYS[1])", "1", "k")).isEqualTo(":0\r\n");
        String sha = LuaScripts.sha1hex(set.getBytes());
        kvd.call("SCRIPT", "LOAD", set);
        assertThat(kvd.call("EVALSHA_RO", sha, "1", "k"))
                .isEqualTo("-ERR Write commands are not allowed from read-only scripts." + at(set, 1));
        assertThat(kvd.call("EVALSHA", sha, "1", "k")).isEqualTo("+OK\r\n");
    }

    @Test
    void readOnlyScriptsRefuseWriteSubcommands() {
        String create = "return redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')";
        assertThat(kvd.call("EVAL_RO", create, "1", "s"))
                .isEqualTo("-ERR Write commands are not allowed from read-only scripts." + at(create, 1));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(":0\r\n");
        assertThat(kvd.call("EVAL_RO", "return redis.call('XINFO', 'HELP')[1]", "0"))
                .isEqualTo("+XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n");
    }

    @Test
    void aFailingAofRefusesAScriptsWriteSubcommands() {
        kvd.server.commandLog().setFailure("No space left on device");
        String create = "return redis.call('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM')";
        assertThat(kvd.call("EVAL", create, "0"))
                .isEqualTo("-MISCONF Errors writing to the AOF file: No space left on device" + at(create, 1));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(":0\r\n");
    }

    @Test
    void aFailingAofRefusesAScriptsWritesButNotItsReads() {
        kvd.server.commandLog().setFailure("No space left on device");
        String set = "return redis.call('SET', 'k', 'v')";
        assertThat(kvd.call("EVAL", set, "0"))
                .isEqualTo("-MISCONF Errors writing to the AOF file: No space left on device" + at(set, 1));
        assertThat(kvd.call("EVAL", "return redis.call('EXISTS', 'k')", "0")).isEqualTo(":0\r\n");
    }

    @Test
    void aScriptsWritesAreLoggedAsMultiExecOfTheCommandsItRan() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("EVAL", "redis.call('SET', 'a', '1') redis.call('GET', 'a') redis.call('INCR', 'a') return redis.call('EXPIRE', 'a', 10)", "0");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("MULTI") + record("SET", "a", "1")
                + record("INCR", "a") + record("PEXPIREAT", "a", Long.toString(CommandFixture.START_MS + 10_000))
                + record("EXEC"));
    }

    @Test
    void aScriptWithOneWriteIsLoggedAsThatCommandAndOneWithoutNone() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("EVAL", "return redis.call('SET', 'a', 1)", "0");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("SET", "a", "1"));
        kvd.call("EVAL", "return redis.call('GET', 'a')", "0");
        kvd.call("EVAL", "return redis.pcall('HSET', 'a', 'f', 'v') and redis.call('SET', 'a', '1', 'NX')", "0");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void selectInsideAScriptIsLoggedAndDoesNotMoveTheCaller() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("EVAL", "redis.call('SELECT', 1) return redis.call('SET', 'a', 'b')", "0");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "1") + record("SET", "a", "b"));
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void aScriptInsideExecJoinsTheTransactionsBlock() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("MULTI");
        kvd.call("SET", "a", "1");
        kvd.call("EVAL", "return redis.call('SET', 'b', '2')", "0");
        assertThat(kvd.call("EXEC")).isEqualTo("*2\r\n+OK\r\n+OK\r\n");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("MULTI") + record("SET", "a", "1")
                + record("SET", "b", "2") + record("EXEC"));
    }

    @Test
    void aClientBlockedOnAKeyTheScriptFillsIsServedAfterTheScript() {
        Client waiting = kvd.newClient();
        assertThat(kvd.callAs(waiting, "BLPOP", "q", "0")).isEmpty();
        assertThat(kvd.call("EVAL", "redis.call('RPUSH', 'q', 'a') redis.call('RPUSH', 'q', 'b') return redis.call('LPOP', 'q')", "0"))
                .isEqualTo("$1\r\na\r\n");
        assertThat(kvd.pending(waiting)).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\nb\r\n");
    }

    @Test
    void redisLibraryHelpersAnswerAsRedis() {
        assertThat(kvd.call("EVAL", "return redis.sha1hex('abc')", "0")).isEqualTo("$40\r\na9993e364706816aba3e25717850c26c9cd0d89d\r\n");
        assertThat(kvd.call("EVAL", "return redis.setresp(2)", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EVAL", "return redis.set_repl(redis.REPL_ALL)", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EVAL", "return redis.log(redis.LOG_NOTICE, 'from a script')", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EVAL", "return redis.setresp(3)", "0")).isEqualTo("$-1\r\n");
        String resp4 = "return redis.setresp(4)";
        assertThat(kvd.call("EVAL", resp4, "0")).isEqualTo("-ERR RESP version must be 2 or 3." + at(resp4, 1));
    }

    @Test
    void afterSetresp3AScriptReadsResp3TypesAsRedisShowsThemToLua() {
        kvd.call("HSET", "h", "f", "v");
        kvd.call("ZADD", "z", "1.5", "m");
        assertThat(kvd.call("EVAL", "redis.setresp(3); return redis.call('hgetall', KEYS[1]).map.f", "1", "h"))
                .isEqualTo("$1\r\nv\r\n");
        assertThat(kvd.call("EVAL", "redis.setresp(3); return tostring(redis.call('zscore', KEYS[1], 'm').double)",
                "1", "z")).isEqualTo("$3\r\n1.5\r\n");
        assertThat(kvd.call("EVAL", "redis.setresp(3); return type(redis.call('get', 'none'))", "0"))
                .isEqualTo("$3\r\nnil\r\n");
        // A boolean returned after setresp(3) is a boolean, which a RESP2 caller reads as 1 or 0.
        assertThat(kvd.call("EVAL", "redis.setresp(3); return {true, false}", "0")).isEqualTo("*2\r\n:1\r\n:0\r\n");
        assertThat(kvd.call("EVAL", "return {true, false}", "0")).isEqualTo("*2\r\n:1\r\n$-1\r\n");
    }

    @Test
    void aScriptThatHasWrittenRunsToItsEndPastTheThreshold() {
        kvd.call("CONFIG", "SET", "busy-reply-threshold", "1");
        String script = "redis.call('SET', 'k', 'v') local i = 0 while i < 3000000 do i = i + 1 end return i";
        assertThat(kvd.call("EVAL", script, "0")).isEqualTo(":3000000\r\n");
        assertThat(kvd.call("GET", "k")).isEqualTo("$1\r\nv\r\n");
    }

    @Test
    void evalKeepsTheLastFiveHundredScriptsItLoadedWhileScriptLoadKeepsItsOwn() {
        String loaded = sha("return 'loaded'");
        assertThat(kvd.call("SCRIPT", "LOAD", "return 'loaded'")).isEqualTo(bulk(loaded));
        kvd.call("EVAL", "return 'promoted'", "0");
        kvd.call("SCRIPT", "LOAD", "return 'promoted'");
        kvd.call("EVAL", "return 'oldest'", "0");
        kvd.call("EVAL", "return 'run again'", "0");
        for (int i = 0; i < LuaScripts.EVAL_SCRIPTS_KEPT - 2; i++) {
            kvd.call("EVAL", "return " + i, "0");
        }
        assertThat(kvd.call("EVALSHA", sha("return 'run again'"), "0")).isEqualTo(bulk("run again"));
        kvd.call("EVAL", "return 'newest'", "0");
        assertThat(kvd.call("EVALSHA", sha("return 'oldest'"), "0"))
                .isEqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n");
        assertThat(kvd.call("SCRIPT", "EXISTS", loaded, sha("return 'promoted'"), sha("return 'run again'"),
                sha("return 0"), sha("return 'newest'"))).isEqualTo("*5\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n");
        kvd.call("EVAL", "return 'one more'", "0");
        assertThat(kvd.call("SCRIPT", "EXISTS", sha("return 0"), sha("return 'run again'")))
                .isEqualTo("*2\r\n:0\r\n:1\r\n");
    }

    @Test
    void everyByteValueCrossesIntoTheScriptAndBackExactly() {
        StringBuilder text = new StringBuilder();
        for (char c = 0; c < 256; c++) {
            text.append(c);
        }
        // Escapes followed by digits, a quote, a backslash and line ends next to bytes above 127.
        text.append("\u00001\\0\"2\r\n\u00ff\u0000999");
        byte[] value = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] expected = new byte[value.length + String.valueOf(value.length).length() + 5];
        java.nio.ByteBuffer.wrap(expected).put(("$" + value.length + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .put(value).put("\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(kvd.callRaw("EVAL", "return ARGV[1]", "0", text.toString())).isEqualTo(expected);
        kvd.call("EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", "1", "k", text.toString());
        assertThat(kvd.callRaw("GET", "k")).isEqualTo(expected);
        assertThat(kvd.callRaw("EVAL", "return redis.call('GET', KEYS[1])", "1", "k")).isEqualTo(expected);
    }

    private static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }

    private static String sha(String script) {
        return LuaScripts.sha1hex(script.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
