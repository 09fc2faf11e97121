package io.kvd.server.memory;

import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The server's memory figures under Redis's names (object.c's getMemoryOverheadData, MEMORY
 * DOCTOR, MEMORY MALLOC-STATS, INFO memory). used_memory is the store's own account of its keys
 * and values ({@link Databases#usedMemory}: the sum of MEMORY USAGE over every key), the figure
 * maxmemory bounds; what the server holds beside it (the JVM's heap at start, clients' buffers,
 * the AOF's buffer, the scripting engines) is the overhead, shown but not counted against
 * maxmemory. The JVM's heap in use stands for the allocator's allocated bytes, its committed heap
 * for the active pages, the committed heap and non-heap and the direct buffers for what the
 * allocator holds resident. docs/configuration.md defines used memory and the bound on the
 * resident set; docs/compatibility.md says which figure each field shows. Event loop only.
 */
public final class ServerMemory {
    /** MEMORY DOCTOR's limits, as Redis's getMemoryDoctorReport. */
    private static final long EMPTY_BELOW = 5L << 20;
    private static final long BIG_CLIENT_BUFFERS = 200L << 10;
    private static final int MANY_SCRIPTS = 1000;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final Databases databases;
    /** The JVM's heap in use at start: the part of the overhead no data set changes. */
    private final long startupHeapBytes;
    private long peakBytes;

    /** Measures the heap in use now as the server's startup overhead. */
    public ServerMemory(Databases databases) {
        this.databases = databases;
        startupHeapBytes = heapUsed();
    }

    /** The store's used memory (used_memory), raising the peak; the cron calls it each tick, as Redis's. */
    public long used() {
        long used = databases.usedMemory();
        if (used > peakBytes) {
            peakBytes = used;
        }
        return used;
    }

    private static long heapUsed() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /** The database figures of MEMORY STATS's db.N entries, for a database holding keys. */
    public record DatabaseOverhead(int index, long mainBytes, long expiresBytes) {
    }

    /**
     * Redis's struct redisMemOverhead with kvd's figures: what the server holds beside the
     * dataset, the dataset, and how the heap compares with what the process holds.
     */
    public record Overhead(long peak, long total, long startup, long clientsNormal, long aofBuffer,
                           long luaCaches, long functionsCaches, List<DatabaseOverhead> databases,
                           long overheadTotal, long keys, long bytesPerKey, long dataset, float datasetPercentage,
                           float peakPercentage, long allocated, long active, long resident, long rss) {
        public float allocatorFragmentation() {
            return (float) active / allocated;
        }

        public long allocatorFragmentationBytes() {
            return active - allocated;
        }

        public float allocatorRss() {
            return (float) resident / active;
        }

        public long allocatorRssBytes() {
            return resident - active;
        }

        public float rssOverhead() {
            return (float) rss / resident;
        }

        public long rssOverheadBytes() {
            return rss - resident;
        }

        public float fragmentation() {
            return (float) rss / Math.max(total, 1);
        }

        public long fragmentationBytes() {
            return rss - total;
        }
    }

    /**
     * The figures as Redis's getMemoryOverheadData sums them, with kvd's meaning: the total and the
     * dataset are the store's used memory; the overhead is what is held beside it, the heap at
     * start, the clients' buffers, the AOF's and the scripting engines'. Each database's index and
     * deadlines are shown (their whole arrays), but not summed: used memory counts each key's share
     * of them already.
     */
    public Overhead overhead(long clientsNormal, long aofBuffer, long luaCaches, long functionsCaches) {
        long total = used();
        long overheadTotal = startupHeapBytes + clientsNormal + aofBuffer + luaCaches + functionsCaches;
        List<DatabaseOverhead> perDatabase = new ArrayList<>();
        long keys = 0;
        for (int i = 0; i < databases.count(); i++) {
            Keyspace keyspace = databases.get(i);
            if (keyspace.size() == 0) {
                continue;
            }
            keys += keyspace.size();
            perDatabase.add(new DatabaseOverhead(i, keyspace.indexMemoryUsage(), keyspace.deadlinesMemoryUsage()));
        }
        long dataset = total;
        // The store is empty at start, so all of used memory came since.
        long netUsage = Math.max(total, 1);
        MemoryUsage heap = MEMORY.getHeapMemoryUsage();
        long resident = heap.getCommitted() + MEMORY.getNonHeapMemoryUsage().getCommitted() + directBytes();
        long rss = residentSetBytes();
        return new Overhead(peakBytes, total, 0, clientsNormal, aofBuffer, luaCaches, functionsCaches,
                perDatabase, overheadTotal, keys, keys == 0 ? 0 : netUsage / keys, dataset,
                (float) dataset * 100 / netUsage, (float) total * 100 / Math.max(peakBytes, 1),
                heap.getUsed(), heap.getCommitted(), resident, rss < 0 ? resident : rss);
    }

    /** Direct buffers: the JDK's, and Netty's own where it allocates them without the JDK's count. */
    private static long directBytes() {
        long bytes = Math.max(0, PlatformDependent.usedDirectMemory());
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            bytes += Math.max(0, pool.getMemoryUsed());
        }
        return bytes;
    }

    /** VmRSS from /proc/self/status, or -1 where there is no such file. */
    public static long residentSetBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /**
     * MEMORY DOCTOR's report, Redis's texts. Of Redis's checks those that mean the same on a
     * collected heap apply: an instance whose dataset is under 5 MB is empty (the JVM's own heap is
     * never that small, so Redis's used-memory test would never fire), clients' buffers, cached
     * scripts. A peak far above the heap in use is G1 between collections, and the allocator's
     * fragmentation and RSS ratios are the heap's free room, so neither is reported.
     */
    public static String doctor(Overhead overhead, int clients, int cachedScripts) {
        if (overhead.dataset() < EMPTY_BELOW) {
            return "Hi Sam, this instance is empty or is using very little memory, "
                    + "my issues detector can't be used in these conditions. "
                    + "Please, leave for your mission on Earth and fill it with some data. "
                    + "The new Sam and I will be back to our programming as soon as I "
                    + "finished rebooting.\n";
        }
        boolean bigClientBuffers = clients > 0 && overhead.clientsNormal() / clients > BIG_CLIENT_BUFFERS;
        boolean manyScripts = cachedScripts > MANY_SCRIPTS;
        if (!bigClientBuffers && !manyScripts) {
            return "Hi Sam, I can't find any memory issue in your instance. "
                    + "I can only account for what occurs on this base.\n";
        }
        StringBuilder report = new StringBuilder("Sam, I detected a few issues in this Redis instance memory implants:\n\n");
        if (bigClientBuffers) {
            report.append(" * Big client buffers: The clients output buffers in this instance are greater than 200K per"
                    + " client (on average). This may result from different causes, like Pub/Sub clients subscribed"
                    + " to channels bot not receiving data fast enough, so that data piles on the Redis instance"
                    + " output buffer, or clients sending commands with large replies or very large sequences of"
                    + " commands in the same pipeline. Please use the CLIENT LIST command in order to investigate"
                    + " the issue if it causes problems in your instance, or to understand better why certain"
                    + " clients are using a big amount of memory.\n\n");
        }
        if (manyScripts) {
            report.append(" * Many scripts: There seem to be many cached scripts in this instance (more than 1000)."
                    + " This may be because scripts are generated and `EVAL`ed, instead of being parameterized"
                    + " (with KEYS and ARGV), `SCRIPT LOAD`ed and `EVALSHA`ed. Unless `SCRIPT FLUSH` is called"
                    + " periodically, the scripts' caches may end up consuming most of your memory.\n\n");
        }
        return report.append("I'm here to keep you safe, Sam. I want to help you.\n").toString();
    }

    /**
     * MEMORY MALLOC-STATS: where Redis prints jemalloc's statistics, the JVM's own account: the
     * heap, each memory pool, the direct buffers and the collectors' work.
     */
    public static String mallocStats() {
        StringBuilder text = new StringBuilder("___ Begin JVM memory statistics ___\n");
        appendUsage(text, "heap", MEMORY.getHeapMemoryUsage());
        appendUsage(text, "non-heap", MEMORY.getNonHeapMemoryUsage());
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            appendUsage(text, "pool \"" + pool.getName() + "\" (" + pool.getType().toString().toLowerCase(Locale.ROOT) + ")",
                    pool.getUsage());
            MemoryUsage peak = pool.getPeakUsage();
            if (peak != null) {
                text.append("  peak used: ").append(peak.getUsed()).append('\n');
            }
        }
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            text.append("buffer pool \"").append(pool.getName()).append("\": count: ").append(pool.getCount())
                    .append(", used: ").append(pool.getMemoryUsed())
                    .append(", capacity: ").append(pool.getTotalCapacity()).append('\n');
        }
        text.append("netty direct memory: used: ").append(PlatformDependent.usedDirectMemory())
                .append(", max: ").append(PlatformDependent.maxDirectMemory()).append('\n');
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            text.append("collector \"").append(collector.getName()).append("\": collections: ")
                    .append(collector.getCollectionCount()).append(", time: ")
                    .append(collector.getCollectionTime()).append(" ms\n");
        }
        return text.append("--- End JVM memory statistics ---\n").toString();
    }

    private static void appendUsage(StringBuilder text, String name, MemoryUsage usage) {
        text.append(name).append(": used: ").append(usage.getUsed())
                .append(", committed: ").append(usage.getCommitted())
                .append(", max: ").append(usage.getMax()).append('\n');
    }
}
