package io.kvd.server.command;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GlobTest {
    @Test
    void starMatchesAnyRunIncludingEmpty() {
        assertThat(Glob.matches("h*o", "hello", false)).isTrue();
        assertThat(Glob.matches("h*", "h", false)).isTrue();
        assertThat(Glob.matches("h*x", "hello", false)).isFalse();
    }

    @Test
    void starDoesNotMatchTheEmptyTextAsInRedis() {
        assertThat(Glob.matches("*", "", false)).isFalse();
        assertThat(Glob.matches("", "", false)).isTrue();
    }

    @Test
    void questionMarkMatchesExactlyOneCharacter() {
        assertThat(Glob.matches("h?llo", "hello", false)).isTrue();
        assertThat(Glob.matches("h?llo", "hllo", false)).isFalse();
    }

    @Test
    void classesMatchListedCharactersRangesAndNegations() {
        assertThat(Glob.matches("h[ae]llo", "hallo", false)).isTrue();
        assertThat(Glob.matches("h[ae]llo", "hillo", false)).isFalse();
        assertThat(Glob.matches("h[a-c]llo", "hbllo", false)).isTrue();
        assertThat(Glob.matches("h[c-a]llo", "hbllo", false)).isTrue();
        assertThat(Glob.matches("h[^e]llo", "hallo", false)).isTrue();
        assertThat(Glob.matches("h[^e]llo", "hello", false)).isFalse();
    }

    @Test
    void backslashEscapesASpecialCharacter() {
        assertThat(Glob.matches("a\\*b", "a*b", false)).isTrue();
        assertThat(Glob.matches("a\\*b", "axb", false)).isFalse();
        assertThat(Glob.matches("h[\\]]", "h]", false)).isTrue();
    }

    @Test
    void unclosedClassEndsAtThePatternsEnd() {
        assertThat(Glob.matches("h[ab", "ha", false)).isTrue();
        assertThat(Glob.matches("h[ab", "hc", false)).isFalse();
    }

    @Test
    void nocaseIgnoresAsciiCaseIncludingInRanges() {
        assertThat(Glob.matches("HZ", "hz", true)).isTrue();
        assertThat(Glob.matches("HZ", "hz", false)).isFalse();
        assertThat(Glob.matches("[A-C]x", "bx", true)).isTrue();
    }

    @Test
    void manyStarsAgainstANonMatchingTextStayFast() {
        assertThat(Glob.matches("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(100), false)).isFalse();
    }
}
