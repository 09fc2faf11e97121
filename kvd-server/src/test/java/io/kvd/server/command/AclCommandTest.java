package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static org.assertj.core.api.Assertions.assertThat;

/** ACL users, rules and checks, with redis-server 7.0.15's replies. */
class AclCommandTest {
    private static final String OK = "+OK\r\n";
    private static final String PASSWORD_HASH = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8";

    private final CommandFixture kvd = new CommandFixture();

    /** A connected client authenticated as {@code user} (created nopass with {@code rules}). */
    private Client clientAs(String user, String... rules) {
        String[] setuser = new String[rules.length + 5];
        setuser[0] = "ACL";
        setuser[1] = "SETUSER";
        setuser[2] = user;
        setuser[3] = "on";
        setuser[4] = "nopass";
        System.arraycopy(rules, 0, setuser, 5, rules.length);
        assertThat(kvd.call(setuser)).isEqualTo(OK);
        Client c = kvd.newClient();
        assertThat(kvd.callAs(c, "AUTH", user, "any")).isEqualTo(OK);
        return c;
    }

    @Test
    void sortByAndGetPatternsNeedEveryKeyReadable() {
        kvd.call("RPUSH", "read1", "2", "1");
        Client bob = clientAs("bob", "~read*", "+@all");
        assertThat(kvd.callAs(bob, "SORT", "read1", "BY", "w*"))
                .isEqualTo("-ERR BY option of SORT denied due to insufficient ACL permissions.\r\n");
        assertThat(kvd.callAs(bob, "SORT", "read1", "GET", "#"))
                .isEqualTo("-ERR GET option of SORT denied due to insufficient ACL permissions.\r\n");
        // A BY without '*' sorts nothing and names no key.
        assertThat(kvd.callAs(bob, "SORT", "read1", "BY", "nosort")).isEqualTo(array("2", "1"));
        Client alice = clientAs("alice", "%R~*", "+@all");
        assertThat(kvd.callAs(alice, "SORT", "read1", "BY", "w*")).isEqualTo(array("1", "2"));
    }

    @Test
    void getuserDescribesFlagsPasswordHashesRulesAndSelectors() {
        kvd.call("ACL", "SETUSER", "alice", "on", ">password", "~cache:*", "%R~report:*", "&news.*", "+get", "+config|get",
                "(+set ~s*)");
        assertThat(kvd.call("ACL", "GETUSER", "alice")).isEqualTo("*12\r\n"
                + bulk("flags") + array("on")
                + bulk("passwords") + array(PASSWORD_HASH)
                + bulk("commands") + bulk("-@all +get +config|get")
                + bulk("keys") + bulk("~cache:* %R~report:*")
                + bulk("channels") + bulk("&news.*")
                + bulk("selectors") + "*1\r\n*6\r\n"
                + bulk("commands") + bulk("-@all +set") + bulk("keys") + bulk("~s*") + bulk("channels") + bulk(""));
        assertThat(kvd.call("ACL", "GETUSER", "nobody")).isEqualTo("$-1\r\n");
    }

    @Test
    void listShowsEveryUserInNameOrderAsTheAclFileHoldsIt() {
        kvd.call("ACL", "SETUSER", "zed");
        kvd.call("ACL", "SETUSER", "bob", "on", "#" + PASSWORD_HASH, "+@all", "-@dangerous", "allkeys");
        assertThat(kvd.call("ACL", "LIST")).isEqualTo(array(
                "user bob on #" + PASSWORD_HASH + " ~* resetchannels +@all -@dangerous",
                "user default on nopass ~* &* +@all",
                "user zed off resetchannels -@all"));
        assertThat(kvd.call("ACL", "USERS")).isEqualTo(array("bob", "default", "zed"));
    }

