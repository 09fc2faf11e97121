package io.kvd.server.aof;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.SocketlessConnection;
import io.kvd.server.command.CommandTable;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Startup replay: every record of the AOF runs through the command table, as a client's command
 * would, with the log off; the file is read and parsed on another thread meanwhile. As Redis loads: nothing expires while loading (the clock stands at 0,
 * so no deadline has passed; the caller sweeps afterwards), a torn last record is cut off with a
 * warning (aof-load-truncated yes), and anything else unreadable stops the start. A MULTI..EXEC
 * block replays as a transaction, applied at its EXEC; a MULTI the file ends without an EXEC for
 * was never run (its EXEC was never acknowledged), and the file is cut back to before it.
 */
public final class AofLoader {
    private static final Logger log = LoggerFactory.getLogger(AofLoader.class);
    /** Replies of replayed commands are dropped once this much has piled up. */
    private static final int REPLY_DISCARD_BYTES = 1 << 20;
    /** Records read before the keyspace is sized for the whole file, from their average length. */
    private static final long SIZING_SAMPLE_RECORDS = 1024;

    /**
     * What one replay did. CPU time apart for the loop and the reading thread: on a machine whose
     * cores the JIT compiler and the region allocator share meanwhile, the loop's own time is
     * what the records cost it, and the wall time also shows how long it waited for a core.
     */
    public record Result(long records, long bytes, long truncatedBytes, long wallNanos, long loopCpuNanos,
                         long readerCpuNanos) {
    }

    private AofLoader() {
    }

    /**
     * Replays the file into the server's keyspace (the caller runs it on the event loop, before
     * listening). A missing or empty file loads nothing.
     *
     * @throws AofFormatException where the file holds garbage, or a command kvd does not know
     */
    public static Result load(Path file, ServerState server, CommandTable commands)
            throws IOException, AofFormatException {
        long startNanos = System.nanoTime();
        if (!file.toFile().exists()) {
            return new Result(0, 0, 0, 0, 0, 0);
        }
        boolean logging = server.commandLog().isEnabled();
        long now = server.databases().now();
        server.commandLog().setEnabled(false);
        // The database the replay was in when it sized the table: a file of one database's keys, mostly.
        Keyspace reserved = null;
        server.databases().setTime(0);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             ReadAheadAofReader reader = new ReadAheadAofReader(new AofReader(channel))) {
            // Asked once the reader runs: the first call loads the management classes (3 to 5 ms),
            // time the reading thread spends parsing the first records.
            long startCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            Client client = null;
            long recordStart = 0;
            byte[][] keys = new byte[Keyspace.PREFETCH_KEYS][];
            int prefetchedRecords = 0;
            long transactionStart = -1;
            for (byte[][] argv; (argv = reader.next()) != null; recordStart = reader.validUpTo()) {
                Command command = commands.lookup(argv[0]);
                if (command == null) {
                    throw new AofFormatException("unknown command '" + new String(argv[0], StandardCharsets.UTF_8)
                            + "'", recordStart, recordStart);
                }
                if (client == null) {
                    // Created only when there is something to load, as Redis's fake AOF client.
                    client = new Client(server, UnpooledByteBufAllocator.DEFAULT, ReplayConnection.INSTANCE);
                    // The log is trusted input, as Redis's AOF client (no user, so no ACL checks): ACL
                    // guards sockets, and keys of slots the map now gives to another node must not be dropped.
                    client.obeyEverySlot();
                    client.replayAof();
                }
                if (prefetchedRecords == 0) {
                    prefetchedRecords = prefetchKeys(reader, client.keyspace(), keys);
                }
                prefetchedRecords--;
                Dispatcher.call(client, command, argv);
                if (!client.inTransaction()) {
                    transactionStart = -1;
                } else if (transactionStart < 0) {
                    transactionStart = recordStart;
                }
                if (reader.records() == SIZING_SAMPLE_RECORDS) {
                    reserved = client.keyspace();
                    reserved.reserve(expectedRecords(reader));
                }
                if (client.reply().pendingBytes() > REPLY_DISCARD_BYTES) {
                    // Kept, not released: a new buffer every 200 K records was a branch the
                    // compiled SET path had never seen, and C2 threw that code away to compile it again.
                    client.reply().clear();
                }
            }
            if (client != null) {
                client.reply().discard();
            }
            long validUpTo = reader.validUpTo();
            boolean torn = reader.isTorn();
            if (transactionStart >= 0) {
                // As Redis's loader: the queued commands never ran, and the block goes as a torn tail does.
                log.warn("AOF {} ends inside a MULTI/EXEC block: reverting the transaction that starts at offset {}",
                        file, transactionStart);
                validUpTo = transactionStart;
                torn = true;
            }
            long truncated = 0;
            if (torn) {
                truncated = reader.fileSize() - validUpTo;
                log.warn("AOF {} ends in an incomplete record: truncating it at offset {}, dropping the last {} bytes "
                        + "(a crash in the middle of a write)", file, validUpTo, truncated);
                channel.truncate(validUpTo);
                channel.force(true);
            }
            long loopCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - startCpu;
            return new Result(reader.records(), validUpTo, truncated, System.nanoTime() - startNanos, loopCpu,
                    reader.readerCpuNanos());
        } finally {
            if (reserved != null) {
                reserved.reserve(0);
            }
            server.databases().setTime(now);
            server.commandLog().setEnabled(logging);
        }
    }

    /**
     * Has the keyspace cache the keys of the record {@link ReadAheadAofReader#next} returned and of
     * those after it in its batch, up to {@code keys.length}; returns how many records that covers.
     * On 1.6 M new keys, finding each key's bucket and chain head one after another was half a
     * SET's time. A record's first argument is its key for nearly every command a log holds
     * (not SELECT's), and a wrong guess only wastes a prefetch.
     */
    private static int prefetchKeys(ReadAheadAofReader reader, Keyspace keyspace, byte[][] keys) {
        int count = 0;
        for (byte[][] argv; count < keys.length && (argv = reader.ahead(count)) != null; count++) {
            keys[count] = argv[argv.length > 1 ? 1 : 0];
        }
        keyspace.prefetch(keys, count);
        return count;
    }

    /** As many records as the file holds if the rest are as long as those read so far: about one key each. */
    private static int expectedRecords(ReadAheadAofReader reader) {
        return (int) Math.min(Integer.MAX_VALUE, reader.fileSize() * reader.records() / reader.validUpTo());
    }

    /** The replay client's connection: nowhere. */
    private static final class ReplayConnection extends SocketlessConnection {
        static final ReplayConnection INSTANCE = new ReplayConnection();

        @Override
        public String remoteAddress() {
            return "";
        }

        @Override
        public void close() {
        }
    }
}
