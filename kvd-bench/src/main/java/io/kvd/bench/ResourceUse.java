package io.kvd.bench;

import java.util.List;

/**
 * What the machine did around a measured run; each reading is null where it could not be taken.
 *
 * @param loadBefore       the 1-minute load average just before the run
 * @param loadAfter        the same just after
 * @param clientCpuSeconds kvbench's own CPU time during the run, every thread (JIT and GC too)
 * @param serverPids       the server processes whose CPU time was read; empty when none was known
 * @param serverCpuSeconds their CPU time during the run, summed
 */
record ResourceUse(Double loadBefore, Double loadAfter, Double clientCpuSeconds, List<Long> serverPids,
                   Double serverCpuSeconds) {

    /** Takes the "before" readings; {@link Start#finish} takes the "after" ones. */
    static Start start(List<Long> serverPids) {
        return new Start(ProcFs.loadAverage(), ProcFs.cpuSeconds(ProcessHandle.current().pid()), serverPids,
                serverCpuSeconds(serverPids));
    }

    record Start(Double load, Double clientCpu, List<Long> serverPids, Double serverCpu) {
        ResourceUse finish() {
            return new ResourceUse(load, ProcFs.loadAverage(),
                    minus(ProcFs.cpuSeconds(ProcessHandle.current().pid()), clientCpu), serverPids,
                    minus(serverCpuSeconds(serverPids), serverCpu));
        }
    }

    private static Double serverCpuSeconds(List<Long> pids) {
        if (pids.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (long pid : pids) {
            Double seconds = ProcFs.cpuSeconds(pid);
            if (seconds == null) {
                return null;
            }
            sum += seconds;
        }
        return sum;
    }

    private static Double minus(Double after, Double before) {
        return after == null || before == null ? null : after - before;
    }
}
