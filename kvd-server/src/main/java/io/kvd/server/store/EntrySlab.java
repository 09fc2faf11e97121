package io.kvd.server.store;

import java.util.Arrays;

/**
 * Entries by id (from 1; 0 means none). Per id, five ints side by side in {@link Regions} arrays:
 * the address of the entry's bytes in {@link EntryPages} (page and offset; page 0 when the id is
 * free; the page int's top byte holds the entry's tag, the keyspace's {@link Encoding}), the id of
 * the next entry in its bucket's chain, its key's hash and its slot in the {@link DeadlineIndex}
 * (0 for none), so a lookup finds all of an id's fields in one cache line. The hash beside the
 * chain link lets a lookup skip other keys, and a rehash move entries, without reading the
 * entries' bytes. A slab without deadlines (a {@link MemberTable}'s: members have no TTL) keeps
 * four ints per id, 4 B less per member. Freed ids are reused (a free list threaded through the
 * chain links), so the arrays keep the size of the largest keyspace seen. Compaction moves an
 * entry's bytes, never its id.
 *
 * <p>The first chunk starts with room for {@link #FIRST_IDS} ids and doubles as ids come, up to a
 * region; later chunks are regions. So an empty slab holds no chunk and a small one a few KB (16
 * databases, and every table-encoded collection, have a slab), while a large one is regions only.
 */
final class EntrySlab implements EntryPages.Compactor {
    private static final int PAGE = 0;
    private static final int OFFSET = 1;
    private static final int NEXT = 2;
    private static final int HASH = 3;
    private static final int DEADLINE_SLOT = 4;
    /** The key's access stamp for eviction: Redis's 24-bit robj lru (LRU clock, or LFU minutes and counter). */
    private static final int ACCESS = 5;
    /**
     * Ints of a chunk in use: a multiple of both layouts' ids (4 and 6 ints), so an id's fields
     * never straddle two chunks, and a constant, so the JIT turns the division by it into a multiply.
     * An id's position (id times its ints) is a long: as an int it would overflow at 429 M ids.
     */
    private static final int CHUNK_INTS = Regions.INT_LENGTH - Regions.INT_LENGTH % 12;
    private static final int FIRST_IDS = 16;
    /** The tag sits above the page number: 2^24 pages are more memory than a JVM array index reaches. */
    private static final int TAG_SHIFT = 24;
    private static final int PAGE_MASK = (1 << TAG_SHIFT) - 1;
    private static final long INSTANCE = HeapSize.ofInstance(EntrySlab.class);

    private final EntryPages pages = new EntryPages();
    /** Ints per id: 5 with a deadline slot, 4 without. */
    private final int fields;
    private int[][] chunks = new int[1][];
    private int freeHead;
    private int nextFresh = 1;
    /** Bytes of the live entries and their ids' ints, kept as they change: what {@link #accountedBytes} reads in O(1). */
    private long accounted;

    /** The keyspace's slab: each id has a deadline slot and an access stamp. */
    EntrySlab() {
        this(6);
    }

    private EntrySlab(int fields) {
        this.fields = fields;
    }

    /** A {@link MemberTable}'s slab: members have no TTL or access stamp, so neither field. */
    static EntrySlab withoutDeadlines() {
        return new EntrySlab(4);
    }

    /** Stores a new entry; returns its id. */
    int allocate(byte[] key, byte[] value, int hash) {
        int id;
        if (freeHead != 0) {
            id = freeHead;
            freeHead = next(id);
        } else {
            id = nextFresh++;
            addChunkFor(id);
        }
        int length = PackedEntry.length(key.length, value.length);
        long address = pages.allocate(length, this);
        PackedEntry.write(pages.bytes(address), EntryPages.offset(address), id, key, 0, key.length, value);
        setAddress(id, address);
        accounted += length + bytesPerId();
        set(id, NEXT, 0);
        set(id, HASH, hash);
        return id;
    }

    private void addChunkFor(int id) {
        long at = (long) id * fields;
        int c = (int) (at / CHUNK_INTS);
        if (c == chunks.length) {
            chunks = Arrays.copyOf(chunks, Regions.grownDirectory(chunks.length, c));
        }
        int[] chunk = chunks[c];
        int needed = (int) (at % CHUNK_INTS) + fields;
        if (c > 0 && chunk == null) {
            chunks[c] = Regions.ints();
        } else if (c == 0 && (chunk == null || chunk.length < needed)) {
            int[] grown = Regions.ints(chunk == null ? FIRST_IDS * fields : Math.min(chunk.length * 2, CHUNK_INTS));
            if (chunk != null) {
                System.arraycopy(chunk, 0, grown, 0, chunk.length);
            }
            chunks[0] = grown;
        }
    }

    /** One past the highest id handed out so far. */
    int idLimit() {
        return nextFresh;
    }

