package io.kvd.server;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.SocketlessConnection;
import io.kvd.server.command.CommandTable;
import io.kvd.server.replication.MasterLink;
import io.netty.bootstrap.Bootstrap;
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
 * commands with their replies dropped and the checks a primary's stream passes (read-only,
 * memory, disk errors). It lives as long as the server: its database survives a reconnection,
 * as the stream after a partial resync expects.
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
        master.reply().mute(true);
    }

    @Override
    public Bootstrap bootstrap() {
        return new Bootstrap().group(loop).channel(transport.socketChannel());
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
        if (command == null) {
            log.warn("Unknown command '{}' from the master, ignored", new String(argv[0], StandardCharsets.UTF_8));
            return;
        }
        state.databases().obeyPrimary(true);
        try {
            Dispatcher.call(master, command, argv);
        } finally {
            state.databases().obeyPrimary(false);
        }
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
