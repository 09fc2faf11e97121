package io.kvd.server.store;

import java.util.Arrays;

/**
 * The memory entries live in: large shared {@code byte[]} pages filled by appending at the head
 * page, and a page of its own for an entry too large to share one. An address is the page's
 * number (from 1; 0 is no address) in the high int and the offset in the low one.
 *
 * <p>Why pages: millions of entries become a few hundred arrays of bytes, so a full collection has
 * almost nothing to trace, and a young one nothing to copy: a shared page is a {@link Regions}
 * array, allocated in the old generation and touched off the loop. With one {@code byte[]} per
 * entry, G1 copied every new entry and stopped the loop for up to 122 ms at a few million keys.
 * It is memcached's slab idea, kept without its size classes: entries are packed end to end, so
 * no byte is lost to rounding up.
 *
 * <p>Pages start small: the first shared page is {@link #FIRST_PAGE_SIZE} bytes and each next one
 * twice the last, until a page is a region ({@link #PAGE_SIZE}). So a keyspace of a few keys, or a
 * collection's table of a few hundred members, holds a few KB, and a large one holds regions and
 * a tail of small pages that compaction empties like any other.
 *
 * <p>A freed entry leaves a hole. A page left without live entries is released at once. When more
 * than a quarter of the filled bytes are holes, opening a new head page first moves the live
 * entries of the emptiest page into it ({@link Compactor}): the number of pages never grows while
 * the holes are over that share, and no single allocation moves more than one page. Deletes alone
 * leave their holes until the next writes, as an allocator's fragmentation stays in Redis.
 */
final class EntryPages {
    /** The largest shared page: a region. */
    static final int PAGE_SIZE = Regions.BYTE_LENGTH;
    /** Larger entries get a page of their own; below, at least a quarter of a page is left for them after a compaction. */
    static final int LARGEST_SHARED = PAGE_SIZE / 8;
    static final int FIRST_PAGE_SIZE = 512;
    private static final long INSTANCE = HeapSize.ofInstance(EntryPages.class);

    /** Moves the live entries of a page elsewhere (through {@link #allocate} and {@link #free}). */
    interface Compactor {
        void moveLiveEntries(int page, byte[] bytes, int filled);
    }

    private byte[][] pages = new byte[16][];
    /** Live bytes per page. */
    private int[] live = new int[16];
    /** Bytes appended per shared page; -1 marks a page of its own. */
    private int[] filled = new int[16];
    private int[] releasedNumbers = new int[16];
    private int releasedCount;
    private int nextNumber = 1;
    private int head;
    /** The size of the next shared page; it never shrinks, so the head is the largest shared page. */
    private int nextPageSize = FIRST_PAGE_SIZE;
    /** A released shared page kept for the next head, so steady churn does not allocate and zero pages. */
    private byte[] spare;
    private long sharedFilled;
    private long sharedLive;

    static long address(int page, int offset) {
        return (long) page << 32 | offset;
    }

    static int page(long address) {
        return (int) (address >>> 32);
    }

    static int offset(long address) {
        return (int) address;
    }

    byte[] bytes(long address) {
        return pages[page(address)];
    }

    /** Space for {@code length} bytes; may first move one page's live entries through {@code compactor}. */
    long allocate(int length, Compactor compactor) {
        if (length > LARGEST_SHARED) {
            int page = open(new byte[length], -1);
            live[page] = length;
            return address(page, 0);
        }
        // A head just opened holds the compacted page's entries and, once pages are regions, room
        // for any shared entry after them; while pages are still small it may take another.
        while (head == 0 || filled[head] + length > pages[head].length) {
            openHead(length, compactor);
        }
        long address = address(head, filled[head]);
        filled[head] += length;
        live[head] += length;
        sharedFilled += length;
        sharedLive += length;
        return address;
    }

    private void openHead(int length, Compactor compactor) {
        int old = head;
        head = open(newHead(length), 0);
        releaseIfEmpty(old);
        // The emptiest page then holds under 3/4 of a page (once pages are regions), so the head keeps
        // room for any shared entry; it fits in the head, the largest shared page.
        if ((sharedFilled - sharedLive) * 4 > sharedFilled) {
            int victim = emptiestPage();
            compactor.moveLiveEntries(victim, pages[victim], filled[victim]);
            releaseIfEmpty(victim);
        }
    }