    @Test
    void categoriesThatFitBestDescribeTheCommandsThenSingleCommands() {
        kvd.call("ACL", "SETUSER", "u", "+@all", "-@write", "+set", "-get");
        assertThat(kvd.call("ACL", "GETUSER", "u")).contains(bulk("+@all -@write -get +set"));
        kvd.call("ACL", "SETUSER", "v", "-@all", "+@hash", "+@set", "-hset");
        assertThat(kvd.call("ACL", "GETUSER", "v")).contains(bulk("-@all +@set +@hash -hset"));
        kvd.call("ACL", "SETUSER", "w", "+client", "-client|kill", "+select|0");
        assertThat(kvd.call("ACL", "GETUSER", "w")).contains(bulk("-@all +select|0 +client -client|kill"));
    }

    @Test
    void aMalformedRuleChangesNothingAndSaysWhy() {
        kvd.call("ACL", "SETUSER", "u", "on", "allkeys");
        assertThat(kvd.call("ACL", "SETUSER", "u", "off", "~a")).isEqualTo("-ERR Error in ACL SETUSER modifier '~a':"
                + " Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any"
                + " effect. Try 'resetkeys' to start with an empty list of patterns\r\n");
        assertThat(kvd.call("ACL", "SETUSER", "u", "+nosuch")).isEqualTo(
                "-ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL\r\n");
        assertThat(kvd.call("ACL", "SETUSER", "u", "#abc")).isEqualTo("-ERR Error in ACL SETUSER modifier '#abc':"
                + " The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters\r\n");
        assertThat(kvd.call("ACL", "SETUSER", "u", "+config|get|x")).isEqualTo("-ERR Error in ACL SETUSER modifier"
                + " '+config|get|x': Allowing first-arg of a subcommand is not supported\r\n");
        assertThat(kvd.call("ACL", "SETUSER", "u", "on", "(+get", "~x")).isEqualTo(
                "-ERR Unmatched parenthesis in acl selector starting at '(+get'.\r\n");
        assertThat(kvd.call("ACL", "SETUSER", "a b")).isEqualTo(
                "-ERR Usernames can't contain spaces or null characters\r\n");
        assertThat(kvd.call("ACL", "LIST")).contains("user u on ~* resetchannels -@all");
    }

    @Test
    void aCommandTheUserMayNotRunIsRefusedAndLogged() {
        Client c = clientAs("reader", "+get", "~*");
        assertThat(kvd.callAs(c, "SET", "k", "v"))
                .isEqualTo("-NOPERM this user has no permissions to run the 'set' command\r\n");
        assertThat(kvd.callAs(c, "CONFIG", "GET", "hz"))
                .isEqualTo("-NOPERM this user has no permissions to run the 'config|get' command\r\n");
        assertThat(kvd.callAs(c, "GET", "k")).isEqualTo("$-1\r\n");
        assertThat(kvd.callAs(c, "ACL", "WHOAMI")).isEqualTo(
                "-NOPERM this user has no permissions to run the 'acl|whoami' command\r\n");
        String log = kvd.call("ACL", "LOG");
        assertThat(log).startsWith("*3\r\n*14\r\n" + bulk("count") + integer(1) + bulk("reason") + bulk("command")
                + bulk("context") + bulk("toplevel") + bulk("object") + bulk("acl|whoami") + bulk("username")
                + bulk("reader") + bulk("age-seconds")).contains("cmd=acl|whoami user=reader");
        assertThat(kvd.call("ACL", "LOG", "RESET")).isEqualTo(OK);
        assertThat(kvd.call("ACL", "LOG")).isEqualTo("*0\r\n");
    }

    @Test
    void repeatedRefusalsCountOnOneLogEntry() {
        Client c = clientAs("reader", "+get", "~*");
        kvd.callAs(c, "SET", "k", "v");
        kvd.callAs(c, "SET", "k", "v");
        assertThat(kvd.call("ACL", "LOG")).startsWith("*1\r\n*14\r\n" + bulk("count") + integer(2));
    }

