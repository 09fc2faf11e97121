package io.kvd.server.client;

import java.util.function.BooleanSupplier;

/**
 * The AOF as BGREWRITEAOF, SHUTDOWN and INFO persistence see it: whether it is on, whether a
 * rewrite runs or waits, how the last one ended, the file size it left (the base automatic
 * rewrites grow from); and DEBUG LOADAOF's reload. The AOF's owner starts rewrites and reports
 * here; commands never see the files.
 */
public final class AofRewriteStatus {
    /** Redis's aof_state. */
    public enum AofState {
        OFF,
        ON,
        /** Switched on at run time: writes go to a temporary incr file until the first rewrite ends. */
        WAIT_REWRITE
    }

    private AofState aofState = AofState.OFF;
    private boolean scheduled;
    private BooleanSupplier starter = () -> false;
    private Runnable loader = () -> { };
    private boolean inProgress;
    private long startedAtMs;
    private long lastDurationSec = -1;
    private boolean lastSucceeded = true;
    private long rewrites;
    private long consecutiveFailures;
    private long baseSize;

    /** Set by the server: starts a rewrite, false if it could not start (the reason is logged). */
    public void onStart(BooleanSupplier starter) {
        this.starter = starter;
    }

    public boolean start() {
        return starter.getAsBoolean();
    }

    /** Set by the server: empties the databases and loads the AOF's files again (DEBUG LOADAOF). */
    public void onLoad(Runnable loader) {
        this.loader = loader;
    }

    public void load() {
        loader.run();
    }

    public AofState aofState() {
        return aofState;
    }

    public void setAofState(AofState aofState) {
        this.aofState = aofState;
    }

    /** A rewrite waits for a BGSAVE to end, or to be retried (INFO's aof_rewrite_scheduled). */
    public boolean scheduled() {
        return scheduled;
    }

    public void schedule() {
        scheduled = true;
    }

    public void unschedule() {
        scheduled = false;
    }

    public boolean inProgress() {
        return inProgress;
    }

    public void started(long nowMs) {
        inProgress = true;
        startedAtMs = nowMs;
    }

    /** A rewrite ended, having replaced the file or not. */
    public void finished(boolean succeeded, long nowMs) {
        inProgress = false;
        lastDurationSec = (nowMs - startedAtMs) / 1000;
        lastSucceeded = succeeded;
        if (succeeded) {
            rewrites++;
            consecutiveFailures = 0;
        } else {
            consecutiveFailures++;
        }
    }

    /** A rewrite was stopped on purpose (appendonly no, shutdown): neither success nor failure. */
    public void stopped() {
        inProgress = false;
    }

    public long consecutiveFailures() {
        return consecutiveFailures;
    }

    /** The AOF's size after the last rewrite, or when it was loaded. */
    public long baseSize() {
        return baseSize;
    }

    public void setBaseSize(long baseSize) {
        this.baseSize = baseSize;
    }

    public long currentDurationSec(long nowMs) {
        return inProgress ? (nowMs - startedAtMs) / 1000 : -1;
    }

    public long lastDurationSec() {
        return lastDurationSec;
    }

    public boolean lastSucceeded() {
        return lastSucceeded;
    }

    public long rewrites() {
        return rewrites;
    }
}
