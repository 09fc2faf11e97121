package io.kvd.server.evict;

import java.util.Locale;

/** maxmemory-policy: which keys may go (all, or those with a TTL) and how the best is chosen (Redis's MAXMEMORY_* flags). */
public enum EvictionPolicy {
    VOLATILE_LRU(false, Choice.LRU),
    VOLATILE_LFU(false, Choice.LFU),
    VOLATILE_RANDOM(false, Choice.RANDOM),
    VOLATILE_TTL(false, Choice.TTL),
    ALLKEYS_LRU(true, Choice.LRU),
    ALLKEYS_LFU(true, Choice.LFU),
    ALLKEYS_RANDOM(true, Choice.RANDOM),
    NOEVICTION(false, Choice.NONE);

    /** How a policy ranks the keys it samples. */
    enum Choice { LRU, LFU, TTL, RANDOM, NONE }

    final boolean allKeys;
    final Choice choice;

    EvictionPolicy(boolean allKeys, Choice choice) {
        this.allKeys = allKeys;
        this.choice = choice;
    }

    /** The policy maxmemory-policy names ({@code allkeys-lru}, ...), as config checked it. */
    public static EvictionPolicy named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Redis's MAXMEMORY_FLAG_LRU. */
    public boolean isLru() {
        return choice == Choice.LRU;
    }

    /** Redis's MAXMEMORY_FLAG_LFU: access stamps are LFU counters, OBJECT FREQ answers and IDLETIME refuses. */
    public boolean isLfu() {
        return choice == Choice.LFU;
    }
}
