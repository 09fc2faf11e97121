package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO commandstats, errorstats and latencystats as Redis 7.0 counts them (server.c call() and
 * rejectCommand, networking.c afterErrorReply, script.c scriptCall), after the cases of Redis's
 * unit/info and unit/scripting tests.
 */
class CommandStatsTest {
    private final CommandFixture kvd = new CommandFixture();

    /** The value of {@code field} in INFO {@code section}, or "" when the field is absent. */
    private String field(String section, String field) {
        Matcher m = Pattern.compile("\r\n" + Pattern.quote(field) + ":([^\r]*)\r\n").matcher(kvd.call("INFO", section));
        return m.find() ? m.group(1) : "";
    }

    /** calls, rejected_calls and failed_calls of a command: "calls=1,rejected=0,failed=0", "" when absent. */
    private String counts(String command) {
        String line = field("commandstats", "cmdstat_" + command);
        if (line.isEmpty()) {
            return "";
        }
        Matcher m = Pattern.compile("calls=(\\d+),usec=\\d+,usec_per_call=\\d+\\.\\d\\d,rejected_calls=(\\d+),failed_calls=(\\d+)")
                .matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        return "calls=" + m.group(1) + ",rejected=" + m.group(2) + ",failed=" + m.group(3);
    }

    private String errors(String code) {
        return field("errorstats", "errorstat_" + code);
    }

    private String totalErrors() {
        return field("stats", "total_error_replies");
    }

    @Test
    void aCommandThatRanCountsACallAndItsTime() {
        kvd.call("SET", "a", "b");
        kvd.call("SET", "a", "c");
        assertThat(counts("set")).isEqualTo("calls=2,rejected=0,failed=0");
        assertThat(counts("get")).isEmpty();
        assertThat(totalErrors()).isEqualTo("0");
    }

    @Test
    void wrongArityIsARejectedCallAndAnErr() {
        assertThat(kvd.call("SET", "k")).startsWith("-ERR wrong number of arguments for 'set' command");
        kvd.call("SET", "k1", "v1");
        assertThat(counts("set")).isEqualTo("calls=1,rejected=1,failed=0");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(totalErrors()).isEqualTo("1");
    }

    @Test
    void unknownCommandCountsTheErrorOnly() {
        kvd.call("ASDF");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(kvd.call("INFO", "commandstats")).doesNotContain("asdf");
    }

