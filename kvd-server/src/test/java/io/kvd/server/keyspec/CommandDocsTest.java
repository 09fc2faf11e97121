package io.kvd.server.keyspec;

import io.kvd.codec.RespReply;
import io.kvd.server.admin.ClientCommand;
import io.kvd.server.admin.ClusterCommand;
import io.kvd.server.admin.ConfigCommand;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.command.CommandCommand;
import io.kvd.server.command.CommandTable;
import io.kvd.server.command.ObjectCommand;
import io.kvd.server.scripting.FunctionCommands;
import io.kvd.server.scripting.ScriptingCommands;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The captured Redis replies must describe kvd's table: regenerate them with
 * kvd-server/src/test/scripts/capture_command_docs.py when a command is added.
 */
class CommandDocsTest {
    /** Flags Redis 7.0 never prints in COMMAND INFO. */
    private static final Set<Command.Flag> UNPRINTED = EnumSet.of(Command.Flag.SENTINEL, Command.Flag.ONLY_SENTINEL,
            Command.Flag.PROTECTED, Command.Flag.MAY_REPLICATE);

    private static long integer(RespReply reply) {
        return ((RespReply.Integer) reply).value();
    }

    @Test
    void everyCommandHasRedisInfoAndDocs() {
        for (Command c : CommandTable.all()) {
            assertThat(CommandDocs.info(c.name())).as(c.name()).isNotNull();
            assertThat(CommandDocs.docs(c.name())).as(c.name()).isNotNull();
        }
    }

    @Test
    void infoAgreesWithTheTableOnArityFlagsAndKeys() {
        for (Command c : CommandTable.all()) {
            List<RespReply> info = CommandDocs.elements(CommandDocs.info(c.name()));
            assertThat(integer(info.get(1))).as(c.name() + " arity").isEqualTo(c.arity());
            assertThat(printedFlags(info.get(2))).as(c.name() + " flags").isEqualTo(tableFlags(c));
            assertThat(List.of(integer(info.get(3)), integer(info.get(4)), integer(info.get(5))))
                    .as(c.name() + " keys").containsExactly((long) c.firstKey(), (long) c.lastKey(), (long) c.step());
        }
    }

    @Test
    void containersDescribeExactlyTheSubcommandsKvdImplementsWithTheirArity() {
        assertSubcommands("client", ClientCommand.SUBCOMMANDS);
        assertSubcommands("config", ConfigCommand.SUBCOMMANDS);
        assertSubcommands("command", CommandCommand.SUBCOMMANDS);
        assertSubcommands("cluster", ClusterCommand.SUBCOMMANDS);
        assertSubcommands("object", ObjectCommand.SUBCOMMANDS);
        assertSubcommands("script", ScriptingCommands.SUBCOMMANDS);
        assertSubcommands("function", FunctionCommands.SUBCOMMANDS);
    }

    private static void assertSubcommands(String container, Subcommands implemented) {
        Set<String> described = new TreeSet<>(CommandDocs.subcommands(container));
        Set<String> expected = new TreeSet<>();
        implemented.all().forEach(sub -> expected.add(sub.name()));
        assertThat(described).as(container).isEqualTo(expected);
        for (Command sub : implemented.all()) {
            assertThat(CommandDocs.docs(sub.name())).as(sub.name()).isNotNull();
            assertThat(integer(CommandDocs.elements(CommandDocs.info(sub.name())).get(1))).as(sub.name() + " arity")
                    .isEqualTo(sub.arity());
        }
    }

    private static Set<String> printedFlags(RespReply flags) {
        Set<String> names = new TreeSet<>();
        CommandDocs.elements(flags).forEach(f -> names.add(((RespReply.SimpleString) f).value()));
        return names;
    }

    private static Set<String> tableFlags(Command c) {
        Set<String> names = new TreeSet<>();
        for (Command.Flag f : c.flags()) {
            if (!UNPRINTED.contains(f)) {
                names.add(f == Command.Flag.MOVABLE_KEYS ? "movablekeys" : f.replyName());
            }
        }
        return names;
    }
}
