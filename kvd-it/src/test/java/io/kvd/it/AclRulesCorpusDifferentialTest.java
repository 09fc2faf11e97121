package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AclRulesFuzzTest's corpus (kvd-server's test resources: the rules of Redis's ACL tests and the
 * inputs fuzzing found) sent to redis-server and to kvd as ACL SETUSER requests, byte for byte:
 * every reply the same, and then ACL GETUSER and ACL LIST the same but for the order of the words
 * of each line, since Redis lists single commands in its hash table's order.
 */
@ExtendWith(ServerLogsOnFailure.class)
class AclRulesCorpusDifferentialTest {
    private static final Path CORPUS = Path.of("../kvd-server/src/test/resources/io/kvd/server/acl/AclRulesFuzzTestInputs"
            + "/rulesApplyOrAreRefusedAsRedisAndDescriptionsRoundTrip");

    @Test
    void everyCorpusInputIsAnsweredAsRedisAnswersIt() throws IOException {
        List<Path> inputs;
        try (Stream<Path> files = Files.list(CORPUS)) {
            inputs = files.sorted().toList();
        }
        assertThat(inputs).isNotEmpty();
        List<String> mismatches = new ArrayList<>();
        try (ServerPair servers = ServerPair.start();
             RespConnection redis = RespConnection.open(servers.redis().port());
             RespConnection kvd = RespConnection.open(servers.kvd().port())) {
            for (Path input : inputs) {
                List<String> expected = replies(redis, Files.readAllBytes(input));
                List<String> actual = replies(kvd, Files.readAllBytes(input));
                if (!expected.equals(actual)) {
                    mismatches.add(input.getFileName() + "\n  redis: " + expected + "\n  kvd:   " + actual);
                }
            }
        }
        assertThat(mismatches).as("corpus inputs answered otherwise than by redis-server").isEmpty();
    }

    /** The input's ACL SETUSER requests (a rule per line, an empty line between requests), then GETUSER and LIST. */
    private static List<String> replies(RespConnection connection, byte[] input) throws IOException {
        List<String> replies = new ArrayList<>();
        call(connection, List.of(bytes("ACL"), bytes("DELUSER"), bytes("fuzz")));
        List<byte[]> request = setuser();
        int start = 0;
        for (int i = 0; i <= input.length; i++) {
            if (i < input.length && input[i] != '\n') {
                continue;
            }
            if (i == start) {
                replies.add(escaped(call(connection, request)));
                request = setuser();
            } else {
                request.add(Arrays.copyOfRange(input, start, i));
            }
            start = i + 1;
        }
        replies.add(escaped(call(connection, request)));
        replies.add(wordsSorted(call(connection, List.of(bytes("ACL"), bytes("GETUSER"), bytes("fuzz")))));
        replies.add(wordsSorted(call(connection, List.of(bytes("ACL"), bytes("LIST")))));
        return replies;
    }

    private static List<byte[]> setuser() {
        return new ArrayList<>(List.of(bytes("ACL"), bytes("SETUSER"), bytes("fuzz")));
    }

    private static String call(RespConnection connection, List<byte[]> command) throws IOException {
        connection.send(command.toArray(new byte[0][]));
        return new String(connection.readReply(), StandardCharsets.ISO_8859_1);
    }

    /** Each line of the reply with its words sorted, escaped. */
    private static String wordsSorted(String reply) {
        List<String> lines = new ArrayList<>();
        for (String line : reply.split("\r\n", -1)) {
            lines.add(String.join(" ", Arrays.stream(line.split(" ", -1)).sorted().toList()));
        }
        return escaped(String.join("\r\n", lines));
    }

    private static String escaped(String reply) {
        return Escape.bytes(bytes(reply));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
