package io.kvd.server;

import io.kvd.codec.RespDecoder;
import io.kvd.server.admin.Version;
import io.kvd.server.aof.AofDirectory;
import io.kvd.server.aof.AofLoader;
import io.kvd.server.aof.AofPersistence;
import io.kvd.server.aof.AppendOnlyFile;
import io.kvd.server.aof.FsyncPolicy;
import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.config.Config;
import io.kvd.server.config.IoErrors;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.scripting.LuaEngines;
import io.kvd.server.store.Databases;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A running kvd: one event loop thread that accepts connections, serves every one of them and
 * runs the cron (active expiry). Start with {@link #start}, stop with {@link #close} or SHUTDOWN.
 */
public final class KvdServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KvdServer.class);
    /** Redis's default tcp-backlog. */
    /** Each cron tick finishes up to 1 ms of a keyspace resize, as Redis's activerehashing. */
    private static final long REHASH_NANOS_PER_TICK = 1_000_000;
    /** The pause between fast expiry cycles while clients are active: expiry takes at most half. */
    private static final long FAST_EXPIRY_GAP_MICROS = 1_000;

    private final Config config;
    private final EventLoopGroup group;
    private final ServerEventLoop loop;
    private final ServerState state;
    private final CommandTable commands;
    private final Transport transport;
    private AofPersistence aofPersistence;
    private IterationFlush flush;
    /** TCP at {@code port} and TLS at {@code tls-port}, on every {@code bind} address; null when not served. */
    private TcpListeners tcp;
    private TcpListeners tls;
    /** The unix socket's listener; null when none. */
    private Channel unixListener;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private ScheduledFuture<?> cron;
    private ScheduledFuture<?> fastExpiry;
    private long commandsAtFastExpiry = -1;
    /** The pid file this server wrote, removed when it stops; null if none. */
    private Path writtenPidFile;

    private KvdServer(Config config, Transport transport) {
        this.config = config;
        this.transport = transport;
        this.commands = new CommandTable(config.commandRenames());
        this.group = ServerEventLoop.group(transport.ioHandlerFactory());
        this.loop = (ServerEventLoop) group.next();
        Databases databases = new Databases(config.databases(), System.nanoTime(), config.encodingLimits());
        // Clients read the clock before the first batch (CLIENT LIST's age); the cron keeps it current.
        databases.setTime(System.currentTimeMillis());
        this.state = new ServerState(databases, config, server -> new LuaEngines(server, commands::lookup), this::closeAsync,
                CommandTable.names());
        state.useTimer(loop);
    }

    /** Binds every address of {@code bind} and starts serving; returns once the server listens. */
    public static KvdServer start(Config config) throws InterruptedException {
        Transport transport = Transport.select(config.transport());
        SslContext tls = config.tlsPort() == 0 ? null : TlsContext.create(config);
        KvdServer server = new KvdServer(config, transport);
        try {
            server.onLoop(server::openFiles);
            server.bind(transport, tls);
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * The TCP port served (the bound one when {@code port} is 0), or 0 when only TLS is served
     * ({@code port 0} with a {@code tls-port}, as Redis).
     */
    public int port() {
        return tcp == null ? 0 : tcp.port();
    }

    /** The TLS port served; 0 when TLS is off. */
    public int tlsPort() {
        return tls == null ? 0 : tls.port();
    }

    /** Walks the keyspace's structures on the event loop and fails if any is inconsistent (for tests). */
    void checkInvariants() {
        loop.submit(() -> state.databases().checkInvariants()).syncUninterruptibly();
    }

    /** Runs {@code task} on the event loop, which serves nothing else meanwhile (for tests). */
    void runOnLoop(Runnable task) {
        loop.execute(task);
    }

    /** Completes once the server has stopped, by {@link #close} or SHUTDOWN. */
    public CompletableFuture<Void> closed() {
        return closed;
    }

    /** Stops accepting, closes every connection, stops the event loop; waits for all of it. */
    @Override
    public void close() {
        closeAsync();
        closed.join();
    }

    private void closeAsync() {
        if (loop.isShuttingDown()) {
            return;
        }
        loop.execute(() -> {
            state.rdb().close();
            if (cron != null) {
                cron.cancel(false);
            }
            if (fastExpiry != null) {
                fastExpiry.cancel(false);
            }
            if (tcp != null) {
                tcp.close();
            }
            if (tls != null) {
                tls.close();
            }
            if (unixListener != null) {
                unixListener.close();
            }
            removeUnixSocket();
            state.clients().values().forEach(c -> c.connection().close());
            state.migrateSockets().closeAll();
            if (aofPersistence != null) {
                aofPersistence.close();
            }
            state.scripting().close();
            if (writtenPidFile != null) {
                removePidFile(writtenPidFile);
            }
        });
        // A short quiet period: the closes above finish asynchronously (with io_uring, on a later
        // completion) and their last tasks must still find the loop accepting work.
        group.shutdownGracefully(100, 5000, TimeUnit.MILLISECONDS).addListener(f -> {
            log.info("kvd stopped");
            closed.complete(null);
        });
    }

    private void bind(Transport transport, SslContext tlsContext) throws InterruptedException {
        flush = new IterationFlush(loop, aofPersistence, state.replication());
        state.onEventsWhileBlocked(() -> {
            loop.handleReadyIo();
            flush.run();
        });
        long softLimit = config.clientOutputSoftLimit();
        WriteBufferWaterMark waterMark = new WriteBufferWaterMark((int) Math.min(softLimit / 2, Integer.MAX_VALUE / 2),
                (int) Math.min(softLimit, Integer.MAX_VALUE));
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, Integer.parseInt(config.get("tcp-backlog")))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .childHandler(connections(null));
        // As Redis, port 0 beside a tls-port serves TLS only; without TLS it picks a free port.
        if (tlsContext == null || config.port() != 0) {
            tcp = new TcpListeners(bootstrap);
            onLoop(() -> tcp.listen(config.bind(), config.port()));
        }
        if (tlsContext != null) {
            tls = new TcpListeners(bootstrap.clone().childHandler(connections(tlsContext)));
            onLoop(() -> tls.listen(config.bind(), config.tlsPort()));
            log.info("TLS on port {}, client certificates: {}", tls.port(), config.tlsAuthClients());
        }
        int port = port();
        state.listening(port, transport.configName());
        loop.execute(this::scheduleCron);
        PrimaryStream primaryStream = new PrimaryStream(state, commands, loop, transport, this::port);
        loop.execute(() -> state.replication().useNetwork(primaryStream));
        config.applyWith(Config.PORT, () -> {
            if (tcp == null) {
                tcp = new TcpListeners(bootstrap);
            }
            tcp.changePort(config.bind(), config.port());
            state.listening(tcp.port(), transport.configName());
        });
        // As Redis's updateAppendonly: on through a rewrite, off at once.
        config.applyWith(Config.APPENDONLY, () -> {
            if (!config.appendonly()) {
                aofPersistence.disable();
            } else if (!aofPersistence.enable()) {
                throw new IllegalArgumentException("Unable to turn on AOF. Check server logs.");
            }
        });
        config.applyWith(Config.BIND, () -> {
            if (tcp != null) {
                tcp.changeAddresses(config.bind());
            }
            if (tls != null) {
                tls.changeAddresses(config.bind());
            }
        });
        config.onChange(name -> {
            if (name.equals(Config.HZ)) {
                scheduleCron();
            } else if (name.equals(Config.APPENDFSYNC)) {
                aofPersistence.setPolicy(FsyncPolicy.named(config.appendfsync()));
            } else if (name.equals(Config.AOF_DISABLE_AUTO_GC)) {
                aofPersistence.autoGcChanged();
            }
        });
        if (!config.unixsocket().isEmpty()) {
            listenOnUnixSocket(transport, waterMark);
        }
        if (config.pidfile() != null) {
            writePidFile(config.pidfile());
        }
        // " PID: " as in Redis's start-up logo, once the port is bound: Redis's test harness finds the
        // process by it and may connect at once, as it can to a redis-server, which binds before loading.
        log.info("kvd {} ready: transport {}, bind {}, port {}, PID: {}", Version.KVD, transport.configName(),
                String.join(" ", config.bind()), port, ProcessHandle.current().pid());
        // Redis's lines, which tools that start a server wait for.
        log.info("Ready to accept connections");
        if (!config.unixsocket().isEmpty()) {
            log.info("The server is now ready to accept connections at {}", config.unixsocket());
        }
    }

    /**
     * Redis's unixsocket: a stale socket file is removed first, as Redis's anetUnixServer unlinks
     * it; unixsocketperm, when set, becomes the file's permission bits.
     */
    private void listenOnUnixSocket(Transport transport, WriteBufferWaterMark waterMark) throws InterruptedException {
        Path path = Path.of(config.unixsocket());
        try {
            Files.deleteIfExists(path);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(transport.domainServerChannel())
                    .option(ChannelOption.SO_BACKLOG, Integer.parseInt(config.get("tcp-backlog")))
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                    .childHandler(connections(null));
            unixListener = bootstrap.bind(transport.domainAddress(path.toString())).sync().channel();
            int perm = config.unixsocketPerm();
            if (perm != 0) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissionString(perm)));
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("Failed opening Unix socket: " + e.getMessage(), e);
        }
    }

    /** rwxr-x--- for 0750. */
    private static String permissionString(int mode) {
        StringBuilder text = new StringBuilder();
        for (int shift = 6; shift >= 0; shift -= 3) {
            int bits = mode >> shift;
            text.append((bits & 4) != 0 ? 'r' : '-').append((bits & 2) != 0 ? 'w' : '-').append((bits & 1) != 0 ? 'x' : '-');
        }
        return text.toString();
    }

    /** As Redis's closeListeningSockets at shutdown. */
    private void removeUnixSocket() {
        if (config.unixsocket().isEmpty()) {
            return;
        }
        log.info("Removing the unix socket file.");
        try {
            Files.deleteIfExists(Path.of(config.unixsocket()));
        } catch (IOException e) {
            log.warn("Error removing the unix socket file: {}", e.toString());
        }
    }

    /**
     * Writes the process id and a newline to {@code pidfile}, as Redis's createPidFile: once the
     * server listens, before it says it is ready; a failure is only logged.
     */
    private void writePidFile(Path pidfile) {
        try {
            Files.writeString(pidfile, ProcessHandle.current().pid() + "\n");
            writtenPidFile = pidfile;
        } catch (IOException e) {
            log.warn("Failed to write PID file: {}", IoErrors.strerror(e));
        }
    }

    /** Removes the pid file at a clean stop, as Redis's prepareForShutdown. */
    private void removePidFile(Path pidfile) {
        log.info("Removing the pid file.");
        try {
            Files.deleteIfExists(pidfile);
        } catch (IOException e) {
            log.warn("Failed to remove PID file: {}", IoErrors.strerror(e));
        }
    }

    /**
     * As Redis's main: the AOF manifest is read whether or not appendonly is on (a bad one stops
     * the start), then the AOF is loaded if appendonly is on, else the RDB; history files a
     * finished rewrite left are deleted.
     */
    private void openFiles() throws IOException {
        AofPersistence.deleteLeftover(config.dir(), config.appendFilename());
        AofDirectory directory = new AofDirectory(config.dir(), config.appendFilename(),
                config.appendDir().getFileName().toString());
        directory.keepHistoryWhile(config::aofDisableAutoGc);
        directory.loadManifest();
        AppendOnlyFile aof = null;
        if (config.appendonly()) {
            aof = loadAof(directory);
        } else {
            loadRdb();
        }
        directory.deleteHistory();
        aofPersistence = new AofPersistence(config, state, commands, directory, aof, loop);
    }

    /**
     * Each connection's pipeline: TLS first when {@code tls} is given, so the input counter, the
     * decoder and the handler see plain bytes and the per-iteration flush passes through it as one write.
     */
    private ChannelInitializer<Channel> connections(SslContext tls) {
        NetworkInputCounter inputCounter = new NetworkInputCounter(state.stats());
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                }
                int keepAlive = Integer.parseInt(config.get("tcp-keepalive"));
                if (keepAlive > 0 && ch.localAddress() instanceof InetSocketAddress) {
                    transport.keepAlive(ch, keepAlive);
                }
                RespDecoder decoder = new RespDecoder(config::protoMaxBulkLen);
                ch.pipeline().addLast(inputCounter, decoder, new ConnectionHandler(state, commands, flush, loop, decoder));
            }
        };
    }

    /**
     * Replays the AOF, then opens it for appending and removes the keys whose deadline passed
     * while the server was down (logged as DELs, so the next replay agrees). Runs on the loop,
     * before any client can connect. Garbage in the file stops the start: kvd never serves an
     * empty keyspace because the log failed to load.
     */
    private AppendOnlyFile loadAof(AofDirectory directory) throws IOException {
        AofLoader.Loaded files = directory.load(state, commands);
        AofLoader.Result loaded = files.result();
        AppendOnlyFile aof = directory.openOnStart(state, config.aofUseRdbPreamble(), files.totalSize(),
                FsyncPolicy.named(config.appendfsync()));
        state.aofRewrite().setBaseSize(files.baseSize());
        state.commandLog().setEnabled(true);
        state.databases().setTime(System.currentTimeMillis());
        int expired = 0;
        for (int db = 0; db < state.databases().count(); db++) {
            expired += state.keyspace(db).removeExpired();
        }
        if (!aof.commit()) {
            throw new IllegalStateException("cannot write the append only file: " + state.commandLog().failure());
        }
        log.info("AOF loaded from {}: {} records, {} bytes in {} ms ({} ns per record; CPU: loop {} ms, {} ns per "
                        + "record, reader {} ms); {} keys, {} expired while down removed", config.appendDir(), loaded.records(),
                loaded.bytes(), loaded.wallNanos() / 1_000_000, perRecord(loaded.wallNanos(), loaded.records()),
                loaded.loopCpuNanos() / 1_000_000, perRecord(loaded.loopCpuNanos(), loaded.records()),
                loaded.readerCpuNanos() / 1_000_000, state.databases().size(), expired);
        return aof;
    }

    /**
     * As Redis with appendonly off: dir/dbfilename, if there is one, is the dataset. A file that
     * does not load stops the start: kvd never serves an empty dataset over one it could not read.
     */
    private void loadRdb() throws IOException {
        Path file = state.rdb().file();
        if (!Files.exists(file)) {
            return;
        }
        long started = System.nanoTime();
        try {
            RdbLoader.Result loaded = state.loadRdb(false);
            state.replication().restoreFrom(loaded.aux());
            log.info("DB loaded from disk: {} keys ({} expired skipped) in {} ms", loaded.keys(), loaded.expired(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (RdbFormatException e) {
            throw new IllegalStateException("Fatal error loading the DB " + file + ": " + e.getMessage()
                    + ". Exiting.", e);
        }
    }

    /** SIGTERM or SIGINT ({@code signal} names it): the shutdown SHUTDOWN makes, with the directive's flags. */
    public void signalled(String signal) {
        loop.execute(() -> state.shutdownSequence().signalled(signal));
    }

    private static long perRecord(long nanos, long records) {
        return records == 0 ? 0 : nanos / records;
    }

    /** Runs {@code task} on the event loop and waits for it; its exception stops the start. */
    private void onLoop(LoopTask task) throws InterruptedException {
        try {
            loop.submit(() -> {
                task.run();
                return null;
            }).get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.toString(), cause);
        }
    }

    private interface LoopTask {
        void run() throws Exception;
    }

    private void scheduleCron() {
        if (cron != null) {
            cron.cancel(false);
        }
        long periodMicros = 1_000_000L / config.hz();
        cron = loop.scheduleAtFixedRate(() -> {
            if (state.isCronPaused()) {
                return;
            }
            long now = System.currentTimeMillis();
            // As Redis, a replica leaves expiry to its primary, whose DELs it gets in the stream.
            if (!state.clientsPaused() && !state.replication().isReplica()) {
                state.expiryCycle().runSlow(now, config.hz());
                expireFastWhileBehind();
            } else {
                state.databases().setTime(now);
            }
            state.databases().forEach(keyspace -> keyspace.rehashStep(REHASH_NANOS_PER_TICK));
            state.sampleRates(now);
            state.clientBufferPeaks().cron(now);
            state.memory().used();
            // As Redis's serverCron: the tracking table back within tracking-table-max-keys.
            state.tracking().limitUsedSlots();
            // Without an idle timeout or output limit (the defaults) the clients' checks have
            // nothing to find: 1,000 connections would cost 10,000 visits a second for nothing.
            if (config.timeout() > 0 || OutputLimits.configured(config, state.pubSub().hasSubscribers())) {
                // A copy: closing a connection removes its client from the map.
                for (Client client : List.copyOf(state.clients().values())) {
                    // The master client of a replica has no socket of its own.
                    if (client.connection() instanceof ConnectionHandler connection) {
                        connection.cron(now);
                    }
                }
            }
            // As Redis's clientsCron: clients whose output drained or grew unseen are measured anew.
            state.clientEviction().cron();
            state.replication().cron(now);
            state.migrateSockets().closeIdle(now);
            flush.commitFromCron();
            aofPersistence.cron(now);
            state.rdb().cron(now);
            state.shutdownSequence().cron(now);
        }, periodMicros, periodMicros, TimeUnit.MICROSECONDS);
    }

    /**
     * Redis's fast expire cycle: while the last cycle ran out of time with keys still expiring,
     * 1 ms cycles follow as scheduled tasks, so client I/O is served between them. Back to back
     * while no command arrived since the previous one (the loop would be idle anyway), 1 ms apart
     * otherwise. 200,000 keys sharing a deadline go in about a fifth of a second, not a second.
     */
    private void expireFastWhileBehind() {
        if (fastExpiry != null || !state.expiryCycle().behind()) {
            return;
        }
        long gap = state.stats().commandsProcessed == commandsAtFastExpiry ? 0 : FAST_EXPIRY_GAP_MICROS;
        fastExpiry = loop.schedule(() -> {
            fastExpiry = null;
            commandsAtFastExpiry = state.stats().commandsProcessed;
            state.expiryCycle().runFast(System.currentTimeMillis());
            flush.commitFromCron();
            expireFastWhileBehind();
        }, gap, TimeUnit.MICROSECONDS);
    }
}
