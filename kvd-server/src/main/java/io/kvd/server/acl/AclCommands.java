package io.kvd.server.acl;

import io.kvd.codec.RespReply;
import io.kvd.server.keyspec.CommandDocs;
import io.kvd.server.keyspec.CommandKeys;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The commands ACL rules name, each with the id of its bit in a selector (Redis's cmd->id), its
 * ACL categories and key specs as COMMAND INFO publishes them ({@link CommandDocs}), in table
 * order with each container's subcommands right after it, the order rules are described in.
 */
final class AclCommands {
    /** One command or subcommand ({@code config|get}). */
    record Entry(int id, String fullName, Entry parent, long categories, boolean noAuth, List<Entry> subcommands,
                 CommandKeys keys) {
        boolean has(long category) {
            return (categories & category) != 0;
        }
    }

    private final List<Entry> topLevel = new ArrayList<>();
    private final List<Entry> all = new ArrayList<>();
    private final Map<String, Entry> byName = new HashMap<>();
    private final Map<Long, BitSet> byCategory = new HashMap<>();

    /** @param names the top-level commands, lower case, in table order */
    AclCommands(List<String> names) {
        for (String name : names) {
            topLevel.add(entry(name, null));
        }
    }

    private Entry entry(String name, Entry parent) {
        List<Entry> subcommands = new ArrayList<>();
        List<RespReply> info = CommandDocs.elements(CommandDocs.info(name));
        boolean noAuth = CommandDocs.elements(info.get(2)).stream()
                .anyMatch(flag -> ((RespReply.SimpleString) flag).value().equals("no_auth"));
        Entry entry = new Entry(all.size(), name, parent, AclCategory.flags(CommandDocs.aclCategories(name)), noAuth,
                subcommands, CommandDocs.keys(name));
        all.add(entry);
        byName.put(name, entry);
        for (String sub : CommandDocs.subcommands(name)) {
            subcommands.add(entry(sub, entry));
        }
        return entry;
    }

    /** How many ids there are; the id after the last is the reserved "future commands" bit. */
    int count() {
        return all.size();
    }

    List<Entry> topLevel() {
        return topLevel;
    }

    /** Every command and subcommand, each container followed by its subcommands. */
    List<Entry> all() {
        return all;
    }

    /**
     * The ids of the commands and subcommands in a category (one flag), made on first use: describing
     * a selector counts its bits in every category many times over. Not to be changed.
     */
    BitSet idsIn(long category) {
        return byCategory.computeIfAbsent(category, flag -> {
            BitSet ids = new BitSet(all.size());
            all.stream().filter(e -> e.has(flag)).forEach(e -> ids.set(e.id()));
            return ids;
        });
    }

    /** The command or subcommand by full name in any case ({@code CONFIG|GET}), or null (Redis's ACLLookupCommand). */
    Entry lookup(String fullName) {
        return byName.get(fullName.toLowerCase(Locale.ROOT));
    }
}
