package io.kvd.server.admin;

import io.kvd.server.command.CommandFixture;
import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigCommandTest {
    private final CommandFixture kvd = new CommandFixture();

    @Test
    void getSaveIsEmptyAsRedisBenchmarkExpects() {
        assertThat(kvd.call("CONFIG", "GET", "save")).isEqualTo("*2\r\n$4\r\nsave\r\n$0\r\n\r\n");
    }

    @Test
    void getAppendonly() {
        assertThat(kvd.call("CONFIG", "GET", "appendonly")).isEqualTo("*2\r\n$10\r\nappendonly\r\n$3\r\nyes\r\n");
    }

    @Test
    void getExactNameAnswersUnderTheNameAsGiven() {
        assertThat(kvd.call("CONFIG", "GET", "HZ")).isEqualTo("*2\r\n$2\r\nHZ\r\n$2\r\n10\r\n");
    }

    @Test
    void getSeveralNamesReportsEachOnce() {
        assertThat(kvd.call("CONFIG", "GET", "hz", "databases", "hz"))
                .isEqualTo("*4\r\n$2\r\nhz\r\n$2\r\n10\r\n$9\r\ndatabases\r\n$2\r\n16\r\n");
    }

    @Test
    void getPatternMatchesNamesIgnoringCase() {
        assertThat(kvd.call("CONFIG", "GET", "DATAB*")).isEqualTo("*2\r\n$9\r\ndatabases\r\n$2\r\n16\r\n");
    }

    @Test
    void getMaxmemoryIsZeroAndThePolicyNoevictionByDefault() {
        assertThat(kvd.call("CONFIG", "GET", "maxmemory", "maxmemory-policy")).isEqualTo(
                "*4\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n$16\r\nmaxmemory-policy\r\n$10\r\nnoeviction\r\n");
    }

    @Test
    void redisDirectivesKvdDoesNotActOnAreCheckedAndShownAsRedisDoes() {
        assertThat(kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "-2")).isEqualTo("-ERR CONFIG SET failed (possibly"
                + " related to argument 'slowlog-log-slower-than') - argument must be between -1 and 9223372036854775807 inclusive\r\n");
        assertThat(kvd.call("CONFIG", "SET", "lazyfree-lazy-expire", "maybe")).isEqualTo("-ERR CONFIG SET failed (possibly"
                + " related to argument 'lazyfree-lazy-expire') - argument must be 'yes' or 'no'\r\n");
        assertThat(kvd.call("CONFIG", "SET", "daemonize", "yes")).isEqualTo("-ERR CONFIG SET failed (possibly"
                + " related to argument 'daemonize') - can't set immutable config\r\n");
        assertThat(kvd.call("CONFIG", "SET", "slave-priority", "5", "maxmemory", "1mb", "maxmemory-clients", "5%"))
                .isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "GET", "replica-priority", "slave-priority", "maxmemory", "maxmemory-clients"))
                .isEqualTo("*8\r\n$16\r\nreplica-priority\r\n$1\r\n5\r\n$14\r\nslave-priority\r\n$1\r\n5\r\n"
                        + "$9\r\nmaxmemory\r\n$7\r\n1048576\r\n$17\r\nmaxmemory-clients\r\n$2\r\n5%\r\n");
        assertThat(kvd.call("CONFIG", "SET", "save", "100 10 200")).isEqualTo("-ERR CONFIG SET failed (possibly"
                + " related to argument 'save') - Invalid save parameters\r\n");
    }

    @Test
    void getWithNoMatchIsAnEmptyArray() {
        assertThat(kvd.call("CONFIG", "GET", "nomatch")).isEqualTo("*0\r\n");
    }

    @Test
    void setChangesAMutableDirective() {
        assertThat(kvd.call("CONFIG", "SET", "hz", "20", "loglevel", "warning")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "GET", "hz")).isEqualTo("*2\r\n$2\r\nhz\r\n$2\r\n20\r\n");
        assertThat(kvd.config.loglevel()).isEqualTo("warning");
    }

    @Test
    void setUnknownDirectiveIsAnError() {
        assertThat(kvd.call("CONFIG", "SET", "foo", "1"))
                .isEqualTo("-ERR Unknown option or number of arguments for CONFIG SET - 'foo'\r\n");
    }

    @Test
    void setImmutableDirectiveIsAnError() {
        assertThat(kvd.call("CONFIG", "SET", "databases", "1"))
                .isEqualTo("-ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config\r\n");
    }

    @Test
    void testKnobsAnswerByNameOnly() {
        for (String knob : new String[] {"key-load-delay", "rdb-key-save-delay"}) {
            assertThat(kvd.call("CONFIG", "GET", "*")).doesNotContain(knob);
            assertThat(kvd.call("CONFIG", "GET", knob)).isEqualTo("*2\r\n$" + knob.length() + "\r\n" + knob + "\r\n$1\r\n0\r\n");
        }
    }

    @Test
    void directivesReadOnlyAtStartTakeOnlyTheValueTheyHave() {
        String current = kvd.call("CONFIG", "GET", "transport").split("\r\n")[4];
        assertThat(kvd.call("CONFIG", "SET", "transport", current)).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "SET", "transport", current.equals("nio") ? "epoll" : "nio")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'transport') - can't set immutable config\r\n");
        assertThat(kvd.call("CONFIG", "SET", "tls-port", "0", "cluster-announce-ip", "")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "SET", "tls-port", "7")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'tls-port') - can't set immutable config\r\n");
    }

    @Test
    void pathsCannotBeRedirectedAtRunTime() {
        for (String path : new String[] {"appendfilename", "logfile"}) {
            assertThat(kvd.call("CONFIG", "SET", path, "/tmp/evil")).isEqualTo(
                    "-ERR CONFIG SET failed (possibly related to argument '" + path + "') - can't set immutable config\r\n");
        }
        // As Redis 7.0 without enable-protected-configs.
        for (String path : new String[] {"dir", "dbfilename"}) {
            assertThat(kvd.call("CONFIG", "SET", path, "/tmp/evil")).isEqualTo(
                    "-ERR CONFIG SET failed (possibly related to argument '" + path + "') - can't set protected config\r\n");
        }
    }

    @Test
    void enableProtectedConfigsLetsDbfilenameChange() throws Exception {
        for (String setting : new String[] {"yes", "local"}) {
            CommandFixture allowed = new CommandFixture(Config.load(null, List.of("--enable-protected-configs", setting)));
            assertThat(allowed.call("CONFIG", "SET", "dbfilename", "other.rdb")).isEqualTo("+OK\r\n");
            assertThat(allowed.call("CONFIG", "GET", "dbfilename")).contains("other.rdb");
        }
    }

    @Test
    void setInvalidValueNamesTheDirectiveAndTheReason() {
        assertThat(kvd.call("CONFIG", "SET", "hz", "x")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer\r\n");
        assertThat(kvd.call("CONFIG", "SET", "loglevel", "foo")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'loglevel') - argument(s) must be one of the following: debug, verbose, notice, warning\r\n");
        assertThat(kvd.call("CONFIG", "SET", "proto-max-bulk-len", "x")).isEqualTo(
                "-ERR CONFIG SET failed (possibly related to argument 'proto-max-bulk-len') - argument must be a memory value\r\n");
    }

    @Test
    void setIsAllOrNothing() {
        assertThat(kvd.call("CONFIG", "SET", "hz", "20", "loglevel", "foo")).startsWith("-ERR CONFIG SET failed");
        assertThat(kvd.config.hz()).isEqualTo(10);
    }

    @Test
    void setTheSameDirectiveTwiceIsAnError() {
        assertThat(kvd.call("CONFIG", "SET", "hz", "10", "hz", "11"))
                .isEqualTo("-ERR CONFIG SET failed (possibly related to argument 'hz') - duplicate parameter\r\n");
    }

    @Test
    void setWithANameWithoutValueIsASyntaxError() {
        assertThat(kvd.call("CONFIG", "SET", "hz", "10", "loglevel")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("CONFIG", "SET", "hz")).isEqualTo("-ERR wrong number of arguments for 'config|set' command\r\n");
    }

    @Test
    void resetstatZeroesTheCounters() {
        kvd.call("PING");
        assertThat(kvd.call("CONFIG", "RESETSTAT")).isEqualTo("+OK\r\n");
        assertThat(kvd.server.stats().commandsProcessed).isEqualTo(1);
    }

    @Test
    void unknownSubcommandPointsToHelp() {
        assertThat(kvd.call("CONFIG", "REWRITTEN")).isEqualTo("-ERR unknown subcommand 'REWRITTEN'. Try CONFIG HELP.\r\n");
    }

    @Test
    void rewriteWithoutAConfigFileIsRefusedAsRedisRefusesIt() {
        assertThat(kvd.call("CONFIG", "REWRITE")).isEqualTo("-ERR The server is running without a config file\r\n");
        assertThat(kvd.call("CONFIG", "REWRITE", "now"))
                .isEqualTo("-ERR wrong number of arguments for 'config|rewrite' command\r\n");
    }

    @Test
    void rewriteThatCannotWriteAnswersWithTheSystemsReason(@TempDir Path dir) throws Exception {
        Path confDir = Files.createDirectory(dir.resolve("etc"));
        Path file = confDir.resolve("kvd.conf");
        Files.writeString(file, "hz 20\n");
        CommandFixture started = new CommandFixture(Config.load(file, List.of()));
        Files.delete(file);
        Files.delete(confDir);
        assertThat(started.call("CONFIG", "REWRITE")).isEqualTo("-ERR Rewriting config file: No such file or directory\r\n");
    }

    @Test
    void rewriteReplacesTheFileKvdStartedFrom(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "# hz\nhz 20\nsave \"\"\n");
        CommandFixture started = new CommandFixture(Config.load(file, List.of()));
        assertThat(started.call("CONFIG", "SET", "hz", "30")).isEqualTo("+OK\r\n");
        assertThat(started.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
        assertThat(Files.readString(file)).startsWith("# hz\nhz 30\nsave \"\"\n\n# Generated by CONFIG REWRITE\n");
        assertThat(Files.list(dir)).containsExactly(file);
    }

    @Test
    void helpListsGetSetResetstatRewriteAndHelp() {
        assertThat(kvd.call("CONFIG", "HELP")).isEqualTo("*11\r\n"
                + "+CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
                + "+GET <pattern>\r\n+    Return parameters matching the glob-like <pattern> and their values.\r\n"
                + "+SET <directive> <value>\r\n+    Set the configuration <directive> to <value>.\r\n"
                + "+RESETSTAT\r\n+    Reset statistics reported by the INFO command.\r\n"
                + "+REWRITE\r\n+    Rewrite the configuration file.\r\n"
                + "+HELP\r\n+    Prints this help.\r\n");
    }

    @Test
    void shutdownSignalFlagsShowInRedisOrderAndSaveExcludesNosave() {
        assertThat(kvd.call("CONFIG", "SET", "shutdown-on-sigint", "force now save")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "GET", "shutdown-on-sigint"))
                .isEqualTo("*2\r\n$18\r\nshutdown-on-sigint\r\n$14\r\nsave now force\r\n");
        assertThat(kvd.call("CONFIG", "SET", "shutdown-on-sigterm", "default nosave")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "GET", "shutdown-on-sigterm"))
                .isEqualTo("*2\r\n$19\r\nshutdown-on-sigterm\r\n$6\r\nnosave\r\n");
        assertThat(kvd.call("CONFIG", "SET", "shutdown-on-sigint", "save nosave")).isEqualTo("-ERR CONFIG SET failed"
                + " (possibly related to argument 'shutdown-on-sigint') - shutdown options SAVE and NOSAVE can't be used"
                + " simultaneously\r\n");
        assertThat(kvd.call("CONFIG", "SET", "shutdown-on-sigint", "")).isEqualTo("-ERR CONFIG SET failed"
                + " (possibly related to argument 'shutdown-on-sigint') - argument(s) must be one of the following:"
                + " default, save, nosave, now, force\r\n");
    }
}
