package io.kvd.it;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ReplyOrderTest {

    @Test
    void exactKeepsTheReplyAsSent() {
        assertThat(canonical(ReplyOrder.EXACT, "*2\r\n$1\r\nb\r\n$1\r\na\r\n")).isEqualTo("*2\r\n$1\r\nb\r\n$1\r\na\r\n");
    }

    @Test
    void unorderedSortsTheElementsOfAnArray() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*3\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nb\r\n"))
                .isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n");
    }

    @Test
    void unorderedKeepsRepeatedElements() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*3\r\n$1\r\nb\r\n$1\r\na\r\n$1\r\nb\r\n"))
                .isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nb\r\n");
    }

    @Test
    void twoOrdersOfTheSameMultisetHaveOneCanonicalForm() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*3\r\n$2\r\nab\r\n$1\r\nb\r\n:1\r\n"))
                .isEqualTo(canonical(ReplyOrder.UNORDERED, "*3\r\n:1\r\n$1\r\nb\r\n$2\r\nab\r\n"));
    }

    @Test
    void unorderedPairsSortWholePairsAndKeepEachFieldWithItsValue() {
        assertThat(canonical(ReplyOrder.UNORDERED_PAIRS, "*4\r\n$1\r\nf\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n"))
                .isEqualTo("*4\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nf\r\n$1\r\n1\r\n");
    }

    @Test
    void aScanReplyKeepsItsCursorAndSortsItsElements() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*2\r\n$2\r\n17\r\n*2\r\n$1\r\nz\r\n$1\r\ny\r\n"))
                .isEqualTo("*2\r\n$2\r\n17\r\n*2\r\n$1\r\ny\r\n$1\r\nz\r\n");
    }

    @Test
    void anHscanReplySortsItsPairs() {
        assertThat(canonical(ReplyOrder.UNORDERED_PAIRS, "*2\r\n$1\r\n0\r\n*4\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\ny\r\n$1\r\n2\r\n"))
                .isEqualTo("*2\r\n$1\r\n0\r\n*4\r\n$1\r\ny\r\n$1\r\n2\r\n$1\r\nz\r\n$1\r\n1\r\n");
    }

    @Test
    void aTwoElementArrayOfStringsIsSortedNotTakenForAScanReply() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*2\r\n$1\r\nb\r\n$1\r\na\r\n")).isEqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n");
    }

    @Test
    void repliesThatAreNotArraysAreKeptAsSent() {
        assertThat(canonical(ReplyOrder.UNORDERED, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"))
                .isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(canonical(ReplyOrder.UNORDERED_PAIRS, "$-1\r\n")).isEqualTo("$-1\r\n");
        assertThat(canonical(ReplyOrder.UNORDERED, ":3\r\n")).isEqualTo(":3\r\n");
        assertThat(canonical(ReplyOrder.UNORDERED, "*-1\r\n")).isEqualTo("*-1\r\n");
        assertThat(canonical(ReplyOrder.UNORDERED, "*0\r\n")).isEqualTo("*0\r\n");
    }

    @Test
    void anArrayThatIsNotWholePairsIsKeptAsSent() {
        assertThat(canonical(ReplyOrder.UNORDERED_PAIRS, "*3\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n"))
                .isEqualTo("*3\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n");
    }

    @Test
    void bytesThatAreNotUtf8SortAsUnsignedBytes() {
        assertThat(canonical(ReplyOrder.UNORDERED, "*2\r\n$1\r\n\u00ff\r\n$1\r\na\r\n"))
                .isEqualTo("*2\r\n$1\r\na\r\n$1\r\n\u00ff\r\n");
    }

    private static String canonical(ReplyOrder order, String reply) {
        byte[] sorted = order.canonical(reply.getBytes(StandardCharsets.ISO_8859_1));
        return new String(sorted, StandardCharsets.ISO_8859_1);
    }
}
