package io.kvd.server.client;

import io.kvd.server.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;

/**
 * Redis 7.0's client eviction (networking.c: updateClientMemUsage, evictClients,
 * getClientEvictionLimit): while the memory of the normal and pubsub clients together reaches
 * {@code maxmemory-clients}, the largest evictable clients are closed until it is below.
 *
 * <p>Each client's memory ({@link Client#memoryUsage}, its output as far as the socket has not
 * taken it) is measured where it changes (after a read, after a command, when output is added to
 * it from elsewhere, after a flush) and in the cron, and kept here with the sum. Evictable
 * clients sit in Redis's buckets by size, one per power of two from 32 KB (smaller clients share
 * the first) to 8 GB (larger ones share the last); eviction takes from the largest bucket first,
 * oldest arrival in it first, as Redis, so it never sorts or scans the clients. With {@code maxmemory-clients 0} (the default) nothing is measured.
 * Event loop only.
 */
public final class ClientEviction {
    private static final Logger log = LoggerFactory.getLogger(ClientEviction.class);
    /** Redis's CLIENT_MEM_USAGE_BUCKET_MIN_LOG and _MAX_LOG. */
    static final int MIN_LOG = 15;
    static final int MAX_LOG = 33;
    private static final int BUCKETS = MAX_LOG - MIN_LOG + 1;
    /** As Redis: a smaller limit is raised to this, so a bad setting cannot lock every client out. */
    static final long MIN_LIMIT = 128 * 1024;

    /** A client's place here: its last measured memory and its links in its bucket. */
    static final class Entry {
        private final Client client;
        private long memory;
        private int bucket = -1;
        private Entry previous;
        private Entry next;

        Entry(Client client) {
            this.client = client;
        }
    }

    /** The first and last entry of each bucket, oldest arrival first. */
    private final Entry[] heads = new Entry[BUCKETS];
    private final Entry[] tails = new Entry[BUCKETS];
    private final Config config;
    private final Collection<Client> clients;
    /** The limit in bytes, 0 while client eviction is off. */
    private long limit;
    /** The memory of the normal and pubsub clients as last measured (Redis's stat_clients_type_memory). */
    private long total;
    private long evicted;
    /** Over the limit with no evictable client left, and logged so. */
    private boolean warnedOver;

    ClientEviction(Config config, Collection<Client> clients) {
        this.config = config;
        this.clients = clients;
        limit = configuredLimit();
        config.onChange(name -> {
            if (name.equals(Config.MAXMEMORY_CLIENTS) || name.equals(Config.MAXMEMORY)) {
                reconfigure();
            }
        });
    }

    /**
     * Redis's getClientEvictionLimit: {@code maxmemory-clients} in bytes, or as a percentage of
     * maxmemory (off while maxmemory is 0); 0 is off; at least 128 KB otherwise.
     */
    static long limit(String maxmemoryClients, long maxmemory) {
        long bytes;
        if (maxmemoryClients.endsWith("%")) {
            long percent = Long.parseLong(maxmemoryClients.substring(0, maxmemoryClients.length() - 1));
            bytes = (long) ((double) maxmemory * percent / 100);
        } else {
            bytes = Long.parseLong(maxmemoryClients);
        }
        return bytes == 0 ? 0 : Math.max(bytes, MIN_LIMIT);
    }

    private long configuredLimit() {
        return limit(config.get(Config.MAXMEMORY_CLIENTS), Long.parseLong(config.get(Config.MAXMEMORY)));
    }

    /** Whether client eviction is on: the request path measures clients only then. */
    public boolean enabled() {
        return limit > 0;
    }

    /** INFO's evicted_clients. */
    public long evictedClients() {
        return evicted;
    }

    /** The memory of the normal and pubsub clients as last measured; 0 while off. */
    public long total() {
        return total;
    }

    /** CONFIG RESETSTAT */
    public void resetStats() {
        evicted = 0;
    }

