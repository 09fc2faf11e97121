package io.kvd.server.command;

import io.kvd.server.config.Config;
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
final class CommandFixture {
    static final long START_MS = 1_700_000_000_000L;

    final Databases databases = new Databases(16, 42);
    /** Database 0, where the fixture's client starts. */
    final Keyspace keyspace = databases.get(0);
    final Config config;
    final ServerState server;
    final CommandTable commands = new CommandTable();
    final Client client;
    boolean shutdownRequested;
    private final List<LoopbackConnection> connections = new ArrayList<>();

    CommandFixture() {
        this(Config.defaults());
    }

    /** A server with this configuration, e.g. a cluster node's. */
    CommandFixture(Config config) {
        this.config = config;
        this.server = new ServerState(databases, config, () -> shutdownRequested = true);
        keyspace.setTime(START_MS);
        client = newClient();
    }

    /** A command as the AOF records it: RESP, an array of bulk strings. */
    static String record(String... argv) {
        return array(argv);
    }

    /** An array of bulk strings, as RESP. */
    static String array(String... elements) {
        StringBuilder out = new StringBuilder("*").append(elements.length).append("\r\n");
        for (String element : elements) {
            out.append(bulk(element));
        }
        return out.toString();
    }

    /** A bulk string of {@code value}'s UTF-8 bytes, as RESP. */
    static String bulk(String value) {
        return "$" + value.getBytes(StandardCharsets.UTF_8).length + "\r\n" + value + "\r\n";
    }

    static String integer(long value) {
        return ":" + value + "\r\n";
    }

    /** Runs one command as {@code client} and returns its reply bytes. */
    String call(String... argv) {
        return callAs(client, argv);
    }

    String callAs(Client who, String... argv) {
        return new String(callAsRaw(who, argv), StandardCharsets.UTF_8);
    }

    /** The reply bytes exactly, for replies that need not be UTF-8. */
    byte[] callRaw(String... argv) {
        return callAsRaw(client, argv);
    }

    private byte[] callAsRaw(Client who, String... argv) {
        commands.call(who, argv(argv));
        return takeReply(who);
    }

    /** A command's arguments as the decoder hands them over: each word's UTF-8 bytes. */
    static byte[][] argv(String... words) {
        byte[][] argv = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            argv[i] = Args.bytes(words[i]);
        }
        return argv;
    }

    /** What {@code who} was sent since its last command's reply was taken (a blocked client's reply), as text. */
    String pending(Client who) {
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
    String pendingOutput(Client who) {
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
    String logged() {
        ByteBuf records = server.commandLog().records();
        try {
            return records.toString(StandardCharsets.UTF_8);
        } finally {
            records.clear();
        }
    }

    /** Moves the fixed clock, as the server does once per batch of commands. */
    void setTime(long nowMs) {
        keyspace.setTime(nowMs);
    }

    /** True once any client's connection was closed (CLIENT KILL). */
    boolean connectionClosed() {
        return connections.stream().anyMatch(LoopbackConnection::isClosed);
    }

    /** Another connected client, registered with the server like a real connection. */
    Client newClient() {
        LoopbackConnection connection = new LoopbackConnection();
        connections.add(connection);
        Client c = new Client(server, UnpooledByteBufAllocator.DEFAULT, connection);
        server.clients().put(c.id(), c);
        return c;
    }
}