    @Test
    void anErrorReplyFailsTheCommandUnderItsCode() {
        kvd.call("SET", "foo", "1");
        assertThat(kvd.call("LPUSH", "foo", "x")).startsWith("-WRONGTYPE");
        kvd.call("XADD", "s", "*", "f", "v");
        assertThat(kvd.call("XGROUP", "CREATECONSUMER", "s", "g", "c")).startsWith("-NOGROUP");
        assertThat(counts("lpush")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(counts("xgroup|createconsumer")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(errors("WRONGTYPE")).isEqualTo("count=1");
        assertThat(errors("NOGROUP")).isEqualTo("count=1");
        assertThat(totalErrors()).isEqualTo("2");
    }

    @Test
    void subcommandsCountOnTheirOwnAndAnUnknownOneNowhere() {
        kvd.call("CLIENT", "ID");
        assertThat(kvd.call("CLIENT", "NOSUCH")).startsWith("-ERR unknown subcommand 'NOSUCH'. Try CLIENT HELP.");
        assertThat(kvd.call("CLIENT", "ID", "extra")).isEqualTo("-ERR wrong number of arguments for 'client|id' command\r\n");
        assertThat(counts("client|id")).isEqualTo("calls=1,rejected=1,failed=0");
        assertThat(counts("client")).isEmpty();
        assertThat(errors("ERR")).isEqualTo("count=2");
    }

    @Test
    void anUnknownSubcommandIsRefusedBeforeAuthentication() {
        kvd.call("CONFIG", "SET", "requirepass", "secret");
        Client stranger = kvd.newClient();
        assertThat(kvd.callAs(stranger, "CLIENT", "NOSUCH")).startsWith("-ERR unknown subcommand 'NOSUCH'");
        assertThat(kvd.callAs(stranger, "CLIENT", "ID")).startsWith("-NOAUTH");
    }

    @Test
    void aCommandFailingInsideExecFailsItselfNotExec() {
        kvd.call("MULTI");
        kvd.call("SET", "a", "b");
        kvd.call("AUTH", "a");
        assertThat(kvd.call("EXEC")).contains("-ERR AUTH");
        assertThat(counts("set")).isEqualTo("calls=1,rejected=0,failed=0");
        assertThat(counts("auth")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(counts("exec")).isEqualTo("calls=1,rejected=0,failed=0");
        assertThat(kvd.call("EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
        assertThat(counts("exec")).isEqualTo("calls=2,rejected=0,failed=1");
        assertThat(errors("ERR")).isEqualTo("count=2");
    }

    @Test
    void aCommandRefusedInsideMultiMakesExecAbortAndFail() {
        kvd.call("MULTI");
        kvd.call("SET");
        assertThat(kvd.call("EXEC")).startsWith("-EXECABORT");
        assertThat(counts("set")).isEqualTo("calls=0,rejected=1,failed=0");
        assertThat(counts("multi")).isEqualTo("calls=1,rejected=0,failed=0");
        assertThat(counts("exec")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(errors("EXECABORT")).isEqualTo("count=1");
        assertThat(totalErrors()).isEqualTo("2");
    }

    @Test
    void anErrorAScriptCaughtFailsTheCommandNotTheScript() {
        kvd.call("EVAL", "redis.pcall('XGROUP', 'CREATECONSUMER', 's1', 'mygroup', 'consumer') return", "0");
        assertThat(counts("xgroup|createconsumer")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(counts("eval")).isEqualTo("calls=1,rejected=0,failed=0");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(kvd.call("EVAL", "a")).startsWith("-ERR wrong number of arguments");
        assertThat(counts("eval")).isEqualTo("calls=1,rejected=1,failed=0");
        assertThat(totalErrors()).isEqualTo("2");
    }

    @Test
    void anErrorAScriptRaisesFromACommandCountsOnceAndFailsBoth() {
        assertThat(kvd.call("EVAL", "return redis.call('select', 99)", "0")).startsWith("-ERR DB index is out of range");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(totalErrors()).isEqualTo("1");
        assertThat(counts("select")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(counts("eval")).isEqualTo("calls=1,rejected=0,failed=1");
    }

    @Test
    void aScriptReturningACommandsErrorCountsItOnce() {
        kvd.call("SET", "Sicily", "1");
        assertThat(kvd.call("EVAL", "return redis.pcall('GEOADD', 'Sicily', '13.36', '38.11', 'Palermo')", "0"))
                .startsWith("-WRONGTYPE");
        assertThat(errors("WRONGTYPE")).isEqualTo("count=1");
        assertThat(totalErrors()).isEqualTo("1");
        assertThat(counts("geoadd")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(counts("eval")).isEqualTo("calls=1,rejected=0,failed=1");
    }

    @Test
    void aCommandAScriptMayNotRunIsRejectedAndCountedWhenRefused() {
        assertThat(kvd.call("EVAL_RO", "return redis.call('set','x','y')", "1", "x"))
                .startsWith("-ERR Write commands are not allowed from read-only scripts.");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(counts("set")).isEqualTo("calls=0,rejected=1,failed=0");
        assertThat(counts("eval_ro")).isEqualTo("calls=1,rejected=0,failed=1");
        kvd.call("CONFIG", "RESETSTAT");
        assertThat(kvd.call("EVAL_RO", "local t = redis.pcall('set','x','y') return t['ignore_error_stats_update']",
                "1", "x")).isEqualTo(":1\r\n");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(counts("set")).isEqualTo("calls=0,rejected=1,failed=0");
        assertThat(counts("eval_ro")).isEqualTo("calls=1,rejected=0,failed=0");
    }

    @Test
    void argumentErrorsOfRedisCallCountWhenTheScriptReplies() {
        kvd.call("EVAL", "redis.pcall() return 1", "0");
        assertThat(totalErrors()).isEqualTo("0");
        assertThat(kvd.call("EVAL", "return redis.pcall()", "0")).startsWith("-ERR Please specify at least one argument");
        assertThat(errors("ERR")).isEqualTo("count=1");
        assertThat(counts("eval")).isEqualTo("calls=2,rejected=0,failed=1");
    }

    @Test
    void anErrorTableAScriptMakesCountsUnderItsCode() {
        assertThat(kvd.call("EVAL", "return redis.error_reply('MY_ERR_CODE custom msg')", "0"))
                .isEqualTo("-MY_ERR_CODE custom msg\r\n");
        assertThat(errors("MY_ERR_CODE")).isEqualTo("count=1");
        assertThat(counts("eval")).isEqualTo("calls=1,rejected=0,failed=1");
    }

    @Test
    void errorsAreCountedWhileRepliesAreOff() {
        kvd.call("CLIENT", "REPLY", "OFF");
        assertThat(kvd.call("LPUSH")).isEmpty();
        kvd.call("CLIENT", "REPLY", "ON");
        assertThat(errors("ERR")).isEqualTo("count=1");
    }

    @Test
    void aCodeWithoutASpaceInItsFirst32BytesCountsAsErr() {
        kvd.call("EVAL", "return redis.error_reply('" + "X".repeat(40) + " message')", "0");
        kvd.call("EVAL", "return redis.error_reply('ONEWORD')", "0");
        assertThat(errors("ERR")).isEqualTo("count=2");
    }

    @Test
    void resetstatForgetsEveryCounter() {
        kvd.call("SET", "k");
        kvd.call("SET", "k", "v");
        kvd.call("CONFIG", "RESETSTAT");
        // RESETSTAT counts itself, after it ran, as Redis's call().
        assertThat(kvd.call("INFO", "commandstats"))
                .matches("\\$\\d+\r\n# Commandstats\r\ncmdstat_config\\|resetstat:calls=1,[^\r]*\r\n\r\n");
        assertThat(kvd.call("INFO", "errorstats")).isEqualTo(CommandFixture.bulk("# Errorstats\r\n"));
        assertThat(kvd.call("INFO", "latencystats")).doesNotContain("usec_set");
        assertThat(totalErrors()).isEqualTo("0");
    }

    @Test
    void latencyIsTrackedOnlyWhileLatencyTrackingIsOn() {
        kvd.call("CONFIG", "SET", "latency-tracking", "no");
        kvd.call("SET", "a", "b");
        assertThat(field("latencystats", "latency_percentiles_usec_set")).isEmpty();
        kvd.call("CONFIG", "SET", "latency-tracking", "yes");
        kvd.call("SET", "a", "b");
        kvd.call("CLIENT", "ID");
        assertThat(field("latencystats", "latency_percentiles_usec_set"))
                .matches("p50=\\d+\\.\\d{3},p99=\\d+\\.\\d{3},p99\\.9=\\d+\\.\\d{3}");
        assertThat(field("latencystats", "latency_percentiles_usec_client|id")).startsWith("p50=");
    }

    @Test
    void latencystatsReportsTheConfiguredPercentiles() {
        kvd.call("CONFIG", "SET", "latency-tracking-info-percentiles", "0.0 50.0 100.0");
        assertThat(kvd.call("CONFIG", "GET", "latency-tracking-info-percentiles"))
                .isEqualTo(CommandFixture.array("latency-tracking-info-percentiles", "0 50 100"));
        kvd.call("GET", "a");
        assertThat(field("latencystats", "latency_percentiles_usec_get"))
                .matches("p0=\\d+\\.\\d{3},p50=\\d+\\.\\d{3},p100=\\d+\\.\\d{3}");
        assertThat(kvd.call("CONFIG", "SET", "latency-tracking-info-percentiles", "10.0 50.0 a"))
                .startsWith("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles')");
        assertThat(kvd.call("CONFIG", "SET", "latency-tracking-info-percentiles", "10.0 50.0 101.0"))
                .startsWith("-ERR CONFIG SET failed");
        assertThat(totalErrors()).isEqualTo("2");
    }

    @Test
    void aBlockedCommandIsTimedUntilItIsAnswered() {
        Client waiter = kvd.newClient();
        assertThat(kvd.callAs(waiter, "BLPOP", "list", "0")).isEmpty();
        assertThat(counts("blpop")).isEqualTo("calls=1,rejected=0,failed=0");
        assertThat(field("latencystats", "latency_percentiles_usec_blpop")).isEmpty();
        kvd.call("LPUSH", "list", "a");
        assertThat(kvd.pending(waiter)).isEqualTo(CommandFixture.array("list", "a"));
        assertThat(field("latencystats", "latency_percentiles_usec_blpop")).startsWith("p50=");
        assertThat(counts("blpop")).isEqualTo("calls=1,rejected=0,failed=0");
    }

    @Test
    void aBlockedCommandUnblockedWithAnErrorFails() {
        Client waiter = kvd.newClient();
        kvd.callAs(waiter, "BLPOP", "list", "0");
        kvd.call("CLIENT", "UNBLOCK", String.valueOf(waiter.id()), "ERROR");
        assertThat(kvd.pending(waiter)).startsWith("-UNBLOCKED");
        assertThat(errors("UNBLOCKED")).isEqualTo("count=1");
        assertThat(counts("blpop")).isEqualTo("calls=1,rejected=0,failed=1");
        assertThat(totalErrors()).isEqualTo("1");
    }
}
