package io.kvd.server.rdb;

import io.kvd.server.config.Config;
import io.kvd.server.store.Databases;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Snapshots to {@code dir/dbfilename} as Redis's rdb.c and serverCron take them: SAVE in the
 * foreground, BGSAVE (by command, by a {@code save <seconds> <changes>} point, or scheduled
 * behind an AOF rewrite) as an {@link RdbSave} stepped on the loop, one at a time; and the
 * figures INFO persistence and LASTSAVE report. With {@code stop-writes-on-bgsave-error} and
 * save points set, a failed BGSAVE refuses writes until one succeeds. Event loop only.
 */
public final class RdbPersistence {
    /** Redis's refusal of writes after a failed BGSAVE with save points and stop-writes-on-bgsave-error. */
    public static final String BGSAVE_FAILED = "MISCONF Redis is configured to save RDB snapshots, but it's currently unable "
            + "to persist to disk. Commands that may modify the data set are disabled, because this instance is "
            + "configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error "
            + "option). Please check the Redis logs for details about the RDB error.";

    private static final Logger log = LoggerFactory.getLogger(RdbPersistence.class);
    /** Redis's CONFIG_BGSAVE_RETRY_DELAY: after a failed BGSAVE, save points wait this long. */
    private static final long RETRY_DELAY_MS = 5_000;

    /** How a BGSAVE request went. */
    public enum Start { STARTED, SCHEDULED, ALREADY_RUNNING, OTHER_SNAPSHOT_RUNNING }

    private final Config config;
    private final Databases databases;
    private final Supplier<List<byte[]>> libraries;
    private final LongSupplier changes;
    private final LongSupplier usedMemory;
    private ScheduledExecutorService loop;
    private RdbSave running;
    /** The end of a running save to replicas' sockets; null while the running save (if any) is to the file. */
    private Consumer<Boolean> transferEnd;
    private long runningStartedMs;
    private long changesAtStart;
    private boolean scheduled;
    private boolean aborting;
    private Consumer<Boolean> endListener = succeeded -> { };
    private Supplier<RdbSave.ReplicationInfo> replicationInfo = () -> null;
    private long changesAtLastSave;
    private long lastSaveMs = System.currentTimeMillis();
    private long lastTryMs;
    private boolean lastBgsaveOk = true;
    private long lastBgsaveSeconds = -1;
    private long saves;
    private long lastLoadKeys;
    private long lastLoadExpired;

    /**
     * @param changes the server's count of changes (Redis's dirty counter, never reset)
     */
    public RdbPersistence(Config config, Databases databases, Supplier<List<byte[]>> libraries, LongSupplier changes,
                          LongSupplier usedMemory) {
        this.config = config;
        this.databases = databases;
        this.libraries = libraries;
        this.changes = changes;
        this.usedMemory = usedMemory;
    }

    public void useLoop(ScheduledExecutorService loop) {
        this.loop = loop;
    }

    /** dir/dbfilename. */
    public Path file() {
        return config.dir().resolve(config.get(Config.DBFILENAME));
    }

    private RdbSave.Options options() {
        return new RdbSave.Options(file(), false, databases.limits(), yes(Config.RDBCOMPRESSION), yes(Config.RDBCHECKSUM),
                usedMemory.getAsLong(), libraries.get(), Long.parseLong(config.get(Config.RDB_KEY_SAVE_DELAY)),
                replicationInfo.get());
    }

    /**
     * An AOF rewrite's RDB base, written straight to {@code target} (the rewrite's own temporary
     * file): aux aof-base 1 and no replication fields, as Redis's rdbSaveRio with
     * RDBFLAGS_AOF_PREAMBLE and no rdbSaveInfo.
     */
    public RdbSave.Options aofBaseOptions(Path target) {
        return new RdbSave.Options(target, true, databases.limits(), yes(Config.RDBCOMPRESSION), yes(Config.RDBCHECKSUM),
                usedMemory.getAsLong(), libraries.get(), Long.parseLong(config.get(Config.RDB_KEY_SAVE_DELAY)), null);
    }

    private boolean yes(String directive) {
        return "yes".equals(config.get(directive));
    }

    /** SAVE: false (logged) if the file could not be written. */
    public boolean save() {
        return save(changes.getAsLong());
    }

    /**
     * FLUSHALL with save points, as Redis's flushAllDataAndResetRDB: the empty dataset saved, the
     * FLUSHALL itself (counted once it returns) included, so no change is left unsaved.
     */
    public boolean saveFlushed() {
        return save(changes.getAsLong() + 1);
    }

    private boolean save(long startChanges) {
        saves++;
        try {
            RdbSave.foreground(options(), databases);
        } catch (IOException | RuntimeException e) {
            log.warn("Failed saving the DB: {}", e.toString());
            return false;
        }
        saved(startChanges);
        return true;
    }

    private void saved(long startChanges) {
        changesAtLastSave = startChanges;
        lastSaveMs = System.currentTimeMillis();
        lastBgsaveOk = true;
    }

    public boolean inProgress() {
        return running != null;
    }

    /**
     * BGSAVE [SCHEDULE]: starts one unless one runs; while another snapshot (an AOF rewrite) runs,
     * or inside EXEC, it is scheduled if {@code schedule} (or {@code inTransaction}) says so.
     */
    public Start bgsave(boolean schedule, boolean inTransaction) {
        if (running != null) {
            return Start.ALREADY_RUNNING;
        }
        if (databases.snapshotRunning() || inTransaction) {
            if (schedule || inTransaction) {
                scheduled = true;
                return Start.SCHEDULED;
            }
            return Start.OTHER_SNAPSHOT_RUNNING;
        }
        startBackground();
        return Start.STARTED;
    }

