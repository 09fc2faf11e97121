package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientCommandTest {
    private static final String REST_OF_LINE = " flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0"
            + " argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=0 oll=0 omem=0 tot-mem=2048 events=r";

    private final CommandFixture kvd = new CommandFixture();

    private static String bulk(String text) {
        return "$" + text.length() + "\r\n" + text + "\r\n";
    }

    private static String line(long id, String name, String cmd, String libName, String libVersion) {
        return "id=" + id + " addr=127.0.0.1:50000 laddr=127.0.0.1:6379 fd=-1 name=" + name + " age=0 idle=0"
                + REST_OF_LINE + " cmd=" + cmd + " user=default redir=-1 resp=2 lib-name=" + libName
                + " lib-ver=" + libVersion + "\n";
    }

    @Test
    void idIsTheConnectionsId() {
        assertThat(kvd.call("CLIENT", "ID")).isEqualTo(":1\r\n");
    }

    @Test
    void getnameIsNullUntilSetname() {
        assertThat(kvd.call("CLIENT", "GETNAME")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("CLIENT", "SETNAME", "app")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "GETNAME")).isEqualTo("$3\r\napp\r\n");
    }

    @Test
    void setnameWithAnEmptyNameRemovesTheName() {
        kvd.call("CLIENT", "SETNAME", "app");
        kvd.call("CLIENT", "SETNAME", "");
        assertThat(kvd.call("CLIENT", "GETNAME")).isEqualTo("$-1\r\n");
    }

    @Test
    void setnameRejectsSpacesAndNewlines() {
        assertThat(kvd.call("CLIENT", "SETNAME", "a\nb"))
                .isEqualTo("-ERR Client names cannot contain spaces, newlines or special characters.\r\n");
    }

    @Test
    void infoDescribesTheCallerWithRedisFieldsInOrder() {
        assertThat(kvd.call("CLIENT", "INFO")).isEqualTo(bulk(line(1, "", "client|info", "", "")));
    }

    @Test
    void listDescribesEveryClientInConnectionOrder() {
        Client other = kvd.newClient();
        kvd.callAs(other, "PING");
        assertThat(kvd.call("CLIENT", "LIST"))
                .isEqualTo(bulk(line(1, "", "client|list", "", "") + line(other.id(), "", "ping", "", "")));
    }

    @Test
    void listShowsNameAndLibraryFromSetnameAndSetinfo() {
        kvd.call("CLIENT", "SETNAME", "app");
        assertThat(kvd.call("CLIENT", "SETINFO", "LIB-NAME", "jedis")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "SETINFO", "lib-ver", "5.2.0")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "LIST")).isEqualTo(bulk(line(1, "app", "client|list", "jedis", "5.2.0")));
    }

    @Test
    void clientThatNeverRanACommandShowsCmdNull() {
        Client other = kvd.newClient();
        assertThat(kvd.call("CLIENT", "LIST", "ID", String.valueOf(other.id())))
                .isEqualTo(bulk(line(other.id(), "", "NULL", "", "")));
    }

    @Test
    void ageAndIdleCountWholeSeconds() {
        Client other = kvd.newClient();
        kvd.setTime(CommandFixture.START_MS + 2_500);
        kvd.callAs(other, "PING");
        kvd.setTime(CommandFixture.START_MS + 4_000);
        assertThat(kvd.call("CLIENT", "LIST", "ID", String.valueOf(other.id())))
                .contains(" age=4 idle=1 ");
    }

    @Test
    void listByTypeNormalListsEveryoneAndOtherTypesNobody() {
        assertThat(kvd.call("CLIENT", "LIST", "TYPE", "normal")).isEqualTo(bulk(line(1, "", "client|list", "", "")));
        assertThat(kvd.call("CLIENT", "LIST", "TYPE", "pubsub")).isEqualTo("$0\r\n\r\n");
        assertThat(kvd.call("CLIENT", "LIST", "TYPE", "replica")).isEqualTo("$0\r\n\r\n");
    }

    @Test
    void listByUnknownTypeIsAnError() {
        assertThat(kvd.call("CLIENT", "LIST", "TYPE", "foo")).isEqualTo("-ERR Unknown client type 'foo'\r\n");
    }

    @Test
    void listByIdsSkipsUnknownIdsAndRejectsNonIntegers() {
        assertThat(kvd.call("CLIENT", "LIST", "ID", "99", "1")).isEqualTo(bulk(line(1, "", "client|list", "", "")));
        assertThat(kvd.call("CLIENT", "LIST", "ID", "x")).isEqualTo("-ERR Invalid client ID\r\n");
    }

    @Test
    void listWithOtherArgumentsIsASyntaxError() {
        assertThat(kvd.call("CLIENT", "LIST", "foo")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("CLIENT", "LIST", "ID")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void killByAddressWithNoSuchClientIsAnError() {
        assertThat(kvd.call("CLIENT", "KILL", "10.0.0.1:1")).isEqualTo("-ERR No such client\r\n");
    }

    @Test
    void killByAddressClosesTheMatchingClientsAndRepliesOk() {
        kvd.newClient();
        assertThat(kvd.call("CLIENT", "KILL", "127.0.0.1:50000")).isEqualTo("+OK\r\n");
        assertThat(kvd.connectionClosed()).isTrue();
        assertThat(kvd.client.isClosingAfterReply()).isTrue();
    }

    @Test
    void killByIdCountsKilledClients() {
        Client other = kvd.newClient();
        assertThat(kvd.call("CLIENT", "KILL", "ID", String.valueOf(other.id()))).isEqualTo(":1\r\n");
        assertThat(kvd.connectionClosed()).isTrue();
        assertThat(kvd.call("CLIENT", "KILL", "ID", "99")).isEqualTo(":0\r\n");
    }

    @Test
    void killWithFiltersSkipsTheCallerUnlessSkipmeNo() {
        assertThat(kvd.call("CLIENT", "KILL", "ADDR", "127.0.0.1:50000")).isEqualTo(":0\r\n");
        assertThat(kvd.client.isClosingAfterReply()).isFalse();
        assertThat(kvd.call("CLIENT", "KILL", "LADDR", "127.0.0.1:6379", "SKIPME", "no")).isEqualTo(":1\r\n");
        assertThat(kvd.client.isClosingAfterReply()).isTrue();
    }

    @Test
    void killFilterErrorsUseRedisTexts() {
        assertThat(kvd.call("CLIENT", "KILL", "ID", "0")).isEqualTo("-ERR client-id should be greater than 0\r\n");
        assertThat(kvd.call("CLIENT", "KILL", "USER", "alice")).isEqualTo("-ERR No such user 'alice'\r\n");
        assertThat(kvd.call("CLIENT", "KILL", "TYPE", "foo")).isEqualTo("-ERR Unknown client type 'foo'\r\n");
        assertThat(kvd.call("CLIENT", "KILL", "SKIPME", "maybe")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("CLIENT", "KILL", "MAXAGE", "5")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("CLIENT", "KILL", "ID", "2", "TYPE")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void setinfoRejectsUnknownAttributesAndSpaces() {
        assertThat(kvd.call("CLIENT", "SETINFO", "lib-foo", "x")).isEqualTo("-ERR Unrecognized option 'lib-foo'\r\n");
        assertThat(kvd.call("CLIENT", "SETINFO", "lib-name", "a b"))
                .isEqualTo("-ERR lib-name cannot contain spaces, newlines or special characters.\r\n");
    }

    @Test
    void subcommandArityErrorsNameTheSubcommand() {
        assertThat(kvd.call("CLIENT", "SETNAME")).isEqualTo("-ERR wrong number of arguments for 'client|setname' command\r\n");
        assertThat(kvd.call("CLIENT", "ID", "x")).isEqualTo("-ERR wrong number of arguments for 'client|id' command\r\n");
    }

    @Test
    void unknownSubcommandPointsToHelp() {
        assertThat(kvd.call("CLIENT", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try CLIENT HELP.\r\n");
    }

    @Test
    void helpListsTheSubcommandsKvdImplements() {
        assertThat(kvd.call("CLIENT", "HELP"))
                .startsWith("*52\r\n+CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CACHING (YES|NO)\r\n")
                .contains("+UNPAUSE\r\n+    Stop the current client pause, resuming traffic.\r\n+PAUSE <timeout> [WRITE|ALL]\r\n")
                .contains("+REPLY (ON|OFF|SKIP)\r\n+    Control the replies sent to the current connection.\r\n+SETNAME <name>\r\n")
                .contains("+NO-EVICT (ON|OFF)\r\n")
                .contains("+SETINFO <option> <value>\r\n")
                .contains("+UNBLOCK <clientid> [TIMEOUT|ERROR]\r\n")
                .contains("+TRACKINGINFO\r\n+    Report tracking status for the current connection.\r\n+NO-EVICT")
                .endsWith("+HELP\r\n+    Prints this help.\r\n");
    }

    @Test
    void replyOffAnswersNothingUntilOn() {
        assertThat(kvd.call("CLIENT", "REPLY", "OFF")).isEmpty();
        assertThat(kvd.call("SET", "k", "v")).isEmpty();
        assertThat(kvd.call("NOSUCH")).isEmpty();
        assertThat(kvd.call("CLIENT", "REPLY", "SKIP")).isEmpty();
        assertThat(kvd.call("CLIENT", "REPLY", "ON")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "k")).isEqualTo("$1\r\nv\r\n");
    }

    @Test
    void replySkipDropsTheNextCommandsReplyOnly() {
        assertThat(kvd.call("CLIENT", "REPLY", "SKIP")).isEmpty();
        assertThat(kvd.call("INCR", "n")).isEmpty();
        assertThat(kvd.call("INCR", "n")).isEqualTo(":2\r\n");
        assertThat(kvd.call("CLIENT", "REPLY", "MAYBE")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void noEvictShowsTheFlagEUntilTurnedOff() {
        assertThat(kvd.call("CLIENT", "NO-EVICT", "on")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "INFO")).contains(" flags=e ");
        assertThat(kvd.call("CLIENT", "NO-EVICT", "maybe")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("CLIENT", "NO-EVICT", "OFF")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CLIENT", "INFO")).contains(" flags=N ");
    }
}
