package io.kvd.server.evict;

import io.kvd.server.config.Config;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.store.Databases;
import io.kvd.server.store.KeyAccess;
import io.kvd.server.store.Keyspace;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Redis's evict.c: keeps the store's used memory ({@link Databases#usedMemory}) within
 * {@code maxmemory} by deleting keys the policy chooses, before each command that may grow it
 * ({@code denyoom}) and at once when CONFIG SET lowers the limit. LRU, LFU and TTL policies
 * sample {@code maxmemory-samples} keys of each database into a pool of 16 candidates and evict
 * the best; random policies pick a random key of the next database in turn. One call spends at
 * most the time {@code maxmemory-eviction-tenacity} allows, then goes on in a task of the loop,
 * so eviction never stalls the other clients. Event loop only.
 */
public final class Eviction {
    /** Redis's EVICT_OK, EVICT_RUNNING (more to free, a task goes on with it) and EVICT_FAIL (nothing left to evict). */
    public enum Result { OK, RUNNING, FAIL }

    /** Told of each key evicted, after it went (Redis logs it as DEL and announces "evicted"). */
    public interface Listener {
        void evicted(int db, byte[] key);
    }

    /** Redis's shared.oomerr. */
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    /** Redis checks its time budget once every this many keys evicted. */
    private static final int KEYS_PER_TIME_CHECK = 16;

    private final Databases databases;
    private final Config config;
    private final LatencyMonitor latency;
    private final BooleanSupplier paused;
    private final Listener listener;
    private final EvictionPool pool = new EvictionPool();
    private Executor loop;
    private long maxmemory;
    private EvictionPolicy policy = EvictionPolicy.NOEVICTION;
    private int samples;
    private long timeLimitNanos;
    /** The database a random policy tries first next time (Redis's static next_db). */
    private int nextDb;
    private boolean continuing;
    private long evictedKeys;
    /** nanoTime since used memory has been over maxmemory without being brought back, 0 when not; and the total of past spells. */
    private long exceededSince;
    private long exceededNanos;
    /** What sampling a database feeds the pool with; one object, so that sampling allocates nothing per key but the keys kept. */
    private final Keyspace.EvictionSampler toPool = new Keyspace.EvictionSampler() {
        @Override
        public boolean wants(int accessStamp, long deadline) {
            sampledIdle = idle(accessStamp, deadline);
            return pool.accepts(sampledIdle);
        }

        @Override
        public void sampled(byte[] key) {
            pool.offer(sampledIdle, key, populatingDb);
        }
    };
    /** The database being sampled into the pool, and the rank of the key the sampler looks at. */
    private int populatingDb;
    private long sampledIdle;
    /** What a random policy's sampling keeps: the one key drawn. */
    private final Keyspace.EvictionSampler toChosen = new Keyspace.EvictionSampler() {
        @Override
        public boolean wants(int accessStamp, long deadline) {
            return true;
        }

        @Override
        public void sampled(byte[] key) {
            chosenKey = key;
        }
    };
    /** The key {@link #chooseKey} chose. */
    private byte[] chosenKey;
    private boolean outOfMemoryAtScriptStart;

    /**
     * @param paused whether a CLIENT PAUSE holds writes: Redis then evicts nothing, as evicting is
     *               writing (isSafeToPerformEvictions)
     */
    public Eviction(Databases databases, Config config, LatencyMonitor latency, BooleanSupplier paused,
                    Listener listener) {
        this.databases = databases;
        this.config = config;
        this.latency = latency;
        this.paused = paused;
        this.listener = listener;
        configure();
        config.onChange(name -> {
            if (isOurs(name)) {
                configure();
                if (name.equals(Config.MAXMEMORY)) {
                    // As Redis's updateMaxmemory: a lower limit evicts at once.
                    perform();
                }
            }
        });
    }

    private static boolean isOurs(String name) {
        return switch (name) {
            case Config.MAXMEMORY, Config.MAXMEMORY_POLICY, Config.MAXMEMORY_SAMPLES,
                 Config.MAXMEMORY_EVICTION_TENACITY, Config.LFU_LOG_FACTOR, Config.LFU_DECAY_TIME -> true;
            default -> false;
        };
    }

    private void configure() {
        maxmemory = Long.parseLong(config.get(Config.MAXMEMORY));
        policy = EvictionPolicy.named(config.get(Config.MAXMEMORY_POLICY));
        samples = Integer.parseInt(config.get(Config.MAXMEMORY_SAMPLES));
        timeLimitNanos = timeLimitMicros(Integer.parseInt(config.get(Config.MAXMEMORY_EVICTION_TENACITY))) * 1000;
        databases.access().configure(policy.isLfu(), Integer.parseInt(config.get(Config.LFU_LOG_FACTOR)),
                Integer.parseInt(config.get(Config.LFU_DECAY_TIME)));
    }

    /**
     * Redis's evictionTimeLimitUs: 50 µs per step of tenacity up to 10 (500 µs, the default),
     * then 15 % more per step, unlimited at 100.
     */
    static long timeLimitMicros(int tenacity) {
        if (tenacity <= 10) {
            return 50L * tenacity;
        }
        if (tenacity < 100) {
            return (long) (500.0 * Math.pow(1.15, tenacity - 10.0));
        }
        return Long.MAX_VALUE / 1000;
    }

    /**
     * Redis's server.script_oom: whether memory was full (nothing left to evict) when the running
     * script, function or transaction was let in; a script's first write is refused if so.
     */
    public boolean outOfMemoryAtScriptStart() {
        return maxmemory != 0 && outOfMemoryAtScriptStart;
    }

    public void scriptStarting(boolean outOfMemory) {
        outOfMemoryAtScriptStart = outOfMemory;
    }

    /** Where eviction that ran out of its time goes on: the event loop. */
    public void useExecutor(Executor loop) {
        this.loop = loop;
    }

    /** maxmemory in bytes; 0 means no limit. */
    public long maxmemory() {
        return maxmemory;
    }

    public EvictionPolicy policy() {
        return policy;
    }

    /** INFO's evicted_keys. */
    public long evictedKeys() {
        return evictedKeys;
    }

    /** INFO's total_eviction_exceeded_time, in ms: how long used memory has been over maxmemory, the current spell included. */
    public long exceededMs() {
        return (exceededNanos + currentExceededNanos()) / 1_000_000;
    }

    /** INFO's current_eviction_exceeded_time, in ms. */
    public long currentExceededMs() {
        return currentExceededNanos() / 1_000_000;
    }

    private long currentExceededNanos() {
        return exceededSince == 0 ? 0 : System.nanoTime() - exceededSince;
    }

    /** CONFIG RESETSTAT */
    public void resetStats() {
        evictedKeys = 0;
        exceededNanos = 0;
    }

    /**
     * Redis's performEvictions: evicts until used memory is within maxmemory, the time budget is
     * spent (the rest goes on in a task: {@link Result#RUNNING}) or nothing is left to evict
     * ({@link Result#FAIL}: noeviction, or no key the policy may take).
     */
    public Result perform() {
        if (maxmemory == 0 || paused.getAsBoolean()) {
            return Result.OK;
        }
        long used = databases.usedMemory();
        Result result;
        if (used <= maxmemory) {
            result = Result.OK;
        } else if (policy == EvictionPolicy.NOEVICTION) {
            result = Result.FAIL;
        } else {
            result = evict(used - maxmemory);
        }
        if (result == Result.OK) {
            if (exceededSince != 0) {
                exceededNanos += System.nanoTime() - exceededSince;
                exceededSince = 0;
            }
        } else if (exceededSince == 0) {
            exceededSince = System.nanoTime();
        }
        return result;
    }

    private Result evict(long toFree) {
        long started = System.nanoTime();
        long freed = 0;
        int keysFreed = 0;
        Result result = Result.OK;
        while (freed < toFree) {
            int db = chooseKey();
            if (db < 0) {
                result = Result.FAIL;
                break;
            }
            byte[] key = chosenKey;
            long before = databases.usedMemory();
            long deleteStarted = latency.isOn() ? System.nanoTime() : 0;
            databases.get(db).evict(key);
            if (latency.isOn()) {
                latency.addSampleIfNeeded("eviction-del", (System.nanoTime() - deleteStarted) / 1_000_000);
            }
            freed += before - databases.usedMemory();
            evictedKeys++;
            listener.evicted(db, key);
            keysFreed++;
            if (keysFreed % KEYS_PER_TIME_CHECK == 0 && System.nanoTime() - started > timeLimitNanos) {
                continueLater();
                result = Result.RUNNING;
                break;
            }
        }
        if (latency.isOn()) {
            latency.addSampleIfNeeded("eviction-cycle", (System.nanoTime() - started) / 1_000_000);
        }
        return result == Result.OK && continuing ? Result.RUNNING : result;
    }

    /** Redis's startEvictionTimeProc: a task of the loop evicts on, after the other clients' turn. */
    private void continueLater() {
        if (continuing || loop == null) {
            return;
        }
        continuing = true;
        loop.execute(() -> {
            continuing = false;
            perform();
        });
    }

    /** Chooses the next key to evict into {@link #chosenKey}; returns its database, or -1 if there is none. */
    private int chooseKey() {
        return policy.choice == EvictionPolicy.Choice.RANDOM ? chooseRandom() : chooseFromPool();
    }

    private int chooseRandom() {
        int count = databases.count();
        for (int i = 0; i < count; i++) {
            int db = nextDb = (nextDb + 1) % count;
            Keyspace keyspace = databases.get(db);
            if (candidates(keyspace) != 0) {
                // A sample of consecutive buckets may meet only empty ones: draw again.
                chosenKey = null;
                while (chosenKey == null) {
                    keyspace.sampleForEviction(1, !policy.allKeys, toChosen);
                }
                return db;
            }
        }
        return -1;
    }

    private int chooseFromPool() {
        while (true) {
            long total = 0;
            for (int db = 0; db < databases.count(); db++) {
                Keyspace keyspace = databases.get(db);
                int keys = candidates(keyspace);
                if (keys != 0) {
                    populatingDb = db;
                    keyspace.sampleForEviction(samples, !policy.allKeys, toPool);
                    total += keys;
                }
            }
            if (total == 0) {
                return -1;
            }
            // Best first; a candidate gone since it was pooled (or no longer with a TTL) is dropped.
            for (int slot = pool.best(); slot >= 0; slot = pool.best()) {
                byte[] key = pool.key(slot);
                int db = pool.db(slot);
                pool.clear(slot);
                if (databases.get(db).holds(key, !policy.allKeys)) {
                    chosenKey = key;
                    return db;
                }
            }
        }
    }

    private int candidates(Keyspace keyspace) {
        return policy.allKeys ? keyspace.size() : keyspace.sizeWithDeadline();
    }

    /** Redis's evictionPoolPopulate's ranking: the idler (or sooner to expire), the better to evict. */
    private long idle(int stamp, long deadline) {
        KeyAccess access = databases.access();
        return switch (policy.choice) {
            case LRU -> access.idleMs(stamp);
            case LFU -> 255 - access.decremented(stamp);
            case TTL -> Long.MAX_VALUE - deadline;
            default -> throw new IllegalStateException("no pool for " + policy);
        };
    }
}