    /**
     * Starts a BGSAVE. A file that cannot even be created fails it at once, as a Redis child
     * that cannot open its file fails after BGSAVE answered: logged, and reported as the last status.
     */
    private void startBackground() {
        long now = System.currentTimeMillis();
        lastTryMs = now;
        saves++;
        changesAtStart = changes.getAsLong();
        runningStartedMs = now;
        try {
            running = RdbSave.background(options(), databases, loop, this::ended);
            log.info("Background saving started");
        } catch (IOException e) {
            log.warn("Background saving error: can't create the file: {}", e.toString());
            ended(false);
        }
    }

    /**
     * A diskless full sync's snapshot, to {@code destination}, the replicas' sockets (Redis's
     * rdbSaveToSlavesSockets): a BGSAVE in progress for INFO and for BGSAVE, but no save: the
     * file, LASTSAVE and the changes since it stay as they were. {@code onEnd} runs on the loop.
     */
    public Start bgsaveTo(RdbSave.Destination destination, Consumer<Boolean> onEnd) {
        if (running != null || databases.snapshotRunning()) {
            return Start.ALREADY_RUNNING;
        }
        runningStartedMs = System.currentTimeMillis();
        transferEnd = onEnd;
        running = RdbSave.background(options(), databases, loop, destination, this::ended);
        return Start.STARTED;
    }

    private void ended(boolean succeeded) {
        running = null;
        lastBgsaveSeconds = (System.currentTimeMillis() - runningStartedMs) / 1000;
        if (transferEnd != null) {
            Consumer<Boolean> end = transferEnd;
            transferEnd = null;
            end.accept(succeeded);
            return;
        }
        if (succeeded) {
            log.info("Background saving terminated with success");
            saved(changesAtStart);
        } else if (!aborting) {
            lastBgsaveOk = false;
        }
        endListener.accept(succeeded);
    }

    /** Where each snapshot stands in the replication stream, or null when it stands nowhere (no backlog, no primary). */
    public void useReplicationInfo(Supplier<RdbSave.ReplicationInfo> replicationInfo) {
        this.replicationInfo = replicationInfo;
    }

    /** Replication learns of every BGSAVE's end, as Redis's backgroundSaveDoneHandler tells updateSlavesWaitingBgsave. */
    public void onBackgroundSaveEnded(Consumer<Boolean> listener) {
        this.endListener = listener;
    }

    /** From the cron: a scheduled BGSAVE once it can run, else the first save point reached (serverCron). */
    public void cron(long nowMs) {
        if (running != null || databases.snapshotRunning()) {
            return;
        }
        if (scheduled) {
            scheduled = false;
            startBackground();
            return;
        }
        long unsaved = changesSinceLastSave();
        long[] points = savePoints();
        for (int i = 0; i < points.length; i += 2) {
            long seconds = points[i];
            long needed = points[i + 1];
            if (unsaved >= needed && nowMs - lastSaveMs > seconds * 1000
                    && (nowMs - lastTryMs > RETRY_DELAY_MS || lastBgsaveOk)) {
                log.info("{} changes in {} seconds. Saving...", needed, seconds);
                startBackground();
                return;
            }
        }
    }

    /** The {@code save} directive's pairs, seconds then changes. */
    private long[] savePoints() {
        String value = config.get(Config.SAVE);
        if (value == null || value.isBlank()) {
            return new long[0];
        }
        String[] words = value.trim().split("\\s+");
        long[] points = new long[words.length];
        for (int i = 0; i < words.length; i++) {
            points[i] = Long.parseLong(words[i]);
        }
        return points;
    }

    public boolean hasSavePoints() {
        return savePoints().length > 0;
    }

    /** Redis's writeCommandsDeniedByDiskError for RDB: a failed BGSAVE with save points and stop-writes-on-bgsave-error. */
    public boolean refusesWrites() {
        return !lastBgsaveOk && yes(Config.STOP_WRITES_ON_BGSAVE_ERROR) && hasSavePoints();
    }

    /**
     * Shutdown and FLUSHALL: a running BGSAVE is abandoned, its temporary file deleted, and the
     * last status kept (Redis kills its child with SIGUSR1, which it does not count as a failure).
     */
    public void close() {
        if (running != null) {
            aborting = true;
            running.abort();
            aborting = false;
        }
    }

    /** A load at start: INFO's rdb_last_load_keys_loaded and rdb_last_load_keys_expired. */
    public void loaded(RdbLoader.Result result) {
        lastLoadKeys = result.keys();
        lastLoadExpired = result.expired();
        changesAtLastSave = changes.getAsLong();
    }

    public long changesSinceLastSave() {
        return changes.getAsLong() - changesAtLastSave;
    }

    public long lastSaveSeconds() {
        return lastSaveMs / 1000;
    }

    public boolean lastBgsaveOk() {
        return lastBgsaveOk;
    }

    public long lastBgsaveSeconds() {
        return lastBgsaveSeconds;
    }

    public long currentBgsaveSeconds(long nowMs) {
        return running == null ? -1 : (nowMs - runningStartedMs) / 1000;
    }

    public boolean scheduled() {
        return scheduled;
    }

    public long saves() {
        return saves;
    }

    public long lastLoadKeys() {
        return lastLoadKeys;
    }

    public long lastLoadExpired() {
        return lastLoadExpired;
    }
}
