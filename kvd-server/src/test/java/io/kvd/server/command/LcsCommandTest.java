package io.kvd.server.command;

import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;

import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static org.assertj.core.api.Assertions.assertThat;

/** LCS as Redis 7.0 answers it; each expected reply was checked against redis-server. */
class LcsCommandTest {
    private static final String NOT_STRINGS = "-ERR The specified keys must contain string values\r\n";

    private final CommandFixture kvd = new CommandFixture();

    /** IDX's reply: the matches (each two ranges, and with WITHMATCHLEN its length), then the length. */
    private static String idx(int length, int[]... matches) {
        StringBuilder out = new StringBuilder("*4\r\n$7\r\nmatches\r\n*").append(matches.length).append("\r\n");
        for (int[] match : matches) {
            out.append('*').append(match.length == 5 ? 3 : 2).append("\r\n")
                    .append("*2\r\n").append(integer(match[0])).append(integer(match[1]))
                    .append("*2\r\n").append(integer(match[2])).append(integer(match[3]));
            if (match.length == 5) {
                out.append(integer(match[4]));
            }
        }
        return out.append("$3\r\nlen\r\n").append(integer(length)).toString();
    }

    @Test
    void repliesTheCommonSubsequence() {
        kvd.call("MSET", "a", "ohmytext", "b", "mynewtext");
        assertThat(kvd.call("LCS", "a", "b")).isEqualTo(bulk("mytext"));
        assertThat(kvd.call("LCS", "a", "b", "LEN")).isEqualTo(integer(6));
    }

    @Test
    void idxListsTheMatchingRangesLastFirst() {
        kvd.call("MSET", "a", "ohmytext", "b", "mynewtext");
        assertThat(kvd.call("LCS", "a", "b", "IDX")).isEqualTo(idx(6, new int[] {4, 7, 5, 8}, new int[] {2, 3, 0, 1}));
        assertThat(kvd.call("LCS", "a", "b", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"))
                .isEqualTo(idx(6, new int[] {4, 7, 5, 8, 4}));
        assertThat(kvd.call("LCS", "a", "b", "IDX", "MINMATCHLEN", "-3"))
                .isEqualTo(idx(6, new int[] {4, 7, 5, 8}, new int[] {2, 3, 0, 1}));
    }

    @Test
    void tiesFollowRedisWalkBack() {
        kvd.call("MSET", "a", "abcabc", "b", "cbacba");
        assertThat(kvd.call("LCS", "a", "b")).isEqualTo(bulk("cbc"));
        assertThat(kvd.call("LCS", "b", "a")).isEqualTo(bulk("aba"));
    }

    @Test
    void missingKeysAreEmptyStrings() {
        kvd.call("SET", "a", "abc");
        assertThat(kvd.call("LCS", "a", "missing")).isEqualTo(bulk(""));
        assertThat(kvd.call("LCS", "missing", "other", "IDX")).isEqualTo(idx(0));
    }

    @Test
    void keysOfAnotherTypeAreRefusedBeforeTheOptionsAreRead() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("LCS", "l", "missing", "foo")).isEqualTo(NOT_STRINGS);
        assertThat(kvd.call("LCS", "missing", "l")).isEqualTo(NOT_STRINGS);
    }

    @Test
    void optionErrors() {
        kvd.call("MSET", "a", "x", "b", "y");
        assertThat(kvd.call("LCS", "a", "b", "LEN", "IDX"))
                .isEqualTo("-ERR If you want both the length and indexes, please just use IDX.\r\n");
        assertThat(kvd.call("LCS", "a", "b", "foo")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LCS", "a", "b", "MINMATCHLEN")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LCS", "a", "b", "MINMATCHLEN", "x"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void theTableMayNotPassProtoMaxBulkLen() {
        kvd.config.set(Config.PROTO_MAX_BULK_LEN, "1mb");
        kvd.call("SETRANGE", "a", "510", "x");
        kvd.call("SETRANGE", "b", "510", "x");
        // (511 + 1) * (511 + 1) cells of 4 bytes is exactly 1 MB.
        assertThat(kvd.call("LCS", "a", "b", "LEN")).isEqualTo(integer(511));
        kvd.call("SETRANGE", "b", "512", "x");
        assertThat(kvd.call("LCS", "a", "b", "LEN"))
                .isEqualTo("-ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len\r\n");
    }
}
