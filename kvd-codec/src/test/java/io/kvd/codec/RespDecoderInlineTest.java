package io.kvd.codec;

import org.junit.jupiter.api.Test;

import static io.kvd.codec.Inbound.args;
import static io.kvd.codec.Inbound.decode;
import static io.kvd.codec.Inbound.protocolError;
import static org.assertj.core.api.Assertions.assertThat;

/** Inline requests split as Redis's sdssplitargs splits them. */
class RespDecoderInlineTest {

    @Test
    void spacesAndTabsSeparateArguments() {
        assertThat(decode("  SET \t key\t\tvalue  \r\n")).containsExactly(args("SET", "key", "value"));
    }

    @Test
    void lineFeedAloneEndsTheLine() {
        assertThat(decode("PING\nPING\r\n")).containsExactly(args("PING"), args("PING"));
    }

    @Test
    void carriageReturnInsideTheLineSeparatesArguments() {
        assertThat(decode("ECHO a\rb\r\n")).containsExactly(args("ECHO", "a", "b"));
    }

    @Test
    void verticalTabAndFormFeedAreSkippedBetweenArgumentsButKeptInsideThem() {
        assertThat(decode("ECHO \u000ba\u000b\f\r\n")).containsExactly(args("ECHO", "a\u000b\f"));
    }

    @Test
    void doubleQuotesUnderstandBackslashEscapes() {
        assertThat(decode("ECHO \"a\\nb\\rc\\td\\be\\af\\\\g\\\"h\\qi\"\r\n"))
                .containsExactly(args("ECHO", "a\nb\rc\td\be\u0007f\\g\"hqi"));
    }

    @Test
    void doubleQuotesUnderstandHexEscapesInEitherCase() {
        assertThat(decode("ECHO \"\\x41\\xfF\\x00\"\r\n")).containsExactly(args("ECHO", "A\u00ff\u0000"));
    }

    @Test
    void hexEscapeWithoutTwoHexDigitsIsAnOrdinaryEscapedX() {
        assertThat(decode("ECHO \"\\x4g\\x\"\r\n")).containsExactly(args("ECHO", "x4gx"));
    }

    @Test
    void singleQuotesUnderstandOnlyEscapedSingleQuote() {
        assertThat(decode("ECHO 'it\\'s a\\n\"b\"'\r\n")).containsExactly(args("ECHO", "it's a\\n\"b\""));
    }

    @Test
    void emptyQuotesAreEmptyArguments() {
        assertThat(decode("SET \"\" ''\r\n")).containsExactly(args("SET", "", ""));
    }

    @Test
    void quoteMayOpenInsideAnArgumentAndEndsIt() {
        assertThat(decode("ECHO x\"a b\" y\r\n")).containsExactly(args("ECHO", "xa b", "y"));
    }

    @Test
    void closingDoubleQuoteFollowedByNonSpaceIsUnbalanced() {
        assertThat(decode("ECHO \"a\"b\r\n")).containsExactly(protocolError("unbalanced quotes in request"));
    }

    @Test
    void closingSingleQuoteFollowedByNonSpaceIsUnbalanced() {
        assertThat(decode("ECHO 'a'b\r\n")).containsExactly(protocolError("unbalanced quotes in request"));
    }

    @Test
    void closingQuoteFollowedByVerticalTabEndsTheArgument() {
        assertThat(decode("ECHO \"a\"\u000bb\r\n")).containsExactly(args("ECHO", "a", "b"));
    }

    @Test
    void unterminatedSingleQuoteIsUnbalanced() {
        assertThat(decode("ECHO 'abc\r\n")).containsExactly(protocolError("unbalanced quotes in request"));
    }

    @Test
    void backslashAtTheEndOfAQuotedLineIsUnbalanced() {
        assertThat(decode("ECHO \"abc\\\r\n")).containsExactly(protocolError("unbalanced quotes in request"));
    }

    @Test
    void onlyTheCarriageReturnBeforeTheLineFeedIsStripped() {
        assertThat(decode("ECHO 'a\r'\r\n")).containsExactly(args("ECHO", "a\r"));
    }
}
