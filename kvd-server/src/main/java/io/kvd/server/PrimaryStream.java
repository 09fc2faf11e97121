package io.kvd.server;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.SocketlessConnection;
import io.kvd.server.command.CommandTable;
import io.kvd.server.config.Config;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.rdb.StreamedLoad;
import io.kvd.server.store.Databases;
import io.kvd.server.replication.MasterLink;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * What a replica's {@link MasterLink} needs of this server: a socket on its loop and transport,
 * the full sync's load, and the master client (Redis's server.master), which runs the primary's
 * commands with their replies dropped (an error logged, as Redis does) and the checks a primary's
 * stream passes (read-only, memory, disk errors). It lives as long as the server: its database
 * survives a reconnection, as the stream after a partial resync expects.
 */
final class PrimaryStream implements MasterLink.Network {
    private static final Logger log = LoggerFactory.getLogger(PrimaryStream.class);

    private final ServerState state;
    private final CommandTable commands;
    private final EventLoop loop;
    private final Transport transport;
    private final IntSupplier port;
    private final Client master;

    PrimaryStream(ServerState state, CommandTable commands, EventLoop loop, Transport transport, IntSupplier port) {
        this.state = state;
        this.commands = commands;
        this.loop = loop;
        this.transport = transport;
        this.port = port;
        this.master = new Client(state, UnpooledByteBufAllocator.DEFAULT, new Stream());
        master.becomeMaster();
    }

    @Override
    public Bootstrap bootstrap() {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(transport.socketChannel());
        String source = state.config().get(Config.BIND_SOURCE_ADDR);
        return source.isEmpty() ? bootstrap : bootstrap.localAddress(source, 0);
    }

    @Override
    public int listeningPort() {
        return port.getAsInt();
    }

    /** Redis's readSyncBulkPayload: a BGSAVE of ours abandoned, the data and libraries emptied, the file loaded. */
    @Override
    public void replaceDataset() throws IOException {
        state.rdb().close();
        state.databases().clear();
        state.scripting().flushFunctions();
        state.loadRdb(true);
    }

    @Override
    public boolean datasetEmpty() {
        return state.databases().size() == 0;
    }

    /** Fresh databases like the server's, filled off to the side while the server's serve on. */
    @Override
    public StreamedLoad streamedLoad(long size, byte[] mark, Runnable resumeReading, StreamedLoad.Listener listener) {
        Databases live = state.databases();
        Databases fresh = new Databases(live.count(), System.nanoTime(), live.limits());
        return new StreamedLoad(fresh, live.access(), Integer.parseInt(state.config().get(Config.KEY_LOAD_DELAY)), size,
                mark, loop, resumeReading, listener);
    }

    /**
     * The data and libraries of a diskless load replace the server's (Redis's swapdb ends so too):
     * a BGSAVE of ours abandoned, the libraries loaded, then every database's contents taken.
     */
    @Override
    public void replaceDataset(StreamedLoad loaded, RdbLoader.Result result) {
        state.rdb().close();
        state.scripting().flushFunctions();
        for (byte[] code : loaded.libraries()) {
            try {
                state.scripting().loadFunctionLibrary(code, false);
            } catch (CommandError e) {
                throw new RdbFormatException("Failed loading library: " + e.getMessage());
            }
        }
        state.databases().replaceWith(loaded.databases());
        state.rdb().loaded(result);
    }

    @Override
    public int streamDb() {
        return master.db();
    }

    @Override
    public void selectStreamDb(int db) {
        master.select(db);
    }

    @Override
    public void run(byte[][] argv) {
        Command command = commands.lookup(argv[0]);
        state.databases().obeyPrimary(true);
        try {
            if (command == null) {
                Dispatcher.refuseUnknown(master, argv);
            } else {
                Dispatcher.call(master, command, argv);
            }
        } finally {
            state.databases().obeyPrimary(false);
        }
        ByteBuf replies = master.reply().take();
        if (replies != null) {
            String error = errorOf(replies);
            replies.release();
            if (error != null) {
                // Redis's afterErrorReply: the replica and its primary have diverged; say so loudly.
                log.warn("== CRITICAL == This replica is sending an error to its master: '{}' after processing the "
                        + "command '{}'", error, command == null ? "<unknown>" : command.name());
            }
        }
    }

    /** The error {@code reply} is (its line without the '-'), or null if it is no error. */
    private static String errorOf(ByteBuf reply) {
        int start = reply.readerIndex();
        if (!reply.isReadable() || reply.getByte(start) != '-') {
            return null;
        }
        int eol = reply.indexOf(start, reply.writerIndex(), (byte) '\r');
        return reply.toString(start + 1, (eol < 0 ? reply.writerIndex() : eol) - start - 1, StandardCharsets.UTF_8);
    }

    @Override
    public void followPrimary(boolean following) {
        state.databases().expireByPrimary(following);
    }

    @Override
    public void streaming(boolean flowing) {
        if (flowing) {
            state.clients().put(master.id(), master);
        } else {
            state.clients().remove(master.id());
        }
    }

    /** The master client's connection: the stream comes through the link, and replies go nowhere. */
    private final class Stream extends SocketlessConnection {
        @Override
        public String remoteAddress() {
            MasterLink link = state.replication().master();
            return link == null ? "" : link.address();
        }

        /** CLIENT KILL: the link drops, and is made again by the cron. */
        @Override
        public void close() {
            MasterLink link = state.replication().master();
            if (link != null) {
                link.dropLink();
            }
        }
    }
}