    @Test
    void readAndWritePatternsFollowTheKeySpecFlags() {
        Client c = clientAs("split", "+@all", "%R~r*", "%W~w*", "~rw*");
        assertThat(kvd.callAs(c, "GET", "r1")).isEqualTo("$-1\r\n");
        assertThat(kvd.callAs(c, "SET", "r1", "v"))
                .isEqualTo("-NOPERM this user has no permissions to access one of the keys used as arguments\r\n");
        assertThat(kvd.callAs(c, "SET", "w1", "v")).isEqualTo(OK);
        assertThat(kvd.callAs(c, "GET", "w1"))
                .isEqualTo("-NOPERM this user has no permissions to access one of the keys used as arguments\r\n");
        assertThat(kvd.callAs(c, "COPY", "r1", "w2")).isEqualTo(integer(0));
        assertThat(kvd.callAs(c, "SET", "rw1", "v")).isEqualTo(OK);
        assertThat(kvd.call("ACL", "DRYRUN", "split", "LPUSH", "r2", "x"))
                .isEqualTo(bulk("This user has no permissions to access the 'r2' key"));
        assertThat(kvd.call("ACL", "DRYRUN", "split", "GET", "rw2")).isEqualTo(OK);
    }

    @Test
    void channelsArePatternsForPublishAndSubscribeAndLiteralForPsubscribe() {
        Client c = clientAs("news", "+@all", "allkeys", "resetchannels", "&news.*");
        String refused = "-NOPERM this user has no permissions to access one of the channels used as arguments\r\n";
        assertThat(kvd.callAs(c, "PUBLISH", "news.1", "x")).isEqualTo(integer(0));
        assertThat(kvd.callAs(c, "PUBLISH", "sports", "x")).isEqualTo(refused);
        assertThat(kvd.callAs(c, "PSUBSCRIBE", "news.1")).isEqualTo(refused);
        assertThat(kvd.callAs(c, "SUBSCRIBE", "news.a", "other")).isEqualTo(refused);
        assertThat(kvd.call("ACL", "LOG", "1")).contains(bulk("channel") + bulk("context") + bulk("toplevel")
                + bulk("object") + bulk("other"));
        assertThat(kvd.callAs(c, "PSUBSCRIBE", "news.*")).startsWith("*3\r\n");
    }

    @Test
    void anySelectorAllowingTheCommandAndItsKeysLetsItRun() {
        Client c = clientAs("sel", "-@all", "(+get ~g*)", "(+set ~s*)");
        assertThat(kvd.callAs(c, "GET", "g1")).isEqualTo("$-1\r\n");
        assertThat(kvd.callAs(c, "SET", "s1", "v")).isEqualTo(OK);
        assertThat(kvd.callAs(c, "SET", "g1", "v"))
                .isEqualTo("-NOPERM this user has no permissions to access one of the keys used as arguments\r\n");
        assertThat(kvd.callAs(c, "DEL", "s1"))
                .isEqualTo("-NOPERM this user has no permissions to run the 'del' command\r\n");
    }

    @Test
    void aRefusalWhileQueuingAbortsExecAndRulesChangedSinceAreCheckedAtExec() {
        Client c = clientAs("tx", "+@all", "~*");
        kvd.callAs(c, "MULTI");
        kvd.callAs(c, "SET", "a", "1");
        kvd.call("ACL", "SETUSER", "tx", "-set");
        assertThat(kvd.callAs(c, "EXEC")).isEqualTo("*1\r\n-NOPERM ACLs rules changed between the moment the"
                + " transaction was accumulated and the EXEC call. This command is no longer allowed for the following"
                + " reason: no permission to execute the command or subcommand\r\n");
        kvd.callAs(c, "MULTI");
        assertThat(kvd.callAs(c, "SET", "a", "1"))
                .isEqualTo("-NOPERM this user has no permissions to run the 'set' command\r\n");
        assertThat(kvd.callAs(c, "EXEC"))
                .isEqualTo("-EXECABORT Transaction discarded because of previous errors.\r\n");
        assertThat(kvd.call("ACL", "LOG", "1")).contains(bulk("context") + bulk("multi"));
    }

