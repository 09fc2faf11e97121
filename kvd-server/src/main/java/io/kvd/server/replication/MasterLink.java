package io.kvd.server.replication;

import io.kvd.codec.RespDecoder;
import io.kvd.codec.RespWriter;
import io.kvd.server.config.Config;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.rdb.StreamedLoad;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A replica's link to its primary, Redis's syncWithMaster and readSyncBulkPayload: connect,
 * the handshake (PING, AUTH with masteruser/masterauth, REPLCONF listening-port and capa, PSYNC
 * with the history this server holds), then either the RDB of a full sync, written to a
 * temporary file, renamed over dbfilename and loaded, or the backlog of a partial one, then the
 * stream of commands, each run as the master client and passed on to this server's replicas.
 * REPLCONF ACK goes back every second and on REPLCONF GETACK. A lost link is reconnected by
 * the cron, and PSYNC continues where the stream stopped.
 */
public final class MasterLink {
    private static final Logger log = LoggerFactory.getLogger(MasterLink.class);
    private static final int EOF_MARK_LENGTH = 40;

    /** What the link needs of the server around it. */
    public interface Network {
        /** A bootstrap on the server's event loop and transport, its handler still to be set. */
        Bootstrap bootstrap();

        /** The port this server listens on, which REPLCONF listening-port tells the primary. */
        int listeningPort();

        /** Empties the dataset and loads dir/dbfilename, the full sync's RDB, in its place. */
        void replaceDataset() throws IOException;

        /** Whether every database is empty: repl-diskless-load on-empty-db loads from the socket only then. */
        boolean datasetEmpty();

        /**
         * Starts a diskless load of an RDB of {@code size} bytes, or ending with {@code mark} if
         * {@code size} is -1, into databases of its own; {@code resumeReading} and
         * {@code listener} are called on the loop.
         */
        StreamedLoad streamedLoad(long size, byte[] mark, Runnable resumeReading, StreamedLoad.Listener listener);

        /** A diskless load succeeded: its databases and libraries replace the server's. */
        void replaceDataset(StreamedLoad loaded, RdbLoader.Result result);

        /** Runs one command of the primary's stream as the master client. */
        void run(byte[][] argv);

        /** The stream flows: the master client is one of the server's clients while it does. */
        void streaming(boolean flowing);

        /** The database the master client's commands run in (the stream's last SELECT). */
        int streamDb();

        /** The stream continues in database {@code db}: after a full sync, or from a restart's RDB. */
        void selectStreamDb(int db);

        /** This server follows a primary (true), whose DELs expire its keys, or is a primary again. */
        void followPrimary(boolean following);
    }

    /** Redis's repl_state, as ROLE names it. */
    public enum State {
        CONNECT("connect"), CONNECTING("connecting"), HANDSHAKE("handshake"), TRANSFER("sync"), CONNECTED("connected");

        public final String roleName;

        State(String roleName) {
            this.roleName = roleName;
        }
    }

    /** LOADING: a length-prefixed RDB was read in full and its diskless load has yet to end. */
    private enum Step { PONG, AUTH, IP, PORT, CAPA, PSYNC, BULK_HEADER, BULK, LOADING, STREAM }

    private final String host;
    private final int port;
    private final Replication replication;
    private final Config config;
    private final Network network;
    private State state = State.CONNECT;
    private Channel channel;
    private boolean closed;
    private long lastIoMs = System.currentTimeMillis();
    private long downSinceMs = System.currentTimeMillis();
    private long lastAckMs;
    private long lastConnectMs;
    // A full sync in progress
    private String syncReplid;
    private long syncOffset;
    private long bulkSize = -1;
    private long bulkRead;
    private byte[] eofMark;
    private Path tempFile;
    private FileChannel tempOut;
    /** The diskless load of a full sync in progress (repl-diskless-load), else null. */
    private StreamedLoad load;
    /** The load continues this server's own history (swapdb, same replid): clients are served meanwhile. */
    private boolean asyncLoad;

