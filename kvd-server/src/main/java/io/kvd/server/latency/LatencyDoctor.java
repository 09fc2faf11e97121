package io.kvd.server.latency;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * LATENCY DOCTOR's report, word for word latency.c's createLatencyReport: a line of statistics
 * per event, then the advice its events call for. The events kvd never produces (fork, eviction,
 * RDB files, aof-fstat) and their advice are left out.
 */
final class LatencyDoctor {
    private static final String DISABLED = "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may "
            + "use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't in "
            + "a deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.";
    private static final String SPIKES = "Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do "
            + "you Dave?";
    private static final String NO_SPIKE = "Dave, no latency spike was observed during the lifetime of this Redis instance, not in the "
            + "slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think things "
            + "over.";
    private static final String NO_FIX = "While there are latency events logged, I'm not able to suggest any easy fix. Please use the Redis "
            + "community to get some help, providing this report in your help request.";
    private static final String SLOWLOG_ENABLE = "- There are latency issues with potentially slow commands you are using. Try to enable the Slow "
            + "Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than %s'. If the Slow log is "
            + "disabled Redis is not able to log slow commands execution for you.";
    private static final String SLOWLOG_TUNE = "- Your current Slow Log configuration only logs events that are slower than your configured "
            + "latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than %s'.";
    private static final String SLOWLOG_INSPECT = "- Check your Slow Log to understand what are the commands you are running which are too slow to "
            + "execute. Please check https://redis.io/commands/slowlog for more information.";
    private static final String LOCAL_DISK = "- It is strongly advised to use local disks for persistence, especially if you are using AOF. "
            + "Remote disks provided by platform-as-a-service providers are known to be slow.";
    private static final String SSD = "- SSD disks are able to reduce fsync latency, and total time needed for snapshotting and AOF log "
            + "rewriting (resulting in smaller memory usage). With extremely high write load SSD disks can be a "
            + "good option. However Redis should perform reasonably with high load using normal disks. Use this "
            + "advice as a last resort.";
    private static final String DATA_WRITEBACK = "- Mounting ext3/4 filesystems with data=writeback can provide a performance boost compared to "
            + "data=ordered, however this mode of operation provides less guarantees, and sometimes it can happen "
            + "that after a hard crash the AOF file will have a half-written command at the end and will require "
            + "to be repaired before Redis restarts.";
    private static final String DISK_CONTENTION = "- Try to lower the disk contention. This is often caused by other disk intensive processes running "
            + "in the same computer (including other Redis instances).";
    private static final String NO_APPENDFSYNC = "- Assuming from the point of view of data safety this is viable in your environment, you could try "
            + "to enable the 'no-appendfsync-on-rewrite' option, so that fsync will not be performed while there "
            + "is a child rewriting the AOF file or producing an RDB file (the moment where there is high disk "
            + "contention).";
    private static final String RELAX_FSYNC = "- Your fsync policy is set to 'always'. It is very hard to get good performances with such a "
            + "setup, if possible try to relax the fsync policy to 'onesec'.";
    private static final String WRITE_LOAD = "- Latency during the AOF atomic rename operation or when the final difference is flushed to the "
            + "AOF file at the end of the rewrite, sometimes is caused by very high write load, causing the AOF "
            + "buffer to get very large. If possible try to send less commands to accomplish the same work, or "
            + "use Lua scripts to group multiple operations into a single EVALSHA call.";
    private static final String HZ = "- In order to make the Redis keys expiring process more incremental, try to set the 'hz' "
            + "configuration parameter to 100 using 'CONFIG SET hz 100'.";
    private static final String LARGE_OBJECTS = "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking "
            + "operation. If you have very large objects that are often deleted, expired, or evicted, try to "
            + "fragment those objects into multiple smaller objects.";
    private static final String DISABLE_THP = "- I detected a non zero amount of anonymous huge pages used by your process. This creates very "
            + "serious latency events in different conditions, especially when Redis is persisting on disk. To "
            + "disable THP support use the command 'echo never > /sys/kernel/mm/transparent_hugepage/enabled', "
            + "make sure to also add it into /etc/rc.local so that the command will be executed again after a "
            + "reboot. Note that even if you have already disabled THP, you still need to restart the Redis "
            + "process to get rid of the huge pages already created.";
    /** Redis's advise_scheduler, lines that end in newlines but the last. */
    private static final String SCHEDULER = "- The system is slow to execute Redis code paths not containing system calls. This usually means "
            + "the system does not provide Redis CPU time to run for long periods. You should try to:\n"
            + "  1) Lower the system load.\n"
            + "  2) Use a computer / VM just for Redis if you are running other software in the same system.\n"
            + "  3) Check if you have a \"noisy neighbour\" problem.\n"
            + "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in your system.\n"
            + "  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, "
            + "if you are using Jemalloc. However this may create fragmentation problems.";

    private LatencyDoctor() {
    }

