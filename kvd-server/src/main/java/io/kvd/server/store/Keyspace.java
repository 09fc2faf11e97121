package io.kvd.server.store;

import io.kvd.server.latency.LatencyMonitor;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One database: keys to values of any {@link ValueType}, each with an optional deadline (absolute
 * Unix ms).
 *
 * <p>Only the event loop thread touches it, so nothing here is synchronized. It knows nothing of
 * sockets or RESP. Expired keys are never visible: every lookup checks the deadline against
 * {@link #now()}, the clock the server sets once per batch of commands (Redis's cached mstime).
 *
 * <p>Inside: each key and its value packed end to end with the others in large byte[] pages
 * ({@link PackedEntry}, {@link EntryPages}) and addressed by id through an {@link EntrySlab}; an
 * {@link IncrementalHashTable} (Redis's dict: chained buckets, resized a few buckets per
 * operation, SCAN's reverse-binary cursor across both tables); and a {@link DeadlineIndex}, the
 * dense array of deadlines that gives a uniformly random key with a TTL in O(1) for active expiry.
 * Values and keys handed out are copies, but for the {@link StringView}s of {@link #read} and
 * {@link #editString}, valid until the next change.
 *
 * <p>Each entry's tag in the slab is its {@link Encoding}. A string, a listpack hash and a small
 * set and a short list are the entry's bytes; a large collection is a {@link MemberTable} (a long
 * list a {@link QuickList}) in {@link MemberTables}, and the entry's bytes hold its handle there, so a lookup finds any type the same way and
 * deleting a large collection is dropping one reference. Commands reach collections through
 * {@link HashValue}, {@link SetValue}, {@link ListValue}, {@link ZSetValue} and {@link StreamValue}; a typed accessor
 * meeting another type throws
 * {@link WrongTypeException}.
 */
public final class Keyspace {
    /** {@link #deadline} of a key that does not exist. */
    public static final long MISSING = -2;
    /** {@link #deadline} of a key without a TTL. */
    public static final long PERSISTENT = -1;
    /** Most keys one {@link #prefetch} takes. */
    public static final int PREFETCH_KEYS = 16;
    /** Redis's OBJ_COMPUTE_SIZE_DEF_SAMPLES: a list's or a stream's nodes measured by {@link #memoryUsage}. */
    public static final int DEFAULT_MEMORY_SAMPLES = 5;
    /** A bucket head: an entry id. */
    private static final int BUCKET_SLOT_BYTES = Integer.BYTES;

    private final Databases databases;
    private final int index;
    private EntrySlab slab;
    private IncrementalHashTable table;
    private DeadlineIndex deadlines;
    /** The snapshot in progress, told before each change of an entry; null when none runs. */
    private KeyspaceSnapshot snapshot;
    /** Inside {@link #rebuild}: the key stored is not a new one. */
    private boolean rebuilding;
    private final SplittableRandom random;
    private MemberTables tables;
    private final int[] prefetchHashes = new int[PREFETCH_KEYS];
    private final int[] prefetchHeads = new int[PREFETCH_KEYS];
    /** The ids one {@link #sampleForEviction} drew. */
    private int[] sampledIds = new int[0];
    /** What {@link #prefetch} read, kept only so that the JIT keeps the reads. */
    private int prefetched;

    Keyspace(Databases databases, int index, long seed) {
        this.databases = databases;
        this.index = index;
        this.random = new SplittableRandom(seed);
        clear();
    }

    /** This database's number. */
    public int index() {
        return index;
    }

    public Databases databases() {
        return databases;
    }

    public EncodingLimits limits() {
        return databases.limits();
    }

    /** Sets the time every database's deadlines are compared with until the next call. */
    public void setTime(long nowMs) {
        databases.setTime(nowMs);
    }

    public long now() {
        return databases.now;
    }

    public int size() {
        return table.size();
    }

    public int sizeWithDeadline() {
        return deadlines.count();
    }

    /**
     * Counts the changes made through this API in any database (not expiry): a write command that
     * left it as it was changed nothing (Redis's server.dirty), so the AOF does not log it.
     */
    public long changes() {
        return databases.changes;
    }

    /** The string value of a live key (a copy), or null; {@link WrongTypeException} for another type. */
    public byte[] get(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        if (id == 0) {
            return null;
        }
        if (encodingOf(id).type != ValueType.STRING) {
            throw new WrongTypeException();
        }
        return slab.value(id);
    }

    /**
     * The string value of a live key where it is stored, or null; {@link WrongTypeException} for
     * another type. Valid until the next change, and only to be read: for commands that scan a
     * large string (BITCOUNT, BITPOS), which a copy would double.
     */
    public StringView read(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        if (id == 0) {
            return null;
        }
        if (encodingOf(id).type != ValueType.STRING) {
            throw new WrongTypeException();
        }
        return slab.valueView(id);
    }

    /**
     * SETBIT, BITFIELD, SETRANGE and APPEND's write: opens the string under {@code key} (a new one
     * of zero bytes if missing) for editing in place, first lengthened with zero bytes to at least
     * {@code length}, and returns it; the caller then writes the bytes it changes into the view,
     * before anything else changes the keyspace. Counted as a change and told to watchers now; a
     * running snapshot takes the old value first. The deadline stays; the value is raw from then
     * on, as Redis's edited strings are. So a change to a large string costs the bytes changed,
     * not a copy of the string, unless it grows. {@link WrongTypeException} for another type.
     */
    public StringView editString(byte[] key, int length) {
        int id = lookup(key, PackedEntry.hash(key));
        if (id != 0 && encodingOf(id).type != ValueType.STRING) {
            throw new WrongTypeException();
        }
        databases.changes++;
        if (id == 0) {
            id = store(key, new byte[length]);
        } else {
            if (snapshot != null) {
                snapshot.beforeChange(id);
            }
            if (slab.valueView(id).length() < length) {
                slab.growValue(id, length);
            }
            touched(key);
        }
        slab.setTag(id, Encoding.STRING_RAW.ordinal());
        return slab.valueView(id);
    }

    /** The string value of a live key, or null when it is missing or of another type (MGET). */
    public byte[] getIfString(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 || encodingOf(id).type != ValueType.STRING ? null : slab.value(id);
    }

    /** The type of a live key, or null. */
    public ValueType type(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key), false);
        return id == 0 ? null : encodingOf(id).type;
    }

    /** OBJECT ENCODING's name for a live key's value, or null. */
    public String objectEncoding(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        if (id == 0) {
            return null;
        }
        Encoding encoding = encodingOf(id);
        return encoding == Encoding.STRING ? StringEncoding.of(slab.value(id)) : encoding.objectEncoding;
    }

    /** What DEBUG OBJECT shows of a key: its encoding, entry id, a string's length and its access stamp. */
    public record ObjectFacts(String encoding, long address, int stringLength, int accessStamp) {
    }

    /**
     * DEBUG OBJECT's facts of {@code key}, or null if the table has none: as Redis's dictFind, a key
     * past its deadline is found and left in place (a replica keeps it for its primary's DEL), and
     * its access stamp is not touched.
     */
    public ObjectFacts objectFacts(byte[] key) {
        int id = table.find(key, PackedEntry.hash(key));
        if (id == 0) {
            return null;
        }
        Encoding encoding = encodingOf(id);
        boolean string = encoding.type == ValueType.STRING;
        return new ObjectFacts(string ? StringEncoding.of(slab.value(id)) : encoding.objectEncoding, id,
                string ? slab.value(id).length : 0, slab.access(id));
    }

    /**
     * Heap bytes the key costs, or 0 if it is missing (MEMORY USAGE): its entry in the pages (key,
     * value or handle, lengths, id), its ints in the slab, a bucket slot, a deadline slot if it has
     * a TTL, and a large collection's own structures, a list's or a stream's nodes sampled up to
     * {@code samples} and extrapolated as Redis's objectComputeSize does.
     */
    public long memoryUsage(byte[] key, long samples) {
        int id = lookup(key, PackedEntry.hash(key), false);
        return id == 0 ? 0 : memoryUsageOf(id, samples);
    }

    private long memoryUsageOf(int id, long samples) {
        long bytes = slab.entryBytes(id) + slab.bytesPerId() + BUCKET_SLOT_BYTES;
        if (slab.deadlineSlot(id) != 0) {
            bytes += DeadlineIndex.SLOT_BYTES;
        }
        if (encodingOf(id).table) {
            bytes += HeapSize.REFERENCE + tables.memoryUsage(slab.value(id), samples);
        }
        return bytes;
    }

    /** This database's share of {@link Databases#usedMemory}: the sum of {@link #memoryUsage} over its keys. */
    public long usedMemory() {
        return slab.accountedBytes() + (long) table.size() * BUCKET_SLOT_BYTES
                + (long) deadlines.count() * DeadlineIndex.SLOT_BYTES + tables.accountedBytes();
    }

    /** The large collection (a {@link MemberTable}, {@link QuickList} or {@link Stream}) {@code key} holds, or null: for measuring it. */
    Object heldCollection(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 || !encodingOf(id).table ? null : tables.held(slab.value(id));
    }

    /** Heap bytes of the keys' index: the slab's ids and the buckets (MEMORY STATS's overhead.hashtable.main). */
    public long indexMemoryUsage() {
        return slab.indexMemoryUsage() + table.memoryUsage();
    }

    /** Heap bytes of the deadlines (MEMORY STATS's overhead.hashtable.expires). */
    public long deadlinesMemoryUsage() {
        return deadlines.memoryUsage();
    }

    /**
     * Heap bytes of the keys and values: the entries' pages and the large collections, a list's or
     * a stream's nodes sampled up to {@code samples} each (the dataset of MEMORY STATS).
     */
    public long dataMemoryUsage(long samples) {
        return slab.pagesMemoryUsage() + tables.memoryUsage(samples);
    }

    /** The hash under {@code key}, or null; {@link WrongTypeException} for another type. */
    public HashValue hash(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? null : hashOf(id, key);
    }

    /** The hash under {@code key}, or an empty one that its first put creates. */
    public HashValue hashForWrite(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? new HashValue(this, key, 0, Encoding.HASH_LISTPACK, null, null) : hashOf(id, key);
    }

    private HashValue hashOf(int id, byte[] key) {
        Encoding encoding = encodingOf(id);
        if (encoding.type != ValueType.HASH) {
            throw new WrongTypeException();
        }
        return encoding.table ? new HashValue(this, key, id, encoding, null, tableOf(id))
                : new HashValue(this, key, id, encoding, slab.value(id), null);
    }

    /** The set under {@code key}, or null; {@link WrongTypeException} for another type. */
    public SetValue set(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? null : setOf(id, key);
    }

    /** The set under {@code key}, or an empty one that its first add creates. */
    public SetValue setForWrite(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? new SetValue(this, key, 0, Encoding.SET_INTSET, null, null) : setOf(id, key);
    }

    private SetValue setOf(int id, byte[] key) {
        Encoding encoding = encodingOf(id);
        if (encoding.type != ValueType.SET) {
            throw new WrongTypeException();
        }
        return encoding.table ? new SetValue(this, key, id, encoding, null, tableOf(id))
                : new SetValue(this, key, id, encoding, slab.value(id), null);
    }

    /** The list under {@code key}, or null; {@link WrongTypeException} for another type. */
    public ListValue list(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? null : listOf(id, key);
    }

    /** The list under {@code key}, or an empty one that its first push creates. */
    public ListValue listForWrite(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? new ListValue(this, key, 0, Encoding.LIST_PACKED, null, null) : listOf(id, key);
    }

    private ListValue listOf(int id, byte[] key) {
        Encoding encoding = encodingOf(id);
        if (encoding.type != ValueType.LIST) {
            throw new WrongTypeException();
        }
        return encoding.table ? new ListValue(this, key, id, encoding, null, tables.list(slab.value(id)))
                : new ListValue(this, key, id, encoding, slab.value(id), null);
    }

    /** The sorted set under {@code key}, or null; {@link WrongTypeException} for another type. */
    public ZSetValue zset(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? null : zsetOf(id, key);
    }

    /** The sorted set under {@code key}, or an empty one that its first put creates. */
    public ZSetValue zsetForWrite(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? new ZSetValue(this, key, 0, Encoding.ZSET_LISTPACK, null, null) : zsetOf(id, key);
    }

    private ZSetValue zsetOf(int id, byte[] key) {
        Encoding encoding = encodingOf(id);
        if (encoding.type != ValueType.ZSET) {
            throw new WrongTypeException();
        }
        return encoding.table ? new ZSetValue(this, key, id, encoding, null, tableOf(id))
                : new ZSetValue(this, key, id, encoding, slab.value(id), null);
    }

    /** The stream under {@code key}, or null; {@link WrongTypeException} for another type. */
    public StreamValue stream(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? null : streamOf(id, key);
    }

    /** The stream under {@code key}, or an empty one that its first entry creates. */
    public StreamValue streamForWrite(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key));
        return id == 0 ? new StreamValue(this, key, 0, new Stream()) : streamOf(id, key);
    }

    private StreamValue streamOf(int id, byte[] key) {
        if (encodingOf(id) != Encoding.STREAM) {
            throw new WrongTypeException();
        }
        return new StreamValue(this, key, id, tables.stream(slab.value(id)));
    }

    /** Draws for collections' random members (HRANDFIELD, SRANDMEMBER, SPOP). */
    SplittableRandom random() {
        return random;
    }

    /**
     * Stores a collection's compact bytes under entry {@code id}, or under a new entry for
     * {@code key} (persistent) when {@code id} is 0; returns the entry's id. A collection never
     * goes back from a table to a compact encoding, so the entry holds no table.
     */
    int storeCompact(int id, byte[] key, Encoding encoding, byte[] bytes) {
        databases.changes++;
        if (id == 0) {
            id = store(key, bytes);
        } else {
            if (snapshot != null) {
                snapshot.beforeChange(id);
            }
            slab.setValue(id, bytes);
            touched(key);
        }
        slab.setTag(id, encoding.ordinal());
        return id;
    }

    /**
     * Puts {@code table} (a {@link MemberTable}, or a list's {@link QuickList}) in place of entry
     * {@code id}'s compact value (or under a new entry for {@code key}); returns the id.
     */
    int storeTable(int id, byte[] key, Encoding encoding, Object table) {
        return storeCompact(id, key, encoding, tables.register(table));
    }

    /**
     * Puts {@code table} in place of live entry {@code id}'s compact value, the same members in
     * another encoding, without counting a change or telling watchers: Redis's SORT converts a
     * sorted set so, neither dirtying nor signalling the key.
     */
    void reencode(int id, Encoding encoding, Object table) {
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        slab.setValue(id, tables.register(table));
        slab.setTag(id, encoding.ordinal());
    }

    /** Entry {@code id}'s table is about to change in place: counted, and a snapshot takes its contents first. */
    void beforeTableChange(int id) {
        databases.changes++;
        tables.changed(slab.value(id));
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        if (databases.keyWatcher != null) {
            touched(slab.key(id));
        }
    }

    /**
     * A stream's consumer groups of entry {@code id} are about to change: a change of the data
     * set (logged, copied by a snapshot first) that WATCH does not see, as Redis signals no
     * modified key for it; {@code wakesBlocked} when clients blocked on the key must look again.
     */
    void beforeGroupChange(int id, boolean wakesBlocked) {
        databases.changes++;
        tables.changed(slab.value(id));
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        if (wakesBlocked && databases.keyWatcher != null) {
            databases.keyWatcher.readyForBlocked(index, slab.key(id));
        }
    }

    /** Deletes entry {@code id}, a collection whose last member went. */
    void removeEmptied(int id) {
        databases.changes++;
        delete(id, slab.hash(id), false);
    }

    /** TOUCH: whether {@code key} is live, stamping it as accessed (Redis's lookupKeyRead). */
    public boolean touch(byte[] key) {
        return lookup(key, PackedEntry.hash(key), true) != 0;
    }

    /** Whether {@code key} is live; as Redis's EXISTS, its access stamp stays as it was. */
    public boolean exists(byte[] key) {
        return lookup(key, PackedEntry.hash(key), false) != 0;
    }

    /**
     * A live key's access stamp ({@link KeyAccess}), or -1 if it is missing; the stamp stays as it
     * was (Redis's OBJECT looks up with LOOKUP_NOTOUCH).
     */
    public int accessStamp(byte[] key) {
        int id = lookup(key, PackedEntry.hash(key), false);
        return id == 0 ? -1 : slab.access(id);
    }

    /** Gives a live key the access stamp {@code stamp} (RESTORE's IDLETIME or FREQ, an RDB's hints). */
    public void setAccessStamp(byte[] key, int stamp) {
        int id = lookup(key, PackedEntry.hash(key), false);
        if (id != 0) {
            slab.setAccess(id, stamp);
        }
    }

    /**
     * Receives the keys eviction samples: first each key's access stamp and deadline, then its
     * bytes only if it {@link #wants} them, so a sample the pool would not take costs no read of
     * the entry's page.
     */
    public interface EvictionSampler {
        boolean wants(int accessStamp, long deadline);

        void sampled(byte[] key);
    }

    /**
     * Hands {@code sampler} {@code count} keys drawn at random (fewer if the keyspace has fewer),
     * only among the keys with a TTL when {@code volatileOnly}: Redis's evictionPoolPopulate,
     * whose dictGetSomeKeys takes the keys of consecutive buckets (so does this over all keys;
     * keys with a TTL are drawn one by one from the dense deadline index). A key may come twice
     * (the pool may then hold it twice, as Redis's; the second is found gone).
     */
    public void sampleForEviction(int count, boolean volatileOnly, EvictionSampler sampler) {
        int drawn = Math.min(count, volatileOnly ? deadlines.count() : table.size());
        if (sampledIds.length < drawn) {
            sampledIds = new int[drawn];
        }
        if (volatileOnly) {
            for (int i = 0; i < drawn; i++) {
                sampledIds[i] = deadlines.id(deadlines.randomSlot(random));
            }
        } else {
            drawn = table.someIds(sampledIds, drawn, random);
        }
        for (int i = 0; i < drawn; i++) {
            int id = sampledIds[i];
            if (sampler.wants(slab.access(id), deadlineOf(id))) {
                sampler.sampled(slab.key(id));
            }
        }
    }

    /**
     * Deletes {@code key} for eviction (Redis's deleteEvictedKeyAndPropagate), whether or not its
     * deadline passed, telling watchers as a delete does; the caller logs and announces it. False
     * if it is not in the table.
     */
    public boolean evict(byte[] key) {
        int hash = PackedEntry.hash(key);
        int id = table.find(key, hash);
        if (id == 0) {
            return false;
        }
        delete(id, hash, true);
        return true;
    }

    /**
     * Loads into the CPU's cache what looking up these keys will read first: for a caller about to
     * run commands on them, whose lookups then find in the cache what would otherwise be a cache
     * miss or two each, one after another (Valkey 8 prefetches a batch of commands' keys the same
     * way). Changes nothing; at most {@link #PREFETCH_KEYS} keys.
     */
    public void prefetch(byte[][] keys, int count) {
        for (int i = 0; i < count; i++) {
            prefetchHashes[i] = PackedEntry.hash(keys[i]);
        }
        prefetched += table.prefetch(prefetchHashes, prefetchHeads, count);
    }

    /** Sets the value and the deadline ({@link #PERSISTENT} for none), replacing any old key. */
    public void put(byte[] key, byte[] value, long deadline) {
        databases.changes++;
        setDeadline(store(key, value), deadline);
    }

    /** Sets the value and keeps the key's deadline, if the key is live; else creates it without one. */
    public void putKeepingDeadline(byte[] key, byte[] value) {
        databases.changes++;
        store(key, value);
    }

    /**
     * BITOP's result: sets a string built by the command, keeping the key's deadline. Redis
     * stores such a string in its raw encoding whatever its length, and OBJECT ENCODING says
     * so, so the entry is tagged.
     */
    public void putRaw(byte[] key, byte[] value) {
        databases.changes++;
        slab.setTag(store(key, value), Encoding.STRING_RAW.ordinal());
    }

    /**
     * Removes {@code key} and runs {@code build}, which stores a new value under it: Redis
     * overwrites the key there (SPOP's rebuild, the *STORE commands), so its creation is not
     * announced as a new key. True if there was a key.
     */
    public boolean rebuild(byte[] key, Runnable build) {
        boolean removed = remove(key);
        rebuilding = removed;
        try {
            build.run();
        } finally {
            rebuilding = false;
        }
        return removed;
    }

    /** Removes a live key; true if there was one. */
    public boolean remove(byte[] key) {
        int hash = PackedEntry.hash(key);
        int id = lookup(key, hash);
        if (id == 0) {
            return false;
        }
        databases.changes++;
        delete(id, hash, false);
        return true;
    }

    /** The key's absolute deadline in ms, {@link #PERSISTENT} or {@link #MISSING}. */
    public long deadline(byte[] key) {
        // As Redis's TTL (LOOKUP_NOTOUCH): reading a deadline is no access, nor is a SAVE's or a digest's.
        int id = lookup(key, PackedEntry.hash(key), false);
        return id == 0 ? MISSING : deadlineOf(id);
    }

    /** Sets a live key's deadline ({@link #PERSISTENT} removes it); false if the key is missing. */
    public boolean setDeadline(byte[] key, long deadline) {
        int id = lookup(key, PackedEntry.hash(key));
        if (id == 0) {
            return false;
        }
        databases.changes++;
        setDeadline(id, deadline);
        touched(key);
        return true;
    }

    /** Moves a live key's value and deadline to {@code to}, replacing whatever was there. */
    public boolean rename(byte[] from, byte[] to) {
        int hash = PackedEntry.hash(from);
        int id = lookup(from, hash);
        if (id == 0) {
            return false;
        }
        databases.changes++;
        if (snapshot != null) {
            // Before the tag goes: the snapshot must read the entry as what it is.
            snapshot.beforeChange(id);
        }
        byte[] value = slab.value(id);
        int tag = slab.tag(id);
        int stamp = slab.access(id);
        long deadline = deadlineOf(id);
        // The value (a table's handle included) moves to the new entry, so the old one lets go of nothing.
        slab.setTag(id, 0);
        delete(id, hash, false);
        int moved = storeAsNew(to, value);
        slab.setTag(moved, tag);
        // Redis's RENAME moves the object, its access stamp with it.
        slab.setAccess(moved, stamp);
        setDeadline(moved, deadline);
        return true;
    }

    /**
     * COPY: puts a copy of {@code from}'s value and deadline under {@code to} in {@code target}
     * (this keyspace or another), replacing whatever was there; false if {@code from} is missing.
     * A large collection is copied whole, as Redis's COPY does.
     */
    public boolean copy(byte[] from, Keyspace target, byte[] to) {
        int id = lookup(from, PackedEntry.hash(from));
        if (id == 0) {
            return false;
        }
        Encoding encoding = encodingOf(id);
        byte[] bytes = !encoding.table ? slab.value(id) : target.tables.register(
                encoding.type == ValueType.LIST ? tables.list(slab.value(id)).copy()
                        : encoding == Encoding.STREAM ? tables.stream(slab.value(id)).copy() : tableOf(id).copy());
        target.storeTagged(to, encoding, bytes, deadlineOf(id));
        return true;
    }

    /**
     * MOVE: takes {@code key}, value and deadline, from this keyspace to {@code target}, where it
     * must not exist; false if it is missing here. A large collection moves by reference.
     */
    public boolean move(byte[] key, Keyspace target) {
        int hash = PackedEntry.hash(key);
        int id = lookup(key, hash);
        if (id == 0) {
            return false;
        }
        databases.changes++;
        Encoding encoding = encodingOf(id);
        byte[] bytes = slab.value(id);
        long deadline = deadlineOf(id);
        if (encoding.table) {
            bytes = target.tables.register(tables.held(bytes));
        }
        delete(id, hash, false);
        target.storeTagged(key, encoding, bytes, deadline);
        return true;
    }

    /** Stores a value of any encoding with its deadline, replacing whatever {@code key} held. */
    private void storeTagged(byte[] key, Encoding encoding, byte[] bytes, long deadline) {
        databases.changes++;
        int id = storeAsNew(key, bytes);
        slab.setTag(id, encoding.ordinal());
        setDeadline(id, deadline);
    }

    /**
     * Starts a point-in-time snapshot that hands every live entry to {@code sink}, as it is now,
     * while the keyspace keeps changing, a collection's members in batches of up to
     * {@code membersPerBatch}; drive it with {@link KeyspaceSnapshot#step} and
     * {@link #stopSnapshot} it when done. One at a time; {@link Databases#startSnapshot} takes
     * one of every database.
     */
    public KeyspaceSnapshot startSnapshot(int membersPerBatch, KeyspaceSnapshot.Sink sink) {
        if (snapshot != null) {
            throw new IllegalStateException("a snapshot is already running");
        }
        snapshot = new KeyspaceSnapshot(this, slab, deadlines, tables, membersPerBatch, sink);
        return snapshot;
    }

    /** Whether a snapshot is running ({@link #startSnapshot} takes one at a time). */
    public boolean snapshotRunning() {
        return snapshot != null;
    }

    /**
     * Stops telling {@code finished} about changes, its collections' members included (it
     * completed or was abandoned).
     */
    public void stopSnapshot(KeyspaceSnapshot finished) {
        if (snapshot == finished) {
            snapshot = null;
        }
        finished.stopMemberWalks();
    }

    /** SWAPDB's half: trades everything stored, a running snapshot included, with {@code other}. */
    void swapContents(Keyspace other) {
        EntrySlab swappedSlab = slab;
        slab = other.slab;
        other.slab = swappedSlab;
        IncrementalHashTable swappedTable = table;
        table = other.table;
        other.table = swappedTable;
        DeadlineIndex swappedDeadlines = deadlines;
        deadlines = other.deadlines;
        other.deadlines = swappedDeadlines;
        MemberTables swappedTables = tables;
        tables = other.tables;
        other.tables = swappedTables;
        KeyspaceSnapshot swappedSnapshot = snapshot;
        snapshot = other.snapshot;
        other.snapshot = swappedSnapshot;
    }

    /**
     * True if {@code key} is in the table, live or past its deadline (Redis's dictFind); removes
     * nothing. For WATCH, which must tell a key that expired from one deleted.
     */
    public boolean holds(byte[] key) {
        return table.find(key, PackedEntry.hash(key)) != 0;
    }

    /**
     * True if {@code key} is in the table, live or past its deadline, and has a deadline if
     * {@code withDeadline} (Redis's dictFind in the dict or in the expires); removes nothing.
     */
    public boolean holds(byte[] key, boolean withDeadline) {
        int id = table.find(key, PackedEntry.hash(key));
        return id != 0 && (!withDeadline || slab.deadlineSlot(id) != 0);
    }

    /** True if {@code key} is in the table past its deadline (Redis's keyIsExpired); removes nothing. */
    public boolean isExpired(byte[] key) {
        int id = table.find(key, PackedEntry.hash(key));
        return id != 0 && isDue(id);
    }

    /** FLUSHDB */
    public void clear() {
        if (databases.keyWatcher != null) {
            databases.keyWatcher.replacing(this, null);
        }
        databases.changes++;
        // The old slab is left as it is: a running snapshot goes on over it, untouched.
        snapshot = null;
        slab = new EntrySlab();
        table = new IncrementalHashTable(slab);
        deadlines = new DeadlineIndex();
        tables = new MemberTables();
    }

    /**
     * Takes {@code loaded}'s contents (a diskless load's, which nobody else uses) in place of its
     * own, as {@link #clear} then a fill would: a running snapshot goes on over the old slab.
     */
    void takeContents(Keyspace loaded) {
        if (databases.keyWatcher != null) {
            databases.keyWatcher.replacing(this, loaded);
        }
        databases.changes++;
        snapshot = null;
        slab = loaded.slab;
        table = loaded.table;
        deadlines = loaded.deadlines;
        tables = loaded.tables;
        loaded.clear();
    }

    /**
     * Moves buckets of a resize in progress for about {@code budgetNanos}: the server cron's step,
     * so a resize also finishes on an idle server (Redis's activerehashing).
     */
    public void rehashStep(long budgetNanos) {
        table.rehashFor(budgetNanos);
    }

    /**
     * Keeps the table big enough for about {@code keys} keys until called again with 0: a load
     * that knows roughly how many keys are coming (an AOF replay) then never grows the table
     * while filling it, and a table left too big shrinks once released.
     */
    public void reserve(int keys) {
        table.reserve(keys);
    }

    /** True while the table is being resized (for tests). */
    boolean resizing() {
        return table.resizing();
    }

    /** True while the table is being resized to a larger one (for tests). */
    boolean growing() {
        return table.growing();
    }

    /**
     * A random live key, or null when the keyspace is empty: a random non-empty bucket, then a
     * random entry of its chain (Redis's dictGetRandomKey); expired keys met on the way are
     * removed, as Redis's RANDOMKEY does.
     */
    public byte[] randomKey() {
        while (table.size() > 0) {
            int id = table.randomId(random);
            if (!expireIfDue(id)) {
                return slab.key(id);
            }
        }
        return null;
    }

    /**
     * Looks at {@code samples} keys drawn uniformly from those with a deadline and removes the
     * expired ones. Returns how many were removed; {@code ttlSum} gets the remaining TTLs of the
     * live ones sampled, for INFO's avg_ttl estimate.
     */
    public int expireSample(int samples, long[] ttlSum) {
        int expired = 0;
        for (int i = 0; i < samples && deadlines.count() > 0; i++) {
            int slot = deadlines.randomSlot(random);
            int id = deadlines.id(slot);
            if (expireIfDue(id)) {
                expired++;
            } else {
                ttlSum[0] += deadlines.deadline(slot) - databases.now;
                ttlSum[1]++;
            }
        }
        return expired;
    }

    /** Removes every key whose deadline has passed (after an AOF replay); returns how many. */
    public int removeExpired() {
        int removed = 0;
        // Downwards: removing slot i moves the last slot, already visited, into it.
        for (int slot = deadlines.count(); slot >= 1; slot--) {
            if (expireIfDue(deadlines.id(slot))) {
                removed++;
            }
        }
        return removed;
    }

    /** Calls {@code visitor} with every live key; the visitor must not change the keyspace. */
    public void forEachKey(Consumer<byte[]> visitor) {
        table.forEach(id -> visitLive(id, visitor));
    }

    /**
     * Visits the keys of the bucket the cursor names and returns the next cursor (0 when done).
     * Redis's reverse-binary cursor: a key present for the whole scan is visited at least once,
     * even when the table grows or shrinks between calls. The visitor must not change the keyspace;
     * keys past their deadline are not visited but removed once the bucket is walked.
     */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        List<byte[]> expired = new ArrayList<>(0);
        long next = table.scan(cursor, id -> {
            if (isDue(id)) {
                expired.add(slab.key(id));
            } else {
                visitor.accept(slab.key(id));
            }
        });
        // As Redis's scanGenericCommand's expireIfNeeded: a key past its deadline the walk came
        // across goes, with its DEL logged, unless a replica or a client pause keeps it.
        if (!databases.primaryExpires && !databases.expiryPaused) {
            for (byte[] key : expired) {
                int hash = PackedEntry.hash(key);
                int id = table.find(key, hash);
                if (id != 0 && isDue(id)) {
                    deleteExpired(id, hash, key);
                }
            }
        }
        return next;
    }

    private void visitLive(int id, Consumer<byte[]> visitor) {
        if (!isDue(id)) {
            visitor.accept(slab.key(id));
        }
    }

    /** Inserts or overwrites the value; the id of the entry. */
    private int store(byte[] key, byte[] value) {
        int hash = PackedEntry.hash(key);
        int id = lookup(key, hash);
        if (id == 0) {
            id = slab.allocate(key, value, hash);
            slab.setAccess(id, databases.access.fresh());
            table.insert(id, hash);
            if (snapshot != null) {
                snapshot.created(id);
            }
            touched(key);
            if (databases.creationListener != null && !rebuilding) {
                databases.creationListener.created(index, key);
            }
            return id;
        }
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        releaseTable(id);
        slab.setValue(id, value);
        slab.setTag(id, 0);
        touched(key);
        return id;
    }

    /**
     * RENAME, COPY and MOVE's store: Redis deletes the destination and adds it again (dbDelete,
     * dbAdd), so the destination is announced as created even when it replaced a key.
     */
    private int storeAsNew(byte[] key, byte[] value) {
        if (databases.creationListener != null) {
            int hash = PackedEntry.hash(key);
            int old = lookup(key, hash);
            if (old != 0) {
                delete(old, hash, false);
            }
        }
        return store(key, value);
    }

    /** The id of the live entry for {@code key}, or 0; an expired one found is removed, a live one stamped as accessed. */
    private int lookup(byte[] key, int hash) {
        return lookup(key, hash, true);
    }

    private int lookup(byte[] key, int hash, boolean touch) {
        int id = table.find(key, hash);
        if (id != 0 && isDue(id) && !(databases.primaryExpires && databases.obeyingPrimary)) {
            // A replica's read, or a read while clients are paused: missing, though the key stays
            // (until the primary's DEL, or the pause's end). Anything else removes it.
            boolean keep = databases.countingReads && (databases.primaryExpires || databases.expiryPaused);
            if (!keep) {
                deleteExpired(id, hash, key);
            }
            id = 0;
        }
        if (touch && id != 0) {
            // Under LRU the old stamp is not read: the hot path writes one int in the line the lookup read.
            KeyAccess access = databases.access;
            slab.setAccess(id, access.isLfu() ? access.touched(slab.access(id)) : access.lruClock());
        }
        if (databases.countingReads) {
            if (id == 0) {
                databases.keyspaceMisses++;
            } else {
                databases.keyspaceHits++;
            }
        }
        return id;
    }

    private long deadlineOf(int id) {
        int slot = slab.deadlineSlot(id);
        return slot == 0 ? PERSISTENT : deadlines.deadline(slot);
    }

    /** Redis's keyIsExpired: a key lives through its deadline's own millisecond. */
    private boolean isDue(int id) {
        int slot = slab.deadlineSlot(id);
        return slot != 0 && deadlines.deadline(slot) < databases.now;
    }

    private boolean expireIfDue(int id) {
        if (!isDue(id)) {
            return false;
        }
        deleteExpired(id, slab.hash(id), slab.key(id));
        return true;
    }

    /** Redis's deleteExpiredKeyAndPropagate: the removal is sampled as "expire-del", then counted and announced. */
    private void deleteExpired(int id, int hash, byte[] key) {
        LatencyMonitor latency = databases.latency;
        long started = latency.isOn() ? System.nanoTime() : 0;
        delete(id, hash, true);
        if (latency.isOn()) {
            latency.addSampleIfNeeded("expire-del", (System.nanoTime() - started) / 1_000_000);
        }
        databases.expiredKeys++;
        databases.expiryListener.expired(index, key);
    }

    /** Deletes entry {@code id}; {@code byServer}: it expired or was evicted, no client's command removed it. */
    private void delete(int id, int hash, boolean byServer) {
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        byte[] watchedKey = databases.keyWatcher != null ? slab.key(id) : null;
        table.remove(id, hash);
        setDeadline(id, PERSISTENT);
        releaseTable(id);
        slab.free(id);
        if (watchedKey != null) {
            if (byServer) {
                databases.keyWatcher.removedByServer(index, watchedKey);
            } else {
                touched(watchedKey);
            }
        }
    }

    /** Tells the watcher, if anyone WATCHes keys, that {@code key} changed; a null check otherwise. */
    private void touched(byte[] key) {
        Databases.KeyWatcher watcher = databases.keyWatcher;
        if (watcher != null) {
            watcher.modified(index, key);
        }
    }

    private Encoding encodingOf(int id) {
        return Encoding.ofTag(slab.tag(id));
    }

    /** The table of a table-encoded entry. */
    MemberTable tableOf(int id) {
        return tables.get(slab.value(id));
    }

    private void releaseTable(int id) {
        if (encodingOf(id).table) {
            tables.release(slab.value(id));
        }
    }

    private void setDeadline(int id, long deadline) {
        if (snapshot != null) {
            snapshot.beforeChange(id);
        }
        int slot = slab.deadlineSlot(id);
        if (deadline == PERSISTENT) {
            if (slot != 0) {
                int moved = deadlines.remove(slot);
                if (moved != 0) {
                    slab.setDeadlineSlot(moved, slot);
                }
                slab.setDeadlineSlot(id, 0);
            }
        } else if (slot == 0) {
            slab.setDeadlineSlot(id, deadlines.add(id, deadline));
        } else {
            deadlines.setDeadline(slot, deadline);
        }
    }

    /**
     * Walks the whole structure and throws if it is inconsistent: the table's chains and load
     * (both tables while resizing), the slab's ids, the deadline index holding exactly the
     * entries with a deadline, each knowing its own slot, and each collection's table, held once.
     * For tests; O(size).
     */
    public void checkInvariants() {
        table.checkInvariants();
        slab.checkInvariants(table.size());
        int[] withDeadline = new int[1];
        int[] withTable = new int[1];
        table.forEach(id -> {
            if (encodingOf(id).table) {
                withTable[0]++;
                if (encodingOf(id).type == ValueType.LIST) {
                    tables.list(slab.value(id)).checkInvariants();
                } else if (encodingOf(id) == Encoding.STREAM) {
                    tables.stream(slab.value(id)).checkInvariants();
                } else {
                    tableOf(id).checkInvariants();
                }
            }
            int slot = slab.deadlineSlot(id);
            if (slot != 0) {
                withDeadline[0]++;
                Invariants.check(slot <= deadlines.count() && deadlines.id(slot) == id,
                        "entry's deadline slot is wrong");
                Invariants.check(deadlines.deadline(slot) != PERSISTENT, "persistent deadline in the index");
            }
        });
        Invariants.check(withDeadline[0] == deadlines.count(),
                "deadline count " + deadlines.count() + " but " + withDeadline[0] + " entries with a deadline");
        Invariants.check(withTable[0] == tables.count(),
                tables.count() + " tables held but " + withTable[0] + " entries with a table");
        long[] keysBytes = new long[1];
        table.forEach(id -> keysBytes[0] += memoryUsageOf(id, DEFAULT_MEMORY_SAMPLES));
        Invariants.check(keysBytes[0] == usedMemory(),
                "used memory accounts " + usedMemory() + " bytes but the keys' sum is " + keysBytes[0]);
    }
}
