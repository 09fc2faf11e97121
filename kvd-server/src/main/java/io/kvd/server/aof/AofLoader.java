package io.kvd.server.aof;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.SocketlessConnection;
import io.kvd.server.command.CommandTable;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Startup replay: every record of the AOF's files runs through the command table, as a client's
 * command would, with the log off; a file is read and parsed on another thread meanwhile, and an
 * RDB base or preamble loads through the rdb package. As Redis loads: nothing expires while loading (the clock stands at 0,
 * so no deadline has passed; the caller sweeps afterwards), a torn last record is cut off with a
 * warning (aof-load-truncated yes; with no it stops the start), and anything else unreadable stops the start. A MULTI..EXEC
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
        Result plus(Result other) {
            return new Result(records + other.records, bytes + other.bytes, truncatedBytes + other.truncatedBytes,
                    wallNanos + other.wallNanos, loopCpuNanos + other.loopCpuNanos, readerCpuNanos + other.readerCpuNanos);
        }
    }

    private static final Result EMPTY = new Result(0, 0, 0, 0, 0, 0);
    private static final byte[] RDB_SIGNATURE = {'R', 'E', 'D', 'I', 'S'};

    private AofLoader() {
    }

    /**
     * Replays the AOF files a manifest lists, the base first, then each incr file
     * (loadAppendOnlyFiles), after moving an old single file into the directory as the base. A
     * file the manifest names but the directory lacks, and a torn file that is not the last,
     * stop the start; a manifest without files, or with only empty ones, loads nothing.
     *
     * @return what the files held, and the base's size (aof_base_size after a start)
     * @throws IllegalStateException where a file holds garbage, or a command kvd does not know
     */
    static Loaded loadAll(AofDirectory directory, AofManifest manifest, ServerState server, CommandTable commands)
            throws IOException {
        directory.upgradeIfNeeded(manifest);
        if (manifest.isEmpty()) {
            return new Loaded(EMPTY, 0, 0);
        }
        long total = directory.sizeOfAll(manifest);
        if (total < 0) {
            throw new IllegalStateException("a file the AOF manifest lists is missing (see above)");
        }
        if (total == 0) {
            return new Loaded(EMPTY, 0, 0);
        }
        List<AofInfo> files = new ArrayList<>();
        if (manifest.base() != null) {
            files.add(manifest.base());
        }
        files.addAll(manifest.incrs());
        long baseSize = manifest.base() != null ? directory.size(manifest.base().name()) : 0;
        Result sum = EMPTY;
        for (int i = 0; i < files.size(); i++) {
            AofInfo info = files.get(i);
            boolean base = info.type() == AofInfo.Type.BASE;
            Path file = directory.file(info.name());
            Result loaded;
            try {
                loaded = load(file, info.name().equals(directory.fileName()), server, commands);
            } catch (AofFormatException e) {
                if (e.unknownCommand() != null) {
                    throw new IllegalStateException("Unknown command '" + e.unknownCommand()
                            + "' reading the append only file " + info.name(), e);
                }
                throw new IllegalStateException("Bad file format reading the append only file " + info.name() + ": "
                        + e.getMessage() + ". Make a backup of it, then repair it (cutting it at offset "
                        + e.validUpTo() + ") with: java -jar kvd.jar --check-aof --fix " + file, e);
            }
            if (loaded.truncatedBytes() > 0 && i < files.size() - 1) {
                log.warn("Fatal error: the truncated file is not the last file");
                throw new IllegalStateException("the AOF file " + info.name() + " was truncated but is not the last file");
            }
            log.info("DB loaded from {} file {}: {} seconds", base ? "base" : "incr", info.name(),
                    String.format("%.3f", loaded.wallNanos() / 1e9));
            sum = sum.plus(loaded);
        }
        return new Loaded(sum, baseSize, total - sum.truncatedBytes());
    }

    /**
     * DEBUG LOADAOF, after the caller emptied the databases: what the log holds is written
     * first, then the manifest is read again, its history deleted and its files loaded. A file
     * that does not load leaves a half-loaded keyspace, so the server stops, as Redis exits.
     *
     * @param aof the open AOF, null when appendonly is off
     */
    public static void reload(AofDirectory directory, AppendOnlyFile aof, ServerState server, CommandTable commands) {
        if (aof != null) {
            aof.writeNow();
        }
        try {
            directory.loadManifest();
            directory.deleteHistory();
            loadAll(directory, directory.manifest(), server, commands);
        } catch (IOException | RuntimeException e) {
            log.warn("DEBUG LOADAOF could not load the AOF: {}", e.getMessage());
            System.exit(1);
        }
        log.info("Append Only File loaded by DEBUG LOADAOF");
    }

    /** What {@link #loadAll} replayed, the base's size and the size of all files after it. */
    public record Loaded(Result result, long baseSize, long totalSize) {
    }

    /**
     * Replays one file into the server's keyspace (the caller runs it on the event loop, before
     * listening), as Redis's loadSingleAppendOnlyFile: a file that starts with "REDIS" is an RDB
     * (a base, or an old-style file's preamble) followed by the commands of its tail, if any. A
     * missing or empty file loads nothing.
     *
     * @param oldStyle the file is appendfilename itself, whose RDB part is a preamble (as Redis logs it)
     * @throws AofFormatException where the file holds garbage, or a command kvd does not know
     */
    public static Result load(Path file, boolean oldStyle, ServerState server, CommandTable commands)
            throws IOException, AofFormatException {
        long startNanos = System.nanoTime();
        if (!file.toFile().exists()) {
            return EMPTY;
        }
        boolean logging = server.commandLog().isEnabled();
        long now = server.databases().now();
        server.commandLog().setEnabled(false);
        server.databases().setTime(0);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long tailStart = startsWithRdb(channel) ? loadRdbPart(file, oldStyle, server) : 0;
            try (ReadAheadAofReader reader = new ReadAheadAofReader(new AofReader(channel, tailStart))) {
                return replay(file, channel, reader, server, commands, startNanos);
            }
        } finally {
            server.databases().setTime(now);
            server.commandLog().setEnabled(logging);
        }
    }

    private static boolean startsWithRdb(FileChannel channel) throws IOException {
        ByteBuffer signature = ByteBuffer.allocate(RDB_SIGNATURE.length);
        while (signature.hasRemaining() && channel.read(signature, signature.position()) > 0) {
            // Positional reads until the five bytes or the end of the file.
        }
        return !signature.hasRemaining() && Arrays.equals(signature.array(), RDB_SIGNATURE);
    }

    /** The RDB part of a file; returns where it ends, where the commands of the tail start. */
    private static long loadRdbPart(Path file, boolean oldStyle, ServerState server) throws IOException {
        log.info(oldStyle ? "Reading RDB preamble from AOF file..." : "Reading RDB base file on AOF loading...");
        try {
            long end = server.loadAofRdbPart(file).bytes();
            if (oldStyle) {
                log.info("Reading the remaining AOF tail...");
            }
            return end;
        } catch (RdbFormatException e) {
            log.warn(oldStyle ? "Error reading the RDB preamble of the AOF file {}, AOF loading aborted"
                    : "Error reading the RDB base file {}, AOF loading aborted", file.getFileName());
            throw new IllegalStateException("the RDB part of " + file + " does not load: " + e.getMessage(), e);
        }
    }

    private static Result replay(Path file, FileChannel channel, ReadAheadAofReader reader, ServerState server,
                                 CommandTable commands, long startNanos) throws IOException, AofFormatException {
        Keyspace reserved = null;
        try {
            // Asked once the reader runs: the first call loads the management classes (3 to 5 ms),
            // time the reading thread spends parsing the first records.
            long startCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            Client client = null;
            long recordStart = reader.validUpTo();
            byte[][] keys = new byte[Keyspace.PREFETCH_KEYS][];
            int prefetchedRecords = 0;
            long transactionStart = -1;
            for (byte[][] argv; (argv = reader.next()) != null; recordStart = reader.validUpTo()) {
                Command command = commands.lookup(argv[0]);
                if (command == null) {
                    throw AofFormatException.unknownCommand(new String(argv[0], StandardCharsets.UTF_8), recordStart);
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
                log.warn("Revert incomplete MULTI/EXEC transaction in AOF file {}", file.getFileName());
                validUpTo = transactionStart;
                torn = true;
            }
            long truncated = 0;
            if (torn && !server.config().aofLoadTruncated()) {
                throw new IllegalStateException("Unexpected end of file reading the append only file "
                        + file.getFileName() + ". You can: 1) Make a backup of your AOF file, then use ./redis-check-aof "
                        + "--fix <filename.manifest>. 2) Alternatively you can set the 'aof-load-truncated' configuration "
                        + "option to yes and restart the server.");
            }
            if (torn) {
                truncated = reader.fileSize() - validUpTo;
                log.warn("!!! Warning: short read while loading the AOF file {}!!!", file.getFileName());
                log.warn("!!! Truncating the AOF {} at offset {} !!!", file.getFileName(), validUpTo);
                channel.truncate(validUpTo);
                channel.force(true);
                log.warn("AOF {} loaded anyway because aof-load-truncated is enabled", file.getFileName());
            }
            long loopCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - startCpu;
            return new Result(reader.records(), validUpTo, truncated, System.nanoTime() - startNanos, loopCpu,
                    reader.readerCpuNanos());
        } finally {
            if (reserved != null) {
                reserved.reserve(0);
            }
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
