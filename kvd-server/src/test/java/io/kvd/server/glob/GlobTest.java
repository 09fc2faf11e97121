package io.kvd.server.glob;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected results checked against redis-server 7.0.15 (KEYS with one key). */
class GlobTest {

    /** Pattern and string given as ISO-8859-1, so that each char is one byte. */
    private static boolean matches(String pattern, String string) {
        return Glob.matches(latin1(pattern), latin1(string));
    }

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void literalPatternMatchesOnlyItself() {
        assertThat(matches("hello", "hello")).isTrue();
        assertThat(matches("hello", "hell")).isFalse();
        assertThat(matches("hello", "helloo")).isFalse();
    }

    @Test
    void emptyPatternMatchesOnlyTheEmptyString() {
        assertThat(matches("", "")).isTrue();
        assertThat(matches("", "a")).isFalse();
    }

    @Test
    void starMatchesAnyNonEmptyRunButNeverTheEmptyStringAlone() {
        assertThat(matches("*", "anything")).isTrue();
        assertThat(matches("*", "")).isFalse();
        assertThat(matches("**", "")).isFalse();
    }

    @Test
    void trailingStarsMatchNothingAfterTheString() {
        assertThat(matches("a*", "a")).isTrue();
        assertThat(matches("a**", "a")).isTrue();
        assertThat(matches("a*", "abc")).isTrue();
    }

    @Test
    void starBacktracksToLaterPositions() {
        assertThat(matches("*ab", "aab")).isTrue();
        assertThat(matches("a*b*c", "abxbxc")).isTrue();
        assertThat(matches("*a*b", "xaxxb")).isTrue();
        assertThat(matches("*a*b", "xaxxc")).isFalse();
    }

    @Test
    void questionMarkMatchesExactlyOneByte() {
        assertThat(matches("h?llo", "hello")).isTrue();
        assertThat(matches("h?llo", "hllo")).isFalse();
        assertThat(matches("?", "\u00e9")).isTrue();
    }

    @Test
    void classMatchesOneOfItsBytes() {
        assertThat(matches("h[ae]llo", "hallo")).isTrue();
        assertThat(matches("h[ae]llo", "hillo")).isFalse();
    }

    @Test
    void caretNegatesAClass() {
        assertThat(matches("h[^e]llo", "hallo")).isTrue();
        assertThat(matches("h[^e]llo", "hello")).isFalse();
    }

    @Test
    void rangeMatchesInclusiveAndReversedRangeIsSwapped() {
        assertThat(matches("h[a-c]llo", "hcllo")).isTrue();
        assertThat(matches("h[a-c]llo", "hdllo")).isFalse();
        assertThat(matches("h[b-a]llo", "hallo")).isTrue();
    }

    @Test
    void dashAfterARangeIsALiteral() {
        assertThat(matches("[a-c-e]", "-")).isTrue();
        assertThat(matches("[a-c-e]", "d")).isFalse();
    }

    @Test
    void closingBracketRightAfterOpeningClosesAnEmptyClass() {
        assertThat(matches("[]", "]")).isFalse();
        assertThat(matches("[]a]", "]")).isFalse();
        assertThat(matches("[]a]", "a")).isFalse();
    }

    @Test
    void unclosedClassEndsThePattern() {
        assertThat(matches("[abc", "a")).isTrue();
        assertThat(matches("[abc", "ab")).isFalse();
        assertThat(matches("[", "[")).isFalse();
        assertThat(matches("a[", "a")).isFalse();
        assertThat(matches("[^", "x")).isTrue();
    }

    @Test
    void rangeReachingPastTheClosingBracketTakesItAsTheEnd() {
        // "[a-]" is the range ']'..'a' in a class left unclosed.
        assertThat(matches("[a-]", "^")).isTrue();
        assertThat(matches("[a-]", "-")).isFalse();
    }

    @Test
    void backslashEscapesTheNextByte() {
        assertThat(matches("\\*", "*")).isTrue();
        assertThat(matches("\\*", "a")).isFalse();
        assertThat(matches("[\\]]", "]")).isTrue();
    }

    @Test
    void trailingBackslashIsALiteralBackslash() {
        assertThat(matches("\\", "\\")).isTrue();
    }

    @Test
    void rangesCompareBytesAsSignedChars() {
        // 0xE9 is -23 as a C char, so [a-\xE9] is the range -23..'a'.
        assertThat(matches("[a-\u00e9]", "\u0000")).isTrue();
        assertThat(matches("[a-\u00e9]", "\u00e9")).isTrue();
        assertThat(matches("[a-\u00e9]", "b")).isFalse();
        assertThat(matches("[\u0000-\u00ff]", "\u0080")).isFalse();
    }

    @Test
    void nocaseFoldsAsciiLettersInLiteralsAndRanges() {
        assertThat(Glob.matches("HeLLo", "hello", true)).isTrue();
        assertThat(Glob.matches("HeLLo", "hello", false)).isFalse();
        assertThat(Glob.matches("[A-C]", "b", true)).isTrue();
        assertThat(Glob.matches("[xY]", "y", true)).isTrue();
    }

    @Test
    void nocaseDoesNotApplyToEscapedBytesInAClass() {
        assertThat(Glob.matches("[\\A]", "a", true)).isFalse();
        assertThat(Glob.matches("\\A", "a", true)).isTrue();
    }

    @Test
    void manyStarsNeedNoDeepRecursion() {
        String pattern = "*a".repeat(100_000);
        assertThat(matches(pattern, "a".repeat(200_000))).isTrue();
        assertThat(matches(pattern + "b", "a".repeat(200_000))).isFalse();
    }
}
