package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The ACL file against redis-server 7.0.15's: the same file of users (selectors, hashed and plain
 * passwords, key permissions, channels, payload flags) read at start gives the same ACL LIST and
 * the same passwords; ACL SAVE writes the same file (users in name order in both; the single
 * commands a rule names after the categories in the order each server lists them, Redis's being
 * its hash table's, so they are compared sorted);
 * ACL LOAD of a file with each kind of error answers the same error and changes nothing; and a
 * start with both {@code user} lines and an aclfile, or with a bad or missing aclfile, stops with
 * the same message. A selector left open is not compared: redis-server 7.0.15 crashes on it in
 * ACL LOAD (kvd answers "Unmatched parenthesis in selector definition.").
 */
@ExtendWith(ServerLogsOnFailure.class)
class AclFileDifferentialTest {
    private static final String SECRET_SHA256 = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b";
    private static final String USERS = String.join("\n",
            "user default on nopass ~* &* +@all",
            "user alice on #" + SECRET_SHA256 + " >plain ~cache:* %R~shared:* %W~out:* resetchannels &news.* &alerts"
                    + " -@all +@read +@string",
            "user bob off nopass allkeys allchannels +@all -@dangerous",
            "user carol on >pw1 >pw2 resetchannels -@all +get ~g* (+set ~s* &c1) (%R~r* +@hash resetchannels)",
            "user dave on sanitize-payload resetkeys -@all +@pubsub &chan",
            "user erin skip-sanitize-payload on nopass +@all -flushall ~*",
            "user frank",
            "user gina on nopass ~g* -@all +get +set +hget +ping +select|0",
            "");

    private static final Pattern SINGLE_COMMANDS = Pattern.compile(
            "(?<![^ \n])[+-][a-z_|0-9-]+( [+-][a-z_|0-9-]+)+");

    private static Path redisFile;
    private static Path kvdFile;
    private static RedisServerProcess redis;
    private static KvdProcess kvd;

    @BeforeAll
    static void start() throws IOException {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis");
        Path kvdDir = WorkDir.create("kvd");
        redisFile = redisDir.resolve("users.acl");
        kvdFile = kvdDir.resolve("users.acl");
        Files.writeString(redisFile, USERS);
        Files.writeString(kvdFile, USERS);
        redis = RedisServerProcess.startIn(redisDir, "--aclfile", redisFile.toString());
        kvd = KvdProcess.startIn(kvdDir, "--aclfile", kvdFile.toString());
    }

    @AfterAll
    static void stop() {
        try {
            if (kvd != null) {
                kvd.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void theUsersOfTheFileAreListedSavedAndAuthenticatedAsInRedis() throws IOException {
        assertSameReplies(List.of(List.of("ACL", "LIST"), List.of("ACL", "GETUSER", "carol"),
                List.of("AUTH", "alice", "secret"), List.of("AUTH", "alice", "plain"), List.of("AUTH", "carol", "pw2"),
                List.of("AUTH", "bob", "any"), List.of("AUTH", "frank", ""), List.of("AUTH", "default", "x"),
                List.of("ACL", "SAVE"), List.of("ACL", "LOAD"), List.of("ACL", "LIST")));
        assertThat(singleCommandsSorted(Files.readString(kvdFile)))
                .isEqualTo(singleCommandsSorted(Files.readString(redisFile)));
    }

    @Test
    void aclLoadRefusesEachKindOfErrorAsRedisAndChangesNothing() throws IOException {
        List<String> files = List.of(
                "user alice on >pw ~* +@all\nuser bob on ~x +nosuch\n",
                "user alice on\nfoo bar\nuser\n",
                "user a\tb on\n",
                "user alice on\nuser alice off\n",
                "user a on #abc +nosuch1 ~x allkeys ~y +nosuch2\nuser b on allkeys ~z\nuser c on <x\n",
                "user a on allchannels &y\n",
                "user a on (~x +nosuch) (+get #x) ( +nosuch2 ~y )\n",
                "user a on +config|get|x +get|\n",
                "user a on %X~a %~b\n",
                "user a on resetkeys\r\t +nosuch\t\r\n");
        List<String> mismatches = new ArrayList<>();
        for (String file : files) {
            Files.writeString(redisFile, file, StandardCharsets.ISO_8859_1);
            Files.writeString(kvdFile, file, StandardCharsets.ISO_8859_1);
            compare(mismatches, Escape.bytes(file.getBytes(StandardCharsets.ISO_8859_1)), List.of("ACL", "LOAD"));
        }
        Files.delete(redisFile);
        Files.delete(kvdFile);
        compare(mismatches, "no file", List.of("ACL", "LOAD"));
        compare(mismatches, "unchanged", List.of("ACL", "LIST"));
        Files.writeString(redisFile, USERS);
        Files.writeString(kvdFile, USERS);
        assertThat(mismatches).as("ACL LOAD replies that differ from redis-server's").isEmpty();
    }

    @Test
    void userLinesWithAnAclFileStopTheStartAsInRedis() throws IOException {
        Path redisDir = WorkDir.create("redis");
        Path kvdDir = WorkDir.create("kvd");
        Path redisConf = Files.writeString(redisDir.resolve("redis.conf"),
                "user bob on nopass +@all\naclfile " + redisDir.resolve("users.acl") + "\n");
        Path kvdConf = Files.writeString(kvdDir.resolve("redis.conf"),
                "user bob on nopass +@all\naclfile " + kvdDir.resolve("users.acl") + "\n");
        String sentence = "Configuring Redis with users defined in redis.conf and at the same setting an ACL file";
        assertThat(refusal(() -> KvdProcess.startWithConfigFile(kvdDir, kvdConf), sentence, kvdDir))
                .isEqualTo(refusal(() -> RedisServerProcess.startWithConfigFile(redisDir, redisConf), sentence, redisDir));
    }

    @Test
    void aBadOrMissingAclFileStopsTheStartAsInRedis() throws IOException {
        String sentence = "Aborting Redis startup because of ACL errors: ";
        for (String file : List.of("user alice on >pw\nuser bob on +nosuch ~x allkeys ~y\nnot a user\n", "")) {
            Path redisDir = WorkDir.create("redis");
            Path kvdDir = WorkDir.create("kvd");
            if (!file.isEmpty()) {
                Files.writeString(redisDir.resolve("users.acl"), file);
                Files.writeString(kvdDir.resolve("users.acl"), file);
            }
            String inRedis = refusal(() -> RedisServerProcess.startIn(redisDir, "--aclfile",
                    redisDir.resolve("users.acl").toString()), sentence, redisDir);
            String inKvd = refusal(() -> KvdProcess.startIn(kvdDir, "--aclfile", kvdDir.resolve("users.acl").toString()),
                    sentence, kvdDir);
            assertThat(inKvd).as(file).isEqualTo(inRedis);
        }
    }

    /** The line of a start that failed, from {@code sentence} on, its work directory shown as DIR. */
    private static String refusal(Supplier<AutoCloseable> start, String sentence, Path dir) {
        Throwable failure = catchThrowable(() -> start.get().close());
        assertThat(failure).as("the start fails").isInstanceOf(AssertionError.class);
        String log = failure.getMessage();
        int at = log.indexOf(sentence);
        assertThat(at).as("%s in %s", sentence, log).isNotNegative();
        int end = log.indexOf('\n', at);
        return log.substring(at, end < 0 ? log.length() : end).replace(dir.toString(), "DIR");
    }

    /**
     * The text with each run of single command rules ({@code +get +set -ping}, not categories)
     * sorted, the one part of a user's description whose order is Redis's hash table's.
     */
    private static String singleCommandsSorted(String text) {
        return SINGLE_COMMANDS.matcher(text).replaceAll(run -> String.join(" ",
                Arrays.stream(run.group().split(" ")).sorted().toList()));
    }

    private static void assertSameReplies(List<List<String>> commands) throws IOException {
        List<String> mismatches = new ArrayList<>();
        for (List<String> command : commands) {
            compare(mismatches, "", command);
        }
        assertThat(mismatches).as("replies that differ from redis-server's").isEmpty();
    }

    /** One command on a new connection to each server; the ACL file's path in a reply shown as FILE. */
    private static void compare(List<String> mismatches, String what, List<String> command) throws IOException {
        String expected = singleCommandsSorted(call(redis.port(), command).replace(redisFile.toString(), "FILE"));
        String actual = singleCommandsSorted(call(kvd.port(), command).replace(kvdFile.toString(), "FILE"));
        if (!expected.equals(actual)) {
            mismatches.add(what + " " + String.join(" ", command) + "\n  redis: " + expected + "\n  kvd:   " + actual);
        }
    }

    private static String call(int port, List<String> command) throws IOException {
        try (RespConnection connection = RespConnection.open(port)) {
            connection.send(command.stream().map(a -> a.getBytes(StandardCharsets.ISO_8859_1)).toArray(byte[][]::new));
            return Escape.bytes(connection.readReply());
        }
    }
}
