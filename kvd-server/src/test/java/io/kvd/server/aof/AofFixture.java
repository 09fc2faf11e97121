package io.kvd.server.aof;

import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.command.LoopbackConnection;
import io.kvd.server.config.Config;
import io.kvd.server.scripting.LuaEngines;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A server without sockets for AOF tests: run commands, replay files, read keys. */
final class AofFixture {
    static final long START_MS = 1_700_000_000_000L;

    final Databases databases = new Databases(16, 42);
    final Keyspace keyspace = databases.get(0);
    final CommandTable commands = new CommandTable();
    final ServerState server = new ServerState(databases, Config.defaults(),
            state -> new LuaEngines(state, commands::lookup), () -> { }, CommandTable.names());
    final Client client;

    AofFixture() {
        keyspace.setTime(START_MS);
        client = new Client(server, UnpooledByteBufAllocator.DEFAULT, new LoopbackConnection());
    }

    /** Runs one command and returns its reply bytes as text. */
    String call(String... argv) {
        byte[][] args = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            args[i] = argv[i].getBytes(StandardCharsets.UTF_8);
        }
        commands.call(client, args);
        ByteBuf out = client.reply().take();
        try {
            return out == null ? "" : out.toString(StandardCharsets.UTF_8);
        } finally {
            if (out != null) {
                out.release();
            }
        }
    }

    AofLoader.Result load(Path file) throws IOException, AofFormatException {
        return AofLoader.load(file, false, server, commands);
    }

    String get(String key) {
        byte[] value = keyspace.get(key.getBytes(StandardCharsets.UTF_8));
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    long deadline(String key) {
        return keyspace.deadline(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Records as RESP text, one per argument list. */
    static String records(String[]... records) {
        StringBuilder out = new StringBuilder();
        for (String[] argv : records) {
            out.append('*').append(argv.length).append("\r\n");
            for (String arg : argv) {
                out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                        .append(arg).append("\r\n");
            }
        }
        return out.toString();
    }

    static String[] cmd(String... argv) {
        return argv;
    }

    static Path write(Path file, byte[] bytes) {
        try {
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