    static String report(LatencyMonitor monitor, long slowlogLogSlowerThan, int hz, boolean fsyncAlways) {
        Map<String, LatencyMonitor.TimeSeries> events = monitor.events();
        if (events.isEmpty() && monitor.threshold() == 0) {
            return DISABLED + "\n";
        }
        Advice advice = new Advice();
        StringBuilder report = new StringBuilder();
        int eventNumber = 0;
        for (Map.Entry<String, LatencyMonitor.TimeSeries> entry : events.entrySet()) {
            String event = entry.getKey();
            eventNumber++;
            if (eventNumber == 1) {
                report.append(SPIKES).append("\n\n");
            }
            LatencyMonitor.Stats stats = monitor.stats(entry.getValue());
            report.append(eventNumber).append(". ").append(event).append(": ").append(stats.samples())
                    .append(" latency spikes (average ").append(stats.averageMs()).append("ms, mean deviation ")
                    .append(stats.meanDeviationMs()).append("ms, period ")
                    .append(twoDecimals((double) stats.periodSeconds() / stats.samples()))
                    .append(" sec). Worst all time event ").append(stats.allTimeHighMs()).append("ms.");
            advice.forEvent(event, slowlogLogSlowerThan, monitor.threshold());
            report.append('\n');
        }
        if (anonHugePagesBytes() > 0) {
            advice.disableThp = true;
            advice.count++;
        }
        if (eventNumber == 0 && advice.count == 0) {
            report.append(NO_SPIKE).append('\n');
        } else if (eventNumber > 0 && advice.count == 0) {
            report.append('\n').append(NO_FIX).append('\n');
        } else {
            report.append("\nI have a few advices for you:\n\n");
            long threshold = monitor.threshold();
            add(report, advice.slowlogEnabled, SLOWLOG_ENABLE.formatted(Long.toUnsignedString(threshold * 1000)));
            add(report, advice.slowlogTuning, SLOWLOG_TUNE.formatted(Long.toUnsignedString(threshold * 1000)));
            add(report, advice.slowlogInspect, SLOWLOG_INSPECT);
            add(report, advice.scheduler, SCHEDULER);
            add(report, advice.localDisk, LOCAL_DISK);
            add(report, advice.ssd, SSD);
            add(report, advice.dataWriteback, DATA_WRITEBACK);
            add(report, advice.diskContention, DISK_CONTENTION);
            add(report, advice.noAppendfsync, NO_APPENDFSYNC);
            add(report, advice.relaxFsyncPolicy && fsyncAlways, RELAX_FSYNC);
            add(report, advice.writeLoadInfo, WRITE_LOAD);
            add(report, advice.hz && hz < 100, HZ);
            add(report, advice.largeObjects, LARGE_OBJECTS);
            add(report, advice.disableThp, DISABLE_THP);
        }
        return report.toString();
    }

    private static void add(StringBuilder report, boolean wanted, String advice) {
        if (wanted) {
            report.append(advice).append('\n');
        }
    }

    /** The advice createLatencyReport collects, and how many it counted (some count but print only if they apply). */
    private static final class Advice {
        boolean slowlogEnabled;
        boolean slowlogTuning;
        boolean slowlogInspect;
        boolean scheduler;
        boolean localDisk;
        boolean ssd;
        boolean dataWriteback;
        boolean diskContention;
        boolean noAppendfsync;
        boolean relaxFsyncPolicy;
        boolean writeLoadInfo;
        boolean hz;
        boolean largeObjects;
        boolean disableThp;
        int count;

        void forEvent(String event, long slowlogLogSlowerThan, long thresholdMs) {
            switch (event) {
                case "command" -> {
                    if (slowlogLogSlowerThan < 0) {
                        slowlogEnabled = true;
                        count++;
                    } else if (slowlogLogSlowerThan / 1000 > thresholdMs) {
                        slowlogTuning = true;
                        count++;
                    }
                    slowlogInspect = true;
                    largeObjects = true;
                    count += 2;
                }
                case "fast-command" -> {
                    scheduler = true;
                    count++;
                }
                case "aof-write-pending-fsync" -> {
                    localDisk = true;
                    diskContention = true;
                    ssd = true;
                    dataWriteback = true;
                    count += 4;
                }
                case "aof-write-active-child" -> {
                    noAppendfsync = true;
                    dataWriteback = true;
                    ssd = true;
                    count += 3;
                }
                case "aof-write-alone" -> {
                    localDisk = true;
                    dataWriteback = true;
                    ssd = true;
                    count += 3;
                }
                case "aof-fsync-always" -> {
                    relaxFsyncPolicy = true;
                    count++;
                }
                case "aof-rename" -> {
                    writeLoadInfo = true;
                    dataWriteback = true;
                    ssd = true;
                    localDisk = true;
                    count += 4;
                }
                case "expire-cycle" -> {
                    hz = true;
                    largeObjects = true;
                    count += 2;
                }
                default -> {
                }
            }
        }
    }

    /** C's "%.2f": the double's exact value rounded half to even, as glibc's printf. */
    private static String twoDecimals(double value) {
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    /**
     * Redis's THPGetAnonHugePagesSize: the transparent huge pages the process uses (the sum of
     * /proc/self/smaps' AnonHugePages), 0 where that cannot be read.
     */
    private static long anonHugePagesBytes() {
        long kilobytes = 0;
        try (BufferedReader smaps = Files.newBufferedReader(Path.of("/proc/self/smaps"))) {
            for (String line = smaps.readLine(); line != null; line = smaps.readLine()) {
                if (line.startsWith("AnonHugePages:")) {
                    kilobytes += Long.parseLong(line.substring("AnonHugePages:".length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return kilobytes * 1024;
    }
}
