package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import io.kvd.server.scripting.LuaEngines;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs commands against a fresh keyspace with no sockets: {@code call("SET", "k", "v")} returns
 * the exact reply bytes as a string, e.g. {@code "+OK\r\n"}. The clock is fixed (see {@link #setTime}).
 */
public final class CommandFixture {
    public static final long START_MS = 1_700_000_000_000L;

    public final Databases databases = new Databases(16, 42);
    /** Database 0, where the fixture's client starts. */
    public final Keyspace keyspace = databases.get(0);
    public final Config config;
    public final ServerState server;
    public final CommandTable commands = new CommandTable();
    public final Client client;
    public boolean shutdownRequested;
    private final List<LoopbackConnection> connections = new ArrayList<>();

    public CommandFixture() {
        this(Config.defaults());
    }

    /** A server with this configuration, e.g. a cluster node's. */
    public CommandFixture(Config config) {
        this.config = config;
        this.server = new ServerState(databases, config, state -> new LuaEngines(state, commands::lookup),
                () -> shutdownRequested = true, CommandTable.names());
        keyspace.setTime(START_MS);
        client = newClient();
    }

    /** A command as the AOF records it: RESP, an array of bulk strings. */
    public static String record(String... argv) {
        return array(argv);
    }

    /** An array of bulk strings, as RESP. */
    public static String array(String... elements) {
        StringBuilder out = new StringBuilder("*").append(elements.length).append("\r\n");
        for (String element : elements) {
            out.append(bulk(element));
        }
        return out.toString();
    }

    /** A bulk string of {@code value}'s UTF-8 bytes, as RESP. */
    public static String bulk(String value) {
        return "$" + value.getBytes(StandardCharsets.UTF_8).length + "\r\n" + value + "\r\n";
    }

    public static String integer(long value) {
        return ":" + value + "\r\n";
    }

    /** Runs one command as {@code client} and returns its reply bytes. */
    public String call(String... argv) {
        return callAs(client, argv);
    }

    public String callAs(Client who, String... argv) {
        return new String(callAsRaw(who, argv), StandardCharsets.UTF_8);
    }

    /** The reply bytes exactly, for replies that need not be UTF-8. */
    public byte[] callRaw(String... argv) {
        return callAsRaw(client, argv);
    }

    private byte[] callAsRaw(Client who, String... argv) {
        commands.call(who, argv(argv));
        return takeReply(who);
    }

    /** A command's arguments as the decoder hands them over: each word's UTF-8 bytes. */
    public static byte[][] argv(String... words) {
        byte[][] argv = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            argv[i] = Args.bytes(words[i]);
        }
        return argv;
    }

    /** What {@code who} was sent since its last command's reply was taken (a blocked client's reply), as text. */
    public String pending(Client who) {
        return new String(takeReply(who), StandardCharsets.UTF_8);
    }

    private static byte[] takeReply(Client who) {
        ByteBuf out = who.reply().take();
        if (out == null) {
            return new byte[0];
        }
        try {
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    /** What was written to {@code who} since its last command (published messages), as text; takes it. */
    public String pendingOutput(Client who) {
        ByteBuf out = who.reply().take();
        if (out == null) {
            return "";
        }
        try {
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }

    /** The AOF records logged since the last call (the log must be enabled), as RESP text; clears them. */
    public String logged() {
        ByteBuf records = server.commandLog().records();
        try {
            return records.toString(StandardCharsets.UTF_8);
        } finally {
            server.commandLog().recordsTaken();
        }
    }

    /** Moves the fixed clock, as the server does once per batch of commands. */
    public void setTime(long nowMs) {
        keyspace.setTime(nowMs);
    }

    /** True once any client's connection was closed (CLIENT KILL). */
    public boolean connectionClosed() {
        return connections.stream().anyMatch(LoopbackConnection::isClosed);
    }

    /** Another connected client, registered with the server like a real connection. */
    public Client newClient() {
        LoopbackConnection connection = new LoopbackConnection();
        connections.add(connection);
        Client c = new Client(server, UnpooledByteBufAllocator.DEFAULT, connection);
        server.clients().put(c.id(), c);
        return c;
    }
}
