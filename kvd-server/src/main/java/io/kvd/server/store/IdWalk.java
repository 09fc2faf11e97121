package io.kvd.server.store;

import java.util.function.IntConsumer;

/**
 * The point-in-time walk over a slab's ids that a snapshot makes, of the keyspace's entries or of
 * one collection's members: ids ascending from 1 in {@link #step steps}, each handed out unless
 * already handled, and before the owner changes or removes the entry of an id the cursor has not
 * reached, {@link #beforeChange} hands that id out first. A bitset over the ids of the start marks
 * those handed out early and those {@link #created} later (an id freed and reused included), so
 * each id live at the start is handed out once, as it was then. Ids at or past the slab's end at
 * the start were all born later and are never visited.
 */
final class IdWalk {
    private final IntConsumer handOut;
    private final int end;
    /** One bit per id below {@link #end}: already handed out, or born after the start. */
    private final long[] handled;
    private int cursor = 1;

    /** A walk over ids 1 to {@code end} (the slab's {@link EntrySlab#idLimit()} now); {@code handOut} reads one. */
    IdWalk(int end, IntConsumer handOut) {
        this.handOut = handOut;
        this.end = end;
        this.handled = new long[(end >>> 6) + 1];
    }

    /** Looks at up to {@code maxIds} more ids, handing out those not handled yet; true once all were. */
    boolean step(int maxIds) {
        for (int stop = (int) Math.min(end, (long) cursor + maxIds); cursor < stop; cursor++) {
            if (!isHandled(cursor)) {
                handOut.accept(cursor);
            }
        }
        return done();
    }

    boolean done() {
        return cursor >= end;
    }

    /** The entry {@code id} is about to change or go: hand it out now if it is still due. */
    void beforeChange(int id) {
        if (id >= cursor && id < end && !isHandled(id)) {
            markHandled(id);
            handOut.accept(id);
        }
    }

    /** A new entry got {@code id}: it is not part of the snapshot. */
    void created(int id) {
        if (id < end) {
            markHandled(id);
        }
    }

    private boolean isHandled(int id) {
        return (handled[id >>> 6] & (1L << id)) != 0;
    }

    private void markHandled(int id) {
        handled[id >>> 6] |= 1L << id;
    }
}