    void free(int id) {
        long address = address(id);
        int length = PackedEntry.length(pages.bytes(address), EntryPages.offset(address));
        pages.free(address, length);
        accounted -= length + bytesPerId();
        setAddress(id, 0);
        if (hasDeadlines()) {
            setDeadlineSlot(id, 0);
        }
        setNext(id, freeHead);
        freeHead = id;
    }

    boolean isLive(int id) {
        return get(id, PAGE) != 0;
    }

    /** The entry's tag (0 until set). */
    int tag(int id) {
        return get(id, PAGE) >>> TAG_SHIFT;
    }

    void setTag(int id, int tag) {
        set(id, PAGE, get(id, PAGE) & PAGE_MASK | tag << TAG_SHIFT);
    }

    byte[] key(int id) {
        long address = address(id);
        return PackedEntry.key(pages.bytes(address), EntryPages.offset(address));
    }

    byte[] value(int id) {
        long address = address(id);
        return PackedEntry.value(pages.bytes(address), EntryPages.offset(address));
    }

    /** Entry {@code id}'s key compared with {@code key} as unsigned bytes, read in place. */
    int compareKey(int id, byte[] key) {
        long address = address(id);
        return PackedEntry.compareKey(pages.bytes(address), EntryPages.offset(address), key);
    }

    boolean hasKey(int id, byte[] key) {
        long address = address(id);
        return PackedEntry.hasKey(pages.bytes(address), EntryPages.offset(address), key);
    }

    /** Replaces a live entry's value: in place when the length is the same, else in new space. */
    void setValue(int id, byte[] value) {
        long address = address(id);
        accounted -= PackedEntry.length(pages.bytes(address), EntryPages.offset(address));
        if (PackedEntry.replaceValue(pages.bytes(address), EntryPages.offset(address), value)) {
            accounted += PackedEntry.length(pages.bytes(address), EntryPages.offset(address));
            return;
        }
        int keyLength = PackedEntry.keyLength(pages.bytes(address), EntryPages.offset(address));
        int length = PackedEntry.length(keyLength, value.length);
        accounted += length;
        long moved = pages.allocate(length, this);
        // The allocation may have compacted this very entry elsewhere: read it where it is now.
        address = address(id);
        byte[] bytes = pages.bytes(address);
        int at = EntryPages.offset(address);
        PackedEntry.write(pages.bytes(moved), EntryPages.offset(moved), id,
                bytes, PackedEntry.keyStart(bytes, at, keyLength), keyLength, value);
        setAddress(id, moved);
        pages.free(address, PackedEntry.length(bytes, at));
    }

    /** A live entry's value where it is stored; valid until the next allocation or free. */
    StringView valueView(int id) {
        long address = address(id);
        byte[] bytes = pages.bytes(address);
        int at = EntryPages.offset(address);
        return new StringView(bytes, PackedEntry.valueStart(bytes, at), PackedEntry.valueLength(bytes, at));
    }

    /**
     * Lengthens a live entry's value to {@code length} bytes, its old bytes followed by zero bytes:
     * one copy of the entry into new space (the space freed may be a reused page's, hence the fill).
     */
    void growValue(int id, int length) {
        long address = address(id);
        int keyLength = PackedEntry.keyLength(pages.bytes(address), EntryPages.offset(address));
        int newLength = PackedEntry.length(keyLength, length);
        accounted += newLength - PackedEntry.length(pages.bytes(address), EntryPages.offset(address));
        long moved = pages.allocate(newLength, this);
        // The allocation may have compacted this very entry elsewhere: read it where it is now.
        address = address(id);
        byte[] bytes = pages.bytes(address);
        int at = EntryPages.offset(address);
        int oldStart = PackedEntry.valueStart(bytes, at);
        int oldLength = PackedEntry.valueLength(bytes, at);
        byte[] target = pages.bytes(moved);
        int start = PackedEntry.writeHead(target, EntryPages.offset(moved), id,
                bytes, oldStart - keyLength, keyLength, length);
        System.arraycopy(bytes, oldStart, target, start, oldLength);
        Arrays.fill(target, start + oldLength, start + length, (byte) 0);
        setAddress(id, moved);
        pages.free(address, PackedEntry.length(bytes, at));
    }

    @Override
    public void moveLiveEntries(int page, byte[] bytes, int filled) {
        for (int at = 0; at < filled; ) {
            int length = PackedEntry.length(bytes, at);
            int id = PackedEntry.id(bytes, at);
            long from = EntryPages.address(page, at);
            if (address(id) == from) {
                long to = pages.allocate(length, this);
                System.arraycopy(bytes, at, pages.bytes(to), EntryPages.offset(to), length);
                setAddress(id, to);
                pages.free(from, length);
            }
            at += length;
        }
    }

    /** Bytes entry {@code id} takes in its page: its id, lengths, key and value ({@link PackedEntry}). */
    int entryBytes(int id) {
        long address = address(id);
        return PackedEntry.length(pages.bytes(address), EntryPages.offset(address));
    }

