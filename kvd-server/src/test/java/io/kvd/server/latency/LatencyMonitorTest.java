package io.kvd.server.latency;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The latency monitor as Redis 7.0's latency.c: time series, maxima, GRAPH and DOCTOR texts. */
class LatencyMonitorTest {
    private static final long T0 = 1_796_424_805L;

    private long now = T0;
    private final LatencyMonitor monitor = new LatencyMonitor(() -> now);

    private static LatencyMonitor.Sample sample(long time, long latency) {
        return new LatencyMonitor.Sample(time, latency);
    }

    @Test
    void offByDefaultAndBelowTheThresholdNothingIsSampled() {
        monitor.addSampleIfNeeded("command", 1_000_000);
        monitor.setThreshold(100);
        monitor.addSampleIfNeeded("command", 99);
        assertThat(monitor.latest()).isEmpty();
        monitor.addSampleIfNeeded("command", 100);
        assertThat(monitor.history("command")).containsExactly(sample(T0, 100));
    }

    @Test
    void oneSamplePerSecondKeepsThatSecondsWorst() {
        monitor.addSample("command", 200);
        monitor.addSample("command", 350);
        monitor.addSample("command", 120);
        now++;
        monitor.addSample("command", 110);
        assertThat(monitor.history("command")).containsExactly(sample(T0, 350), sample(T0 + 1, 110));
    }

    @Test
    void latestIsTheNewestSampleWithTheAllTimeMaximum() {
        monitor.addSample("command", 350);
        now += 2;
        monitor.addSample("command", 100);
        monitor.addSample("expire-cycle", 20);
        assertThat(monitor.latest()).containsExactly(
                new LatencyMonitor.Latest("command", sample(T0 + 2, 100), 350),
                new LatencyMonitor.Latest("expire-cycle", sample(T0 + 2, 20), 20));
    }

    @Test
    void theRingKeeps160SecondsAndTheMaximumOutlivesThem() {
        monitor.addSample("command", 5000);
        for (int i = 1; i <= 200; i++) {
            now++;
            monitor.addSample("command", i);
        }
        List<LatencyMonitor.Sample> history = monitor.history("command");
        assertThat(history).hasSize(LatencyMonitor.SAMPLES);
        assertThat(history.get(0)).isEqualTo(sample(T0 + 41, 41));
        assertThat(history.get(159)).isEqualTo(sample(T0 + 200, 200));
        assertThat(monitor.latest().get(0).maxMs()).isEqualTo(5000);
    }

    @Test
    void resetIgnoresCaseButHistoryDoesNot() {
        monitor.addSample("command", 100);
        monitor.addSample("fast-command", 100);
        assertThat(monitor.history("COMMAND")).isEmpty();
        assertThat(monitor.graph("COMMAND")).isNull();
        assertThat(monitor.reset("COMMAND")).isEqualTo(1);
        assertThat(monitor.reset("command")).isZero();
        assertThat(monitor.reset(null)).isEqualTo(1);
        assertThat(monitor.latest()).isEmpty();
    }

    @Test
    void graphIsRedisSparklineWithAgeLabels() {
        // Redis 7.0.15 drew this after DEBUG SLEEP 0.2, 0.35 and 0.1 two seconds apart.
        monitor.addSample("command", 200);
        now += 2;
        monitor.addSample("command", 350);
        now += 2;
        monitor.addSample("command", 100);
        assertThat(monitor.graph("command")).isEqualTo("command - high 350 ms, low 100 ms (all time high 350 ms)\n"
                + "-".repeat(80) + "\n"
                + " # \n"
                + " | \n"
                + "o| \n"
                + "||_\n"
                + "   \n"
                + "420\n"
                + "sss\n");
    }

    @Test
    void graphLabelsMinutesHoursAndDaysAndSplitsAt80Columns() {
        for (int i = 0; i < 81; i++) {
            monitor.addSample("command", 10);
            now++;
        }
        now += 2 * 24 * 3600;
        String[] lines = monitor.graph("command").split("\n", -1);
        // Equal samples: every bar is at the bottom step; the 81st sample starts a second block.
        assertThat(lines[2]).isEqualTo(" ".repeat(80));
        assertThat(lines[5]).isEqualTo("_".repeat(80));
        assertThat(lines[7]).isEqualTo("2".repeat(80));
        assertThat(lines[8]).isEqualTo("d".repeat(80));
        assertThat(lines[9]).isEmpty();
        assertThat(lines[13]).isEqualTo("_");
        assertThat(lines).hasSize(18);
    }

    @Test
    void doctorWhenNeverEnabledApologises() {
        assertThat(monitor.doctor(10000, 10, false)).startsWith("I'm sorry, Dave, I can't do that.");
    }

    @Test
    void doctorReportsEachEventAndTheAdviceItCallsFor() {
        monitor.setThreshold(100);
        monitor.addSample("command", 200);
        now += 2;
        monitor.addSample("command", 350);
        now += 2;
        monitor.addSample("command", 100);
        now += 2;
        // As Redis 7.0.15 reported it with slowlog-log-slower-than -1.
        assertThat(monitor.doctor(-1, 10, false)).isEqualTo("Dave, I have observed latency spikes in this Redis "
                + "instance. You don't mind talking about it, do you Dave?\n\n"
                + "1. command: 3 latency spikes (average 216ms, mean deviation 88ms, period 2.00 sec). Worst all time "
                + "event 350ms.\n\nI have a few advices for you:\n\n"
                + "- There are latency issues with potentially slow commands you are using. Try to enable the Slow Log "
                + "Redis feature using the command 'CONFIG SET slowlog-log-slower-than 100000'. If the Slow log is "
                + "disabled Redis is not able to log slow commands execution for you.\n"
                + "- Check your Slow Log to understand what are the commands you are running which are too slow to "
                + "execute. Please check https://redis.io/commands/slowlog for more information.\n"
                + "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking operation. "
                + "If you have very large objects that are often deleted, expired, or evicted, try to fragment those "
                + "objects into multiple smaller objects.\n");
    }

    @Test
    void doctorWithOnlyEventsItHasNoAdviceForSaysSo() {
        monitor.setThreshold(1);
        monitor.addSample("aof-write", 8);
        now += 8;
        // period 8 / 1 sample; an event without advice leaves Redis's "no easy fix" line.
        assertThat(monitor.doctor(10000, 10, false)).endsWith("1. aof-write: 1 latency spikes (average 8ms, mean "
                + "deviation 0ms, period 8.00 sec). Worst all time event 8ms.\n\nWhile there are latency events "
                + "logged, I'm not able to suggest any easy fix. Please use the Redis community to get some help, "
                + "providing this report in your help request.\n");
    }

    @Test
    void doctorAfterAResetWithTheMonitorOnSawNothing() {
        monitor.setThreshold(100);
        assertThat(monitor.doctor(10000, 10, false)).isEqualTo("Dave, no latency spike was observed during the "
                + "lifetime of this Redis instance, not in the slightest bit. I honestly think you ought to sit down "
                + "calmly, take a stress pill, and think things over.\n");
    }

    @Test
    void doctorAdvisesHzOnlyBelow100AndRelaxingFsyncOnlyUnderAlways() {
        monitor.setThreshold(1);
        monitor.addSample("expire-cycle", 30);
        monitor.addSample("aof-fsync-always", 30);
        assertThat(monitor.doctor(10000, 10, false)).contains("'CONFIG SET hz 100'").doesNotContain("fsync policy");
        assertThat(monitor.doctor(10000, 100, true)).doesNotContain("'CONFIG SET hz 100'").contains(
                "- Your fsync policy is set to 'always'.");
    }
}