    MasterLink(String host, int port, Replication replication, Config config, Network network) {
        this.host = host;
        this.port = port;
        this.replication = replication;
        this.config = config;
        this.network = network;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public State state() {
        return state;
    }

    public boolean isUp() {
        return state == State.CONNECTED;
    }

    public long lastIoSecondsAgo(long nowMs) {
        return (nowMs - lastIoMs) / 1000;
    }

    /** Seconds since the link went down; meaningful while it is not up. */
    public long downSeconds(long nowMs) {
        return (nowMs - downSinceMs) / 1000;
    }

    /**
     * INFO's loading: a diskless load of another history (or into an emptied dataset) runs, and
     * clients get -LOADING, as Redis's server.loading.
     */
    public boolean loading() {
        return load != null && !asyncLoad;
    }

    /** INFO's async_loading: a swapdb load of this server's own history runs, and the old data is served meanwhile. */
    public boolean asyncLoading() {
        return load != null && asyncLoad;
    }

    public boolean syncInProgress() {
        return state == State.TRANSFER;
    }

    public long syncTotalBytes() {
        return bulkSize;
    }

    public long syncReadBytes() {
        return bulkRead;
    }

    void connect() {
        if (closed) {
            return;
        }
        lastConnectMs = System.currentTimeMillis();
        log.info("Connecting to MASTER {}:{}", host, port);
        state = State.CONNECTING;
        lastIoMs = System.currentTimeMillis();
        long timeoutMs = Long.parseLong(config.get(Config.REPL_TIMEOUT)) * 1000;
        ChannelFuture connecting = network.bootstrap()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeoutMs, Integer.MAX_VALUE))
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Handshake());
                    }
                })
                .connect(host, port);
        channel = connecting.channel();
        connecting.addListener(f -> {
            if (!f.isSuccess()) {
                log.warn("Error condition on socket for SYNC: {}", f.cause().getMessage());
                linkLost();
            }
        });
    }

    /** REPLICAOF elsewhere or NO ONE: the link goes for good. */
    void close() {
        closed = true;
        if (channel != null) {
            channel.close();
        }
        abandonTransfer();
    }

    /** CLIENT KILL of the master client: the link closes and the cron reconnects. */
    public void dropLink() {
        if (channel != null) {
            channel.close();
        }
    }

    /** The primary's address, as the master client's in CLIENT LIST. */
    public String address() {
        return channel != null && channel.remoteAddress() instanceof java.net.InetSocketAddress inet
                ? inet.getAddress().getHostAddress() + ":" + inet.getPort() : host + ":" + port;
    }

    private void linkLost() {
        if (state == State.CONNECTED) {
            log.info("Connection with master lost.");
            downSinceMs = System.currentTimeMillis();
            network.streaming(false);
        }
        state = State.CONNECT;
        abandonTransfer();
    }

    private void abandonTransfer() {
        if (load != null) {
            // Redis's rdbReportError for a short read from the socket: not corruption, the link's end.
            log.warn("Internal error in RDB reading offset {} -> Unexpected EOF reading RDB file. Failure loading rdb "
                    + "format from socket, assuming connection error, resuming operation.", bulkRead);
            load.abort();
            load = null;
            log.info("MASTER <-> REPLICA sync: Discarding temporary DB in background");
        }
        if (tempOut != null) {
            try {
                tempOut.close();
                Files.deleteIfExists(tempFile);
            } catch (IOException e) {
                log.warn("Removing the temporary sync file: {}", e.toString());
            }
            tempOut = null;
        }
    }

    void cron(long nowMs, long timeoutMs) {
        switch (state) {
            case CONNECT -> {
                // As Redis's replicationCron, which runs once a second.
                if (nowMs - lastConnectMs >= 1000) {
                    connect();
                }
            }
            case CONNECTING, HANDSHAKE, TRANSFER -> {
                if (nowMs - lastIoMs > timeoutMs) {
                    log.warn(state == State.TRANSFER ? "Timeout receiving bulk data from MASTER... If the problem persists "
                            + "try to set the 'repl-timeout' parameter in redis.conf to a larger value."
                            : "Timeout connecting to the MASTER...");
                    channel.close();
                }
            }
            case CONNECTED -> {
                if (nowMs - lastIoMs > timeoutMs) {
                    log.warn("MASTER timeout: no data nor PING received...");
                    channel.close();
                } else if (nowMs - lastAckMs >= 1000) {
                    sendAck(nowMs);
                }
            }
        }
    }

    private void sendAck(long nowMs) {
        lastAckMs = nowMs;
        channel.writeAndFlush(Replication.ack(replication.offset()));
    }

    private void send(String... words) {
        ByteBuf buf = channel.alloc().buffer();
        byte[][] argv = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            argv[i] = words[i].getBytes(StandardCharsets.UTF_8);
        }
        RespWriter.writeCommand(buf, argv);
        channel.writeAndFlush(buf);
    }

    /** The handshake and the RDB transfer, before the stream; then it hands the bytes on. */
    private final class Handshake extends ChannelInboundHandlerAdapter {
        private final ByteBuf in = Unpooled.buffer();
        private Step step = Step.PONG;
        private ChannelHandlerContext ctx;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            log.info("MASTER <-> REPLICA sync started");
            state = State.HANDSHAKE;
            lastIoMs = System.currentTimeMillis();
            send("PING");
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            in.release();
            linkLost();
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.warn("Error condition on socket for SYNC: {}", cause.getMessage());
            ctx.close();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
            lastIoMs = System.currentTimeMillis();
            if (step == Step.STREAM) {
                ctx.fireChannelRead(msg);
                return;
            }
            ByteBuf bytes = (ByteBuf) msg;
            in.writeBytes(bytes);
            bytes.release();
            while (step != Step.STREAM && advance(ctx)) {
                in.discardReadBytes();
            }
            passOnStream(ctx);
        }

        /** What arrived after the handshake and the RDB is the stream's. */
        private void passOnStream(ChannelHandlerContext ctx) {
            if (step == Step.STREAM && in.isReadable()) {
                ctx.fireChannelRead(in.retainedSlice());
                in.skipBytes(in.readableBytes());
            }
        }

        /** One step of the handshake if its input is there; false when more input is needed or the link closed. */
        private boolean advance(ChannelHandlerContext ctx) throws IOException {
            if (step == Step.BULK) {
                return load != null ? feedLoad() : readBulk(ctx);
            }
            if (step == Step.LOADING) {
                return false;
            }
            String line = readLine();
            if (line == null) {
                return false;
            }
            switch (step) {
                case PONG -> {
                    // As Redis: an error asking for authentication is fine here, AUTH follows.
                    if (line.startsWith("-") && !line.startsWith("-NOAUTH") && !line.startsWith("-NOPERM")
                            && !line.startsWith("-ERR operation not permitted")) {
                        return fail(ctx, "Error reply to PING from master: '" + line + "'");
                    }
                    log.info("Master replied to PING, replication can continue...");
                    String auth = config.get("masterauth");
                    if (auth.isEmpty()) {
                        sendReplconf();
                    } else {
                        String user = config.get("masteruser");
                        if (user.isEmpty()) {
                            send("AUTH", auth);
                        } else {
                            send("AUTH", user, auth);
                        }
                        step = Step.AUTH;
                    }
                }
                case AUTH -> {
                    if (line.startsWith("-")) {
                        return fail(ctx, "Unable to AUTH to MASTER: " + line);
                    }
                    sendReplconf();
                }
                case IP, PORT -> {
                    if (line.startsWith("-")) {
                        log.info("(Non critical) Master does not understand REPLCONF listening-port: {}", line);
                    }
                    step = step == Step.IP ? Step.PORT : Step.CAPA;
                }
                case CAPA -> {
                    if (line.startsWith("-")) {
                        log.info("(Non critical) Master does not understand REPLCONF capa: {}", line);
                    }
                    String[] psync = replication.psyncArguments();
                    if (psync[0].equals("?")) {
                        log.info("Partial resynchronization not possible (no cached master)");
                    } else {
                        log.info("Trying a partial resynchronization (request {}:{}).", psync[0], psync[1]);
                    }
                    if (replication.failingOver()) {
                        send("PSYNC", psync[0], psync[1], "FAILOVER");
                    } else {
                        send("PSYNC", psync[0], psync[1]);
                    }
                    step = Step.PSYNC;
                }
                case PSYNC -> {
                    return psyncReplied(ctx, line);
                }
                case BULK_HEADER -> {
                    return bulkHeader(ctx, line);
                }
                default -> throw new IllegalStateException(step.name());
            }
            return true;
        }

        /** As Redis: replica-announce-port and replica-announce-ip, when set, stand for this server's own. */
        private void sendReplconf() {
            int announcedPort = Integer.parseInt(config.get("replica-announce-port"));
            send("REPLCONF", "listening-port", Integer.toString(announcedPort != 0 ? announcedPort : network.listeningPort()));
            String announcedIp = config.get("replica-announce-ip");
            if (!announcedIp.isEmpty()) {
                send("REPLCONF", "ip-address", announcedIp);
                step = Step.IP;
            } else {
                step = Step.PORT;
            }
            send("REPLCONF", "capa", "eof", "capa", "psync2");
        }

        private boolean psyncReplied(ChannelHandlerContext ctx, String line) throws IOException {
            if (line.isEmpty()) {
                return true;
            }
            if (line.startsWith("+FULLRESYNC")) {
                String[] words = line.split(" ");
                if (words.length < 3) {
                    return fail(ctx, "Master replied with wrong +FULLRESYNC syntax.");
                }
                syncReplid = words[1];
                syncOffset = Long.parseLong(words[2]);
                log.info("Full resync from master: {}:{}", syncReplid, syncOffset);
                replication.failoverPsyncAnswered(true);
                step = Step.BULK_HEADER;
                return true;
            }
            if (line.startsWith("+CONTINUE")) {
                String[] words = line.split(" ");
                String newReplid = words.length > 1 ? words[1] : null;
                log.info("Successful partial resynchronization with master.");
                replication.failoverPsyncAnswered(true);
                replication.continued(newReplid);
                startStream(ctx);
                log.info("MASTER <-> REPLICA sync: Master accepted a Partial Resynchronization.");
                return true;
            }
            replication.failoverPsyncAnswered(false);
            if (line.startsWith("-NOMASTERLINK") || line.startsWith("-LOADING")) {
                log.info("Master is currently unable to PSYNC but should be in the future: {}", line);
            } else {
                log.warn("Unexpected reply to PSYNC from master: {}", line);
            }
            ctx.close();
            return false;
        }

        private boolean bulkHeader(ChannelHandlerContext ctx, String line) throws IOException {
            if (line.isEmpty()) {
                // The primary's keepalive while it prepares the snapshot.
                return true;
            }
            if (line.startsWith("-")) {
                return fail(ctx, "MASTER aborted replication with an error: " + line.substring(1));
            }
            if (!line.startsWith("$")) {
                return fail(ctx, "Bad protocol from MASTER, the first byte is not '$' (we received '" + line + "'), "
                        + "are you sure the host and port are right?");
            }
            String loadMode = config.get(Config.REPL_DISKLESS_LOAD);
            boolean toParser = loadMode.equals("swapdb") || loadMode.equals("on-empty-db") && network.datasetEmpty();
            String target = toParser ? "to parser" : "to disk";
            if (line.startsWith("$EOF:")) {
                eofMark = line.substring(5).getBytes(StandardCharsets.US_ASCII);
                bulkSize = -1;
                log.info("MASTER <-> REPLICA sync: receiving streamed RDB from master with EOF {}", target);
            } else {
                eofMark = null;
                bulkSize = Long.parseLong(line.substring(1));
                log.info("MASTER <-> REPLICA sync: receiving {} bytes from master {}", bulkSize, target);
            }
            bulkRead = 0;
            state = State.TRANSFER;
            step = Step.BULK;
            if (toParser) {
                startLoad(loadMode);
                return true;
            }
            tempFile = config.dir().resolve("temp-" + System.currentTimeMillis() / 1000 + "."
                    + ProcessHandle.current().pid() + ".rdb");
            tempOut = FileChannel.open(tempFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            return true;
        }

        /**
         * Redis's diskless load: with swapdb the old data stays, and is served, until the new is
         * loaded; on-empty-db gets here only with nothing to keep.
         */
        private void startLoad(String loadMode) {
            if (!loadMode.equals("swapdb")) {
                log.info("MASTER <-> REPLICA sync: Flushing old data");
            }
            log.info("MASTER <-> REPLICA sync: Loading DB in memory");
            // As Redis 7.0: only a swapdb load of the same history keeps serving (async loading).
            asyncLoad = loadMode.equals("swapdb") && syncReplid.equals(replication.replid());
            load = network.streamedLoad(bulkSize, eofMark, () -> channel.config().setAutoRead(true),
                    new StreamedLoad.Listener() {
                        @Override
                        public void loaded(RdbLoader.Result result) {
                            loadEnded(result);
                        }

                        @Override
                        public void failed(String reason) {
                            log.warn("{}", reason);
                            log.warn("Failed trying to load the MASTER synchronization DB from socket, check server logs.");
                            channel.close();
                        }
                    });
        }

        /** The RDB's bytes, as they arrive, to the diskless load; a length-prefixed one only up to its length. */
        private boolean feedLoad() {
            long take = eofMark == null ? Math.min(in.readableBytes(), bulkSize - bulkRead) : in.readableBytes();
            if (take > 0) {
                bulkRead += take;
                if (load.feed(in.readBytes((int) take))) {
                    channel.config().setAutoRead(false);
                }
            }
            if (eofMark == null && bulkRead == bulkSize) {
                load.endOfInput();
                step = Step.LOADING;
            }
            return false;
        }

        private void loadEnded(RdbLoader.Result result) {
            StreamedLoad loaded = load;
            load = null;
            channel.config().setAutoRead(true);
            if (config.get(Config.REPL_DISKLESS_LOAD).equals("swapdb")) {
                log.info("MASTER <-> REPLICA sync: Swapping active DB with loaded DB");
            }
            try {
                network.replaceDataset(loaded, result);
            } catch (RuntimeException e) {
                log.warn("Failed trying to load the MASTER synchronization DB from socket, check server logs: {}",
                        e.getMessage());
                channel.close();
                return;
            }
            synced(ctx);
            passOnStream(ctx);
        }

        private boolean readBulk(ChannelHandlerContext ctx) throws IOException {
            boolean done;
            int take;
            if (eofMark == null) {
                take = (int) Math.min(in.readableBytes(), bulkSize - bulkRead);
                done = bulkRead + take == bulkSize;
            } else {
                int readable = in.readableBytes();
                done = readable >= EOF_MARK_LENGTH
                        && ByteBufUtil.equals(in, in.writerIndex() - EOF_MARK_LENGTH, Unpooled.wrappedBuffer(eofMark), 0,
                        EOF_MARK_LENGTH);
                take = Math.max(0, readable - EOF_MARK_LENGTH);
            }
            while (take > 0) {
                int written = in.readBytes(tempOut, tempOut.position(), take);
                tempOut.position(tempOut.position() + written);
                bulkRead += written;
                take -= written;
            }
            if (!done) {
                return false;
            }
            if (eofMark != null) {
                in.skipBytes(EOF_MARK_LENGTH);
            }
            tempOut.force(true);
            tempOut.close();
            tempOut = null;
            Path target = config.dir().resolve(config.get(Config.DBFILENAME));
            Files.move(tempFile, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            log.info("MASTER <-> REPLICA sync: Flushing old data");
            log.info("MASTER <-> REPLICA sync: Loading DB in memory");
            try {
                network.replaceDataset();
            } catch (IOException | RuntimeException e) {
                log.warn("Failed trying to load the MASTER synchronization DB from disk: {}", e.getMessage());
                ctx.close();
                return false;
            }
            synced(ctx);
            return true;
        }

        /** The primary's dataset is loaded: its history is this server's, and its stream follows. */
        private void synced(ChannelHandlerContext ctx) {
            replication.fullySynced(syncReplid, syncOffset);
            log.info("MASTER <-> REPLICA sync: Finished with success");
            startStream(ctx);
            sendAck(System.currentTimeMillis());
        }

        private void startStream(ChannelHandlerContext ctx) {
            step = Step.STREAM;
            state = State.CONNECTED;
            network.streaming(true);
            RespDecoder decoder = new RespDecoder(() -> Integer.MAX_VALUE);
            ctx.pipeline().addLast(decoder, new Stream());
        }

        private boolean fail(ChannelHandlerContext ctx, String message) {
            log.warn(message);
            ctx.close();
            return false;
        }

        /** A line ending in LF (its CR, if any, dropped), or null until one is complete. */
        private String readLine() {
            int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
            if (lf < 0) {
                return null;
            }
            int end = lf > in.readerIndex() && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
            String line = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
            in.readerIndex(lf + 1);
            return line;
        }
    }

    /** The primary's commands: each run, then passed on; REPLCONF GETACK answered with this offset. */
    private final class Stream extends ChannelInboundHandlerAdapter {
        /** The commands of this read that ran, passed on together when the read ends (or before an ACK). */
        private final ByteBuf applied = Unpooled.buffer(4096);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof byte[][] argv)) {
                return;
            }
            if (argv.length == 3 && equalsIgnoreCase(argv[0], "replconf") && equalsIgnoreCase(argv[1], "getack")) {
                // As Redis: the offset before this command, which counts once it ran.
                passOn();
                sendAck(System.currentTimeMillis());
            } else if (argv.length > 0) {
                network.run(argv);
            }
            RespWriter.writeCommand(applied, argv);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            passOn();
            ctx.fireChannelReadComplete();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            applied.release();
        }

        /** The offset moves on by the commands run, and this server's replicas get them. */
        private void passOn() {
            if (applied.isReadable()) {
                replication.proxy(applied);
                applied.clear();
            }
        }
    }

    private static boolean equalsIgnoreCase(byte[] bytes, String word) {
        return new String(bytes, StandardCharsets.US_ASCII).equalsIgnoreCase(word);
    }
}
