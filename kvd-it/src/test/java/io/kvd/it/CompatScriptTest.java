package io.kvd.it;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompatScriptTest {

    @Test
    void blankLinesAndCommentsAreSkippedAndLinesKeepTheirNumbers() {
        CompatScript script = CompatScript.parse("s.txt", List.of("# comment", "", "PING", "   ", "  # indented", "GET k"));

        assertThat(script.lines()).extracting(CompatScript.Line::number).containsExactly(3, 6);
        assertThat(script.lines()).extracting(CompatScript.Line::text).containsExactly("PING", "GET k");
    }

    @Test
    void argumentsSplitOnBlanks() {
        assertThat(args("SET  k\tv")).containsExactly("SET", "k", "v");
    }

    @Test
    void doubleQuotesKeepBlanksAndUnderstandEscapes() {
        assertThat(args("ECHO \"a b\" \"q\\\"b\\\\\" \"\\r\\n\\t\" \"\\x41\\x00\" \"\""))
                .containsExactly("ECHO", "a b", "q\"b\\", "\r\n\t", "A\0", "");
    }

    @Test
    void singleQuotesAreLiteralExceptForAnEscapedQuote() {
        assertThat(args("ECHO 'it\\'s \\n'")).containsExactly("ECHO", "it's \\n");
    }

    @Test
    void hexEscapesMayProduceBytesThatAreNotUtf8() {
        byte[][] parsed = CompatScript.parse("s.txt", List.of("ECHO \"\\xff\"")).lines().get(0).args();

        assertThat(parsed[1]).containsExactly(0xff);
    }

    @Test
    void unbalancedQuotesNameTheFileAndLine() {
        assertThatThrownBy(() -> CompatScript.parse("s.txt", List.of("PING", "ECHO \"abc")))
                .hasMessage("s.txt:2: unbalanced quotes: ECHO \"abc");
    }

    @Test
    void aLineWithoutMarkerComparesItsReplyExactly() {
        CompatScript.Line line = CompatScript.parse("s.txt", List.of("HGETALL h")).lines().get(0);

        assertThat(line.order()).isEqualTo(ReplyOrder.EXACT);
    }

    @Test
    void aTildeMarksTheReplyUnorderedAndIsNotAnArgument() {
        CompatScript.Line line = CompatScript.parse("s.txt", List.of("~ SMEMBERS s")).lines().get(0);

        assertThat(line.order()).isEqualTo(ReplyOrder.UNORDERED);
        assertThat(args("~ SMEMBERS s")).containsExactly("SMEMBERS", "s");
        assertThat(line.text()).isEqualTo("~ SMEMBERS s");
    }

    @Test
    void aTildeTwoMarksTheReplyAsUnorderedPairs() {
        CompatScript.Line line = CompatScript.parse("s.txt", List.of("~2 HGETALL h")).lines().get(0);

        assertThat(line.order()).isEqualTo(ReplyOrder.UNORDERED_PAIRS);
        assertThat(args("~2 HGETALL h")).containsExactly("HGETALL", "h");
    }

    @Test
    void aTildeThatIsNoMarkerNamesTheFileAndLine() {
        assertThatThrownBy(() -> CompatScript.parse("s.txt", List.of("~3 HGETALL h")))
                .hasMessage("s.txt:1: unknown marker (~ or ~2 and a blank): ~3 HGETALL h");
        assertThatThrownBy(() -> CompatScript.parse("s.txt", List.of("~SMEMBERS s")))
                .hasMessageStartingWith("s.txt:1: unknown marker");
    }

    private static List<String> args(String line) {
        byte[][] parsed = CompatScript.parse("s.txt", List.of(line)).lines().get(0).args();
        return Arrays.stream(parsed).map(a -> new String(a, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void aConnectionPrefixPicksTheConnectionAndAnAmpersandMarksABlockingCommand() {
        List<CompatScript.Line> lines = CompatScript.parse("s.txt", List.of("[2] BLPOP q 0 &", "[12] < ", "GET k")).lines();

        assertThat(lines).extracting(CompatScript.Line::connection).containsExactly(2, 12, 1);
        assertThat(lines).extracting(CompatScript.Line::action)
                .containsExactly(CompatScript.Action.BLOCK, CompatScript.Action.READ, CompatScript.Action.CALL);
        assertThat(Arrays.stream(lines.get(0).args()).map(a -> new String(a, StandardCharsets.UTF_8)))
                .containsExactly("BLPOP", "q", "0");
        assertThat(lines.get(1).args()).isEmpty();
    }

    @Test
    void aBadConnectionPrefixNamesTheFileAndLine() {
        assertThatThrownBy(() -> CompatScript.parse("s.txt", List.of("[x] GET k")))
                .hasMessage("s.txt:1: bad connection prefix ([n] and a blank): [x] GET k");
    }
}