    @Test
    void aScriptsCommandsRunAsItsCallersUser() {
        Client c = clientAs("scripter", "+eval", "+get", "~k*");
        assertThat(kvd.callAs(c, "EVAL", "return redis.call('set','k','v')", "0")).startsWith(
                "-ERR The user executing the script can't run this command or subcommand script:");
        assertThat(kvd.callAs(c, "EVAL", "return redis.call('get','other')", "0")).startsWith(
                "-ERR The user executing the script can't access at least one of the keys mentioned in the command"
                        + " arguments script:");
        assertThat(kvd.callAs(c, "EVAL", "return redis.acl_check_cmd('get','k1')", "0")).isEqualTo(integer(1));
        assertThat(kvd.callAs(c, "EVAL", "return redis.acl_check_cmd('set','k1','v')", "0")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("ACL", "LOG", "1")).contains(bulk("context") + bulk("lua") + bulk("object") + bulk("other"))
                .contains("cmd=eval");
        assertThat(kvd.call("EVAL", "return redis.call('set','k','v')", "0")).isEqualTo(OK);
    }

    @Test
    void authAsAUserSetsWhoamiAndAWrongPasswordIsLogged() {
        kvd.call("ACL", "SETUSER", "alice", "on", ">password", "+@all", "~*");
        Client c = kvd.newClient();
        assertThat(kvd.callAs(c, "AUTH", "alice", "wrong"))
                .isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n");
        assertThat(kvd.callAs(c, "ACL", "WHOAMI")).isEqualTo(bulk("default"));
        assertThat(kvd.callAs(c, "AUTH", "alice", "password")).isEqualTo(OK);
        assertThat(kvd.callAs(c, "ACL", "WHOAMI")).isEqualTo(bulk("alice"));
        assertThat(kvd.call("ACL", "LOG")).contains(bulk("reason") + bulk("auth") + bulk("context") + bulk("toplevel")
                + bulk("object") + bulk("AUTH") + bulk("username") + bulk("alice"));
        kvd.call("ACL", "SETUSER", "alice", "off");
        assertThat(kvd.callAs(kvd.newClient(), "HELLO", "2", "AUTH", "alice", "password"))
                .isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n");
    }

    @Test
    void requirepassIsTheDefaultUsersPassword() {
        kvd.config.set("requirepass", "password");
        assertThat(kvd.call("ACL", "GETUSER", "default")).contains(bulk("passwords") + array(PASSWORD_HASH));
        Client c = kvd.newClient();
        assertThat(kvd.callAs(c, "GET", "k")).isEqualTo("-NOAUTH Authentication required.\r\n");
        assertThat(kvd.callAs(c, "AUTH", "password")).isEqualTo(OK);
        kvd.config.set("requirepass", "");
        assertThat(kvd.call("ACL", "LIST")).isEqualTo(array("user default on nopass ~* &* +@all"));
    }

    @Test
    void deletingAUserDisconnectsItsClientsButNeverTheDefaultUser() {
        Client c = clientAs("gone", "+@all");
        assertThat(kvd.call("ACL", "DELUSER", "default", "gone"))
                .isEqualTo("-ERR The 'default' user cannot be removed\r\n");
        assertThat(kvd.connectionClosed()).isFalse();
        assertThat(kvd.call("ACL", "DELUSER", "gone", "never")).isEqualTo(integer(1));
        assertThat(kvd.connectionClosed()).isTrue();
        assertThat(c.user()).isNotNull();
    }

    @Test
    void aSubscriberLosingItsChannelIsDisconnected() {
        Client c = clientAs("sub", "+@all", "resetchannels", "&a", "&b");
        kvd.callAs(c, "SUBSCRIBE", "a");
        kvd.call("ACL", "SETUSER", "sub", "&c");
        assertThat(kvd.connectionClosed()).isFalse();
        kvd.call("ACL", "SETUSER", "sub", "resetchannels", "&b");
        assertThat(kvd.connectionClosed()).isTrue();
    }

