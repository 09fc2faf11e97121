package io.kvd.server.store;

/**
 * A point-in-time snapshot of every database: one {@link KeyspaceSnapshot} per database, all
 * started at the same instant and stepped through in database order. A snapshot follows its
 * contents through SWAPDB and still names the database they were in at the start, so the
 * records written for it replay there, before the SWAPDB logged after the start.
 */
public final class DatabasesSnapshot {
    private final Databases databases;
    private final KeyspaceSnapshot[] parts;
    private int current;

    DatabasesSnapshot(Databases databases, int membersPerBatch, KeyspaceSnapshot.Sink sink) {
        this.databases = databases;
        this.parts = new KeyspaceSnapshot[databases.count()];
        for (int db = 0; db < parts.length; db++) {
            parts[db] = databases.get(db).startSnapshot(membersPerBatch, sink);
        }
    }

    /** Looks at up to {@code maxIds} more entry or member ids; true once every database was handed out. */
    public boolean step(int maxIds) {
        while (current < parts.length && parts[current].step(maxIds)) {
            current++;
        }
        return done();
    }

    public boolean done() {
        return current >= parts.length;
    }

    /** Stops telling the snapshot about changes (it completed or was abandoned). */
    public void stop() {
        databases.forEach(keyspace -> {
            for (KeyspaceSnapshot part : parts) {
                keyspace.stopSnapshot(part);
            }
        });
    }
}