    /** A page for the next head: the spare if it is large enough, else a new one of the next size that holds {@code length}. */
    private byte[] newHead(int length) {
        int size = nextPageSize;
        while (size < length) {
            size *= 2;
        }
        byte[] page;
        if (spare != null && spare.length >= size) {
            page = spare;
        } else {
            page = size >= PAGE_SIZE ? Regions.bytes() : Regions.bytes(size);
        }
        // A smaller spare would never be taken again.
        spare = null;
        nextPageSize = (int) Math.min(PAGE_SIZE, 2L * page.length);
        return page;
    }

    /** The shared page, other than the head, with the fewest live bytes; 0 if there is none. */
    private int emptiestPage() {
        int emptiest = 0;
        for (int page = 1; page < nextNumber; page++) {
            if (pages[page] != null && filled[page] >= 0 && page != head
                    && (emptiest == 0 || live[page] < live[emptiest])) {
                emptiest = page;
            }
        }
        return emptiest;
    }

    void free(long address, int length) {
        int page = page(address);
        live[page] -= length;
        if (filled[page] >= 0) {
            sharedLive -= length;
        }
        releaseIfEmpty(page);
    }

    private int open(byte[] bytes, int fill) {
        int page = releasedCount > 0 ? releasedNumbers[--releasedCount] : nextNumber++;
        if (page == pages.length) {
            pages = Arrays.copyOf(pages, page * 2);
            live = Arrays.copyOf(live, page * 2);
            filled = Arrays.copyOf(filled, page * 2);
        }
        pages[page] = bytes;
        filled[page] = fill;
        return page;
    }

    private void releaseIfEmpty(int page) {
        if (page == 0 || page == head || pages[page] == null || live[page] != 0) {
            return;
        }
        if (filled[page] >= 0) {
            sharedFilled -= filled[page];
            if (spare == null || pages[page].length > spare.length) {
                spare = pages[page];
            }
        }
        pages[page] = null;
        filled[page] = 0;
        if (releasedCount == releasedNumbers.length) {
            releasedNumbers = Arrays.copyOf(releasedNumbers, releasedCount * 2);
        }
        releasedNumbers[releasedCount++] = page;
    }

    /** Calls {@code visitor} with each page in use: its number, bytes and filled length (its length for a page of its own). */
    void forEachPage(PageVisitor visitor) {
        for (int page = 1; page < nextNumber; page++) {
            if (pages[page] != null) {
                visitor.visit(page, pages[page], filled[page] >= 0 ? filled[page] : pages[page].length);
            }
        }
    }

    interface PageVisitor {
        void visit(int page, byte[] bytes, int filled);
    }

    /** Pages held: those in use and the spare. */
    int pagesHeld() {
        int held = spare != null ? 1 : 0;
        for (int page = 1; page < nextNumber; page++) {
            if (pages[page] != null) {
                held++;
            }
        }
        return held;
    }

    /** Bytes of the pages held: those in use and the spare. */
    long bytesHeld() {
        long held = spare != null ? spare.length : 0;
        for (int page = 1; page < nextNumber; page++) {
            if (pages[page] != null) {
                held += pages[page].length;
            }
        }
        return held;
    }

    /** Heap bytes this holds: the pages (holes and unfilled tails included), the spare and the bookkeeping. */
    long memoryUsage() {
        long bytes = INSTANCE + HeapSize.of(pages) + HeapSize.of(live) + HeapSize.of(filled)
                + HeapSize.of(releasedNumbers) + HeapSize.of(spare);
        for (int page = 1; page < nextNumber; page++) {
            bytes += HeapSize.of(pages[page]);
        }
        return bytes;
    }

    int liveBytes(int page) {
        return live[page];
    }

    /** The totals agree with the pages, and no page but the head is left without live bytes. */
    void checkInvariants() {
        long filledSum = 0;
        long liveSum = 0;
        for (int page = 1; page < nextNumber; page++) {
            if (pages[page] != null && filled[page] >= 0) {
                filledSum += filled[page];
                liveSum += live[page];
                Invariants.check(live[page] > 0 || page == head, "empty page " + page + " not released");
            }
        }
        Invariants.check(filledSum == sharedFilled && liveSum == sharedLive,
                "page totals " + sharedFilled + "/" + sharedLive + " but pages hold " + filledSum + "/" + liveSum);
    }
}