    /** Bytes of the live entries in their pages and of their ids' ints (holes and unused ids not counted); O(1). */
    long accountedBytes() {
        return accounted;
    }

    /** Heap bytes of one id's ints. */
    long bytesPerId() {
        return 4L * fields;
    }

    /** Heap bytes of the ids' ints: the chunks, whatever of them is in use, and their directory. */
    long indexMemoryUsage() {
        long bytes = INSTANCE + HeapSize.of(chunks);
        for (int[] chunk : chunks) {
            bytes += HeapSize.of(chunk);
        }
        return bytes;
    }

    /** Heap bytes of the entries' pages. */
    long pagesMemoryUsage() {
        return pages.memoryUsage();
    }

    /** Pages of memory the entries hold (for tests). */
    int pagesHeld() {
        return pages.pagesHeld();
    }

    /** Bytes of the pages the entries hold (for tests). */
    long pageBytesHeld() {
        return pages.bytesHeld();
    }

    int hash(int id) {
        return get(id, HASH);
    }

    int next(int id) {
        return get(id, NEXT);
    }

    void setNext(int id, int next) {
        set(id, NEXT, next);
    }

    private boolean hasDeadlines() {
        return fields > DEADLINE_SLOT;
    }

    /** The id's slot in the deadline index; only for a slab with deadlines. */
    int deadlineSlot(int id) {
        return get(id, DEADLINE_SLOT);
    }

    void setDeadlineSlot(int id, int slot) {
        set(id, DEADLINE_SLOT, slot);
    }

    /** The id's access stamp; only for the keyspace's slab. */
    int access(int id) {
        return get(id, ACCESS);
    }

    void setAccess(int id, int stamp) {
        set(id, ACCESS, stamp);
    }

    private long address(int id) {
        long at = (long) id * fields;
        int[] chunk = chunks[(int) (at / CHUNK_INTS)];
        int i = (int) (at % CHUNK_INTS);
        return EntryPages.address(chunk[i + PAGE] & PAGE_MASK, chunk[i + OFFSET]);
    }

    private void setAddress(int id, long address) {
        long at = (long) id * fields;
        int[] chunk = chunks[(int) (at / CHUNK_INTS)];
        int i = (int) (at % CHUNK_INTS);
        // A free id's page int is 0, tag included; a move keeps the tag.
        chunk[i + PAGE] = address == 0 ? 0 : chunk[i + PAGE] & ~PAGE_MASK | EntryPages.page(address);
        chunk[i + OFFSET] = EntryPages.offset(address);
    }

    private int get(int id, int field) {
        long at = (long) id * fields;
        return chunks[(int) (at / CHUNK_INTS)][(int) (at % CHUNK_INTS) + field];
    }

    private void set(int id, int field, int value) {
        long at = (long) id * fields;
        chunks[(int) (at / CHUNK_INTS)][(int) (at % CHUNK_INTS) + field] = value;
    }

    /**
     * Every id ever handed out is either live or on the free list, once; each live entry's bytes
     * name it and hash to its stored hash; and each page's live bytes are exactly its live entries.
     */
    void checkInvariants(int liveCount) {
        int live = 0;
        long accountedSum = 0;
        for (int id = 1; id < nextFresh; id++) {
            if (isLive(id)) {
                live++;
                accountedSum += entryBytes(id) + bytesPerId();
                long address = address(id);
                byte[] bytes = pages.bytes(address);
                Invariants.check(bytes != null && PackedEntry.id(bytes, EntryPages.offset(address)) == id,
                        "entry " + id + " is not at its address");
                Invariants.check(PackedEntry.hashOfKey(bytes, EntryPages.offset(address)) == hash(id),
                        "entry " + id + " has a stale hash");
            }
        }
        Invariants.check(live == liveCount, "slab holds " + live + " entries, table " + liveCount);
        Invariants.check(accountedSum == accounted, "slab accounts " + accounted + " bytes but holds " + accountedSum);
        int free = 0;
        for (int id = freeHead; id != 0; id = next(id)) {
            Invariants.check(!isLive(id) && (!hasDeadlines() || deadlineSlot(id) == 0),
                    "free id " + id + " still holds an entry");
            Invariants.check(++free <= nextFresh, "free list has a cycle");
        }
        Invariants.check(live + free == nextFresh - 1, "ids neither live nor free");
        pages.forEachPage((page, bytes, filled) -> {
            int liveBytes = 0;
            for (int at = 0; at < filled; at += PackedEntry.length(bytes, at)) {
                int id = PackedEntry.id(bytes, at);
                if (id > 0 && id < nextFresh && address(id) == EntryPages.address(page, at)) {
                    liveBytes += PackedEntry.length(bytes, at);
                }
            }
            Invariants.check(liveBytes == pages.liveBytes(page),
                    "page " + page + " counts " + pages.liveBytes(page) + " live bytes but holds " + liveBytes);
        });
        pages.checkInvariants();
    }
}
