package io.kvd.server.keyspec;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.server.protocol.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis 7.0.15's own COMMAND INFO and COMMAND DOCS replies for every command kvd implements and
 * each of their subcommands, captured from redis-server by
 * {@code kvd-server/src/test/scripts/capture_command_docs.py} into command-info.resp and
 * command-docs.resp, so kvd describes its commands byte for byte as Redis does; and the same
 * asked in RESP3 (sets and maps where RESP2 has arrays), sent to RESP3 clients and read the
 * first time one asks.
 */
public final class CommandDocs {
    private static final Map<String, RespReply> INFO = new HashMap<>();
    private static final Map<String, RespReply> DOCS = new HashMap<>();
    private static final Map<String, CommandKeys> KEYS = new HashMap<>();

    static {
        for (RespReply info : load("command-info.resp")) {
            indexInfo(info);
        }
        List<RespReply> docs = load("command-docs.resp");
        for (int i = 0; i < docs.size(); i += 2) {
            indexDocs(bulkText(docs.get(i)), docs.get(i + 1));
        }
    }

    private CommandDocs() {
    }

    /** The RESP3 captures, by the same names. */
    private static final class Resp3 {
        static final Map<String, RespReply> INFO = new HashMap<>();
        static final Map<String, RespReply> DOCS = new HashMap<>();

        static {
            for (RespReply info : load("command-info-resp3.resp")) {
                index(INFO, info);
            }
            List<RespReply> docs = load("command-docs-resp3.resp");
            for (int i = 0; i < docs.size(); i += 2) {
                index(DOCS, bulkText(docs.get(i)), docs.get(i + 1));
            }
        }

        private static void index(Map<String, RespReply> infos, RespReply info) {
            List<RespReply> fields = elements(info);
            infos.put(bulkText(fields.get(0)), info);
            elements(fields.get(9)).forEach(sub -> index(infos, sub));
        }

        private static void index(Map<String, RespReply> docs, String name, RespReply doc) {
            docs.put(name, doc);
            List<RespReply> fields = elements(doc);
            for (int i = 0; i < fields.size(); i += 2) {
                if (bulkText(fields.get(i)).equals("subcommands")) {
                    List<RespReply> subcommands = elements(fields.get(i + 1));
                    for (int j = 0; j < subcommands.size(); j += 2) {
                        index(docs, bulkText(subcommands.get(j)), subcommands.get(j + 1));
                    }
                }
            }
        }
    }

    /** COMMAND INFO's entry for a command or subcommand ({@code client|setname}), or null. */
    public static RespReply info(String name) {
        return INFO.get(name);
    }

    /** COMMAND DOCS's map for a command or subcommand, or null. */
    public static RespReply docs(String name) {
        return DOCS.get(name);
    }

    /** Where a command's or subcommand's keys are, by its key specs and getkeys function (COMMAND GETKEYS). */
    public static CommandKeys keys(String name) {
        return KEYS.get(name);
    }

    /** The full names of a command's subcommands, in Redis's order (COMMAND INFO's tenth element). */
    public static List<String> subcommands(String name) {
        return elements(elements(INFO.get(name)).get(9)).stream().map(s -> bulkText(elements(s).get(0))).toList();
    }

    /** A command's ACL categories without the '@' (COMMAND INFO's seventh element). */
    public static List<String> aclCategories(String name) {
        return elements(elements(INFO.get(name)).get(6)).stream()
                .map(c -> ((RespReply.SimpleString) c).value().substring(1)).toList();
    }

    /** Writes COMMAND INFO's entry for a command or subcommand known to {@link #info}, in the reply's protocol. */
    public static void writeInfo(Reply reply, String name) {
        write(reply, reply.protocol() == 3 ? Resp3.INFO.get(name) : INFO.get(name));
    }

    /** Writes COMMAND DOCS's map for a command or subcommand known to {@link #docs}, in the reply's protocol. */
    public static void writeDocs(Reply reply, String name) {
        write(reply, reply.protocol() == 3 ? Resp3.DOCS.get(name) : DOCS.get(name));
    }

    /** Writes a captured reply back out exactly as Redis sent it. */
    private static void write(Reply reply, RespReply value) {
        if (value instanceof RespReply.Array a) {
            reply.arrayHeader(a.elements().size());
            a.elements().forEach(e -> write(reply, e));
        } else if (value instanceof RespReply.Map m) {
            reply.mapHeader(m.elements().size() / 2);
            m.elements().forEach(e -> write(reply, e));
        } else if (value instanceof RespReply.Set set) {
            reply.setHeader(set.elements().size());
            set.elements().forEach(e -> write(reply, e));
        } else if (value instanceof RespReply.BulkString b) {
            reply.bulk(b.value());
        } else if (value instanceof RespReply.SimpleString s) {
            reply.simpleString(s.value());
        } else if (value instanceof RespReply.Integer n) {
            reply.integer(n.value());
        } else {
            reply.error(((RespReply.Error) value).message());
        }
    }

    /** The elements of a captured array, set or map (keys and values alternating). */
    public static List<RespReply> elements(RespReply aggregate) {
        if (aggregate instanceof RespReply.Map map) {
            return map.elements();
        }
        if (aggregate instanceof RespReply.Set set) {
            return set.elements();
        }
        return ((RespReply.Array) aggregate).elements();
    }

    static String bulkText(RespReply bulk) {
        return ((RespReply.BulkString) bulk).utf8();
    }

    private static void indexInfo(RespReply info) {
        List<RespReply> fields = elements(info);
        String name = bulkText(fields.get(0));
        INFO.put(name, info);
        KEYS.put(name, CommandKeys.of(info));
        elements(fields.get(9)).forEach(CommandDocs::indexInfo);
    }

    private static void indexDocs(String name, RespReply docs) {
        DOCS.put(name, docs);
        List<RespReply> fields = elements(docs);
        for (int i = 0; i < fields.size(); i += 2) {
            if (bulkText(fields.get(i)).equals("subcommands")) {
                List<RespReply> subcommands = elements(fields.get(i + 1));
                for (int j = 0; j < subcommands.size(); j += 2) {
                    indexDocs(bulkText(subcommands.get(j)), subcommands.get(j + 1));
                }
            }
        }
    }

    private static List<RespReply> load(String resource) {
        try (InputStream in = CommandDocs.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            ByteBuf bytes = Unpooled.wrappedBuffer(in.readAllBytes());
            try {
                return elements(RespReplyParser.parse(bytes));
            } finally {
                bytes.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
