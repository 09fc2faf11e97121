package io.kvd.server.store;

/**
 * A snapshot's copy of one large collection, taken member by member as the keyspace's is taken
 * entry by entry: an {@link IdWalk} over the {@link MemberTable}'s member ids, which the table
 * tells before it changes or removes a member and when it adds one. So the members handed out are
 * those of the moment the snapshot handed the collection out, each once, in steps as short as the
 * keyspace's, however large the collection.
 *
 * <p>The walk hangs on the table itself, so it follows the table wherever it goes: under another
 * key (RENAME) or database (MOVE, SWAPDB), or nowhere (DEL, expiry, FLUSHALL, an overwrite), when
 * the table is frozen and the walk finishes it at leisure. Its members keep the key and database
 * of the start, which is where they replay, before whatever was logged after the start.
 */
final class MemberWalk implements KeyspaceSnapshot.CollectionWalk {
    private final MemberTable table;
    private final EntrySlab slab;
    private final MemberBatch batch;
    private final long deadline;
    private final IdWalk ids;

    MemberWalk(MemberTable table, EntrySlab slab, MemberBatch batch, long deadline) {
        this.table = table;
        this.slab = slab;
        this.batch = batch;
        this.deadline = deadline;
        this.ids = new IdWalk(slab.idLimit(), this::handOut);
    }

    /** Looks at up to {@code maxIds} more member ids; true once all were handed out, the walk then ended. */
    @Override
    public boolean step(int maxIds) {
        if (!ids.step(maxIds)) {
            return false;
        }
        batch.end(deadline);
        stop();
        return true;
    }

    /** Stops being told of the table's changes (finished, or the snapshot abandoned). */
    @Override
    public void stop() {
        table.endWalk(this);
    }

    void beforeChange(int id) {
        ids.beforeChange(id);
    }

    void created(int id) {
        ids.created(id);
    }

    private void handOut(int id) {
        if (slab.isLive(id)) {
            batch.add(slab.key(id), batch.hasValues() ? slab.value(id) : null);
        }
    }
}