    @Test
    void setuserRulesNeverReachTheSlowLog() {
        kvd.config.set("slowlog-log-slower-than", "0");
        kvd.call("ACL", "SETUSER", "u", ">secret");
        assertThat(kvd.call("SLOWLOG", "GET", "1")).contains(bulk("(redacted)")).doesNotContain("secret");
    }

    @Test
    void catListsTheCategoriesAndTheCommandsOfOne() {
        assertThat(kvd.call("ACL", "CAT")).startsWith(array("keyspace", "read", "write", "set", "sortedset", "list",
                "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
                "blocking", "dangerous", "connection", "transaction", "scripting"));
        assertThat(kvd.call("ACL", "CAT", "transaction"))
                .isEqualTo(array("multi", "exec", "discard", "watch", "unwatch"));
        assertThat(kvd.call("ACL", "CAT", "nosuch")).isEqualTo("-ERR Unknown category 'nosuch'\r\n");
    }

    @Test
    void genpassGivesTheBitsAsHex() {
        assertThat(kvd.call("ACL", "GENPASS")).matches("\\$64\r\n[0-9a-f]{64}\r\n");
        assertThat(kvd.call("ACL", "GENPASS", "5")).matches("\\$2\r\n[0-9a-f]{2}\r\n");
        assertThat(kvd.call("ACL", "GENPASS", "0")).isEqualTo("-ERR ACL GENPASS argument must be the number of bits"
                + " for the output password, a positive number up to 4096\r\n");
    }

    @Test
    void saveWritesTheUsersAndLoadReplacesThemOrChangesNothing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("users.acl");
        Files.writeString(file, "");
        CommandFixture kvd = new CommandFixture(Config.load(null, List.of("--aclfile", file.toString())));
        kvd.call("ACL", "SETUSER", "alice", "on", "nopass", "+get", "~k*");
        assertThat(kvd.call("ACL", "SAVE")).isEqualTo(OK);
        assertThat(Files.readString(file)).isEqualTo("user alice on nopass ~k* resetchannels -@all +get\n"
                + "user default on nopass ~* &* +@all\n");
        try (var files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(1);
        }
        Client c = kvd.newClient();
        kvd.call("ACL", "SETUSER", "bob", "on", "nopass", "+@all");
        kvd.callAs(c, "AUTH", "bob", "any");
        Files.writeString(file, "user carol on nopass +@all\nuser bad +nosuch\nnot a user\n"
                + "user worse #abc ~x <nopw +nosuch2\n", StandardCharsets.UTF_8);
        assertThat(kvd.call("ACL", "LOAD")).isEqualTo("-ERR " + file + ":2: Error in applying operation '+nosuch':"
                + " Unknown command or category name in ACL. "
                + file + ":3 should start with user keyword followed by the username. "
                + file + ":4: The password hash must be exactly 64 characters and contain only lowercase hexadecimal"
                + " characters. " + file + ":4: Error in applying operation '+nosuch2': Unknown command or category"
                + " name in ACL. WARNING: ACL errors detected, no change to the previously active ACL rules was"
                + " performed\r\n");
        assertThat(kvd.call("ACL", "USERS")).isEqualTo(array("alice", "bob", "default"));
        Files.writeString(file, "user carol on nopass +@all\n", StandardCharsets.UTF_8);
        assertThat(kvd.call("ACL", "LOAD")).isEqualTo(OK);
        assertThat(kvd.call("ACL", "USERS")).isEqualTo(array("carol", "default"));
        assertThat(kvd.connectionClosed()).isTrue();
        assertThat(c.user().name()).isEqualTo("bob");
    }

    @Test
    void loadAndSaveNeedAnAclFile() {
        assertThat(kvd.call("ACL", "LOAD")).startsWith("-ERR This Redis instance is not configured to use an ACL file.");
    }
}
