package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** rename-command, applied line by line as Redis's config loading applies it. */
class CommandTableRenameTest {
    private static Config.CommandRename rename(String name, String newName) {
        return new Config.CommandRename(name, newName, "kvd.conf:1");
    }

    @Test
    void aRenamedCommandAnswersToItsNewNameOnlyAndAnEmptyNameRemovesIt() {
        CommandTable table = new CommandTable(List.of(rename("CONFIG", "MyConfig"), rename("flushall", "")));
        assertThat(table.lookup(Args.bytes("config"))).isNull();
        assertThat(table.lookup(Args.bytes("MYCONFIG")).name()).isEqualTo("config");
        assertThat(table.lookup(Args.bytes("flushall"))).isNull();
        assertThat(table.lookup(Args.bytes("get")).name()).isEqualTo("get");
    }

    @Test
    void renamesApplyInOrderAndBadOnesStopTheStartWithRedisText() {
        CommandTable table = new CommandTable(List.of(rename("get", "fetch"), rename("fetch", "read")));
        assertThat(table.lookup(Args.bytes("read")).name()).isEqualTo("get");
        assertThat(table.lookup(Args.bytes("fetch"))).isNull();
        assertThatThrownBy(() -> new CommandTable(List.of(rename("nosuch", "x"))))
                .hasMessage("kvd.conf:1: No such command in rename-command");
        assertThatThrownBy(() -> new CommandTable(List.of(rename("get", "set"))))
                .hasMessage("kvd.conf:1: Target command name already exists");
        assertThatThrownBy(() -> new CommandTable(List.of(rename("get", ""), rename("get", "x"))))
                .hasMessage("kvd.conf:1: No such command in rename-command");
    }
}
