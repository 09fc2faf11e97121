package io.kvd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's /proc tells about load and processes; every reading is null where /proc does not
 * have it (another OS, a process that has gone).
 */
final class ProcFs {
    /** USER_HZ, the unit of /proc/[pid]/stat's times: 100 on every Linux architecture kvbench runs on. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;
    /** utime and stime are fields 14 and 15 of stat; these are their indexes after the ")" ending the name. */
    private static final int UTIME_AFTER_NAME = 11;
    private static final int STIME_AFTER_NAME = 12;

    private ProcFs() {
    }

    /** The 1-minute load average. */
    static Double loadAverage() {
        String text = read(Path.of("/proc/loadavg"));
        return text == null ? null : Double.valueOf(text.substring(0, text.indexOf(' ')));
    }

    /** User plus system CPU seconds the process has used, all its threads together. */
    static Double cpuSeconds(long pid) {
        String stat = read(Path.of("/proc", String.valueOf(pid), "stat"));
        if (stat == null) {
            return null;
        }
        // The command name (field 2) may hold spaces and parentheses; it ends at the last ")".
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[UTIME_AFTER_NAME]) + Long.parseLong(fields[STIME_AFTER_NAME]);
        return ticks / CLOCK_TICKS_PER_SECOND;
    }

    /** The process's resident set in bytes (VmRSS). */
    static Long residentBytes(long pid) {
        String status = read(Path.of("/proc", String.valueOf(pid), "status"));
        if (status == null) {
            return null;
        }
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return null;
    }

    /** Whether standard error is a terminal: its descriptor links to a tty or pseudo-terminal. */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            return null;
        }
    }
}