    /**
     * A changed limit: on, every client is measured; off, nothing stays measured. The eviction
     * follows when the CONFIG SET has run, as after any command ({@link #evict}): measured now,
     * the client running it would count its own command's arguments, which Redis has already
     * freed when it evicts for the new limit.
     */
    private void reconfigure() {
        limit = configuredLimit();
        for (Client client : clients) {
            if (limit == 0) {
                forget(client);
            } else {
                measure(client);
            }
        }
    }

    /** The cron's pass (Redis's clientsCron): every client measured, then the limit enforced. */
    public void cron() {
        if (limit > 0) {
            for (Client client : clients) {
                measure(client);
            }
            evict();
        }
    }

    /**
     * Redis's updateClientMemUsage: {@code client}'s memory measured now and its bucket changed if
     * its size class did. A replica, the master, a client without a socket and one being closed
     * count for nothing; one with CLIENT NO-EVICT counts but is in no bucket.
     */
    public void measure(Client client) {
        if (limit == 0) {
            return;
        }
        Entry entry = client.evictionEntry();
        boolean counted = client.connection() != null && client.replica() == null && !client.isMaster()
                && !client.isClosingAfterReply();
        // Without the replies still in the client's buffer: they leave with this iteration's flush,
        // which measures what the socket did not take. Counted before it, a command's small reply
        // would weigh on the limit for an instant, where Redis's fixed reply buffer absorbs it.
        long memory = counted ? client.memoryUsage() - client.reply().pendingBytes() : 0;
        total += memory - entry.memory;
        entry.memory = memory;
        int bucket = counted && !client.isNoEvict() ? bucket(memory) : -1;
        if (bucket != entry.bucket) {
            unlink(entry);
            if (bucket >= 0) {
                append(entry, bucket);
            }
        }
    }

    /** The client is gone or going: it counts for nothing from now on. */
    public void forget(Client client) {
        Entry entry = client.evictionEntry();
        total -= entry.memory;
        entry.memory = 0;
        unlink(entry);
    }

    /**
     * Redis's evictClients: while the clients' memory is at or over the limit, the oldest client of
     * the largest non-empty bucket is closed, each logged with its CLIENT LIST line.
     */
    public void evict() {
        int bucket = BUCKETS - 1;
        while (limit > 0 && total >= limit) {
            while (bucket >= 0 && heads[bucket] == null) {
                bucket--;
            }
            if (bucket < 0) {
                // Redis logs this at every check; kvd checks after every read, command and flush,
                // so once until the clients are back under the limit.
                if (!warnedOver) {
                    warnedOver = true;
                    log.warn("Over client maxmemory after evicting all evictable clients");
                }
                return;
            }
            Client client = heads[bucket].client;
            log.info("Evicting client: {}", ClientInfo.describe(client));
            evicted++;
            forget(client);
            client.closeAfterReply();
            client.connection().close();
        }
        warnedOver = false;
    }

    /** Redis's getMemUsageBucket: by the memory's power of two, 32 KB and below in the first. */
    static int bucket(long memory) {
        int log2 = 64 - Long.numberOfLeadingZeros(memory);
        return Math.max(0, Math.min(log2, MAX_LOG) - MIN_LOG);
    }

    private void append(Entry entry, int bucket) {
        entry.bucket = bucket;
        entry.previous = tails[bucket];
        entry.next = null;
        if (tails[bucket] == null) {
            heads[bucket] = entry;
        } else {
            tails[bucket].next = entry;
        }
        tails[bucket] = entry;
    }

    private void unlink(Entry entry) {
        int bucket = entry.bucket;
        if (bucket < 0) {
            return;
        }
        if (entry.previous == null) {
            heads[bucket] = entry.next;
        } else {
            entry.previous.next = entry.next;
        }
        if (entry.next == null) {
            tails[bucket] = entry.previous;
        } else {
            entry.next.previous = entry.previous;
        }
        entry.previous = null;
        entry.next = null;
        entry.bucket = -1;
    }
}
