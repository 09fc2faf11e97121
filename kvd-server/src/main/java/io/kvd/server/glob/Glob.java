package io.kvd.server.glob;

import io.kvd.server.protocol.Args;

import java.nio.charset.StandardCharsets;

/**
 * Redis's glob matching (util.c, stringmatchlen) on bytes: {@code *}, {@code ?}, {@code [abc]},
 * {@code [^abc]}, {@code [a-z]} and backslash escapes, with Redis's edge cases kept: an unclosed
 * {@code [} ends the pattern, a reversed range is swapped, {@code *} never matches the empty
 * string on its own ({@code KEYS *} is special-cased by its callers), bytes compare as signed chars.
 *
 * <p>Redis recurses at each {@code *} but gives up entirely once the rest of the pattern fails at
 * every position after a star; so only the innermost star ever backtracks, and this loop keeps
 * just that one instead of recursing (no stack depth proportional to the pattern).
 */
public final class Glob {
    private static final int MATCH = -1;
    private static final int NO_MATCH = -2;

    private final byte[] pattern;
    private final byte[] string;
    private final boolean nocase;
    /** The string position where the most recent segment ended on a star; see {@link #segment}. */
    private int starAt;

    private Glob(byte[] pattern, byte[] string, boolean nocase) {
        this.pattern = pattern;
        this.string = string;
        this.nocase = nocase;
    }

    public static boolean matches(byte[] pattern, byte[] string) {
        return matches(pattern, string, false);
    }

    /** With {@code nocase}, ASCII letters match either case (Redis's stringmatchlen nocase flag). */
    public static boolean matches(byte[] pattern, byte[] string, boolean nocase) {
        return new Glob(pattern, string, nocase).run();
    }

    public static boolean matches(String pattern, String string, boolean nocase) {
        return matches(pattern.getBytes(StandardCharsets.UTF_8), string.getBytes(StandardCharsets.UTF_8), nocase);
    }

    private boolean run() {
        int result = segment(0, 0);
        int star = -1;
        int tryFrom = 0;
        while (true) {
            if (result == MATCH) {
                return true;
            }
            if (result == NO_MATCH) {
                // Redis's star loop: the rest of the pattern failed here, so try it one byte later.
                if (star < 0 || ++tryFrom == string.length) {
                    return false;
                }
            } else {
                star = result;
                tryFrom = starAt;
            }
            result = segment(star + 1, tryFrom);
        }
    }

    /**
     * Matches from pattern position {@code p} and string position {@code s} until the outcome is
     * known without backtracking, or until a star that needs trying at several positions: then
     * returns the star's pattern position and leaves the string position in {@link #starAt}.
     */
    private int segment(int p, int s) {
        while (p < pattern.length && s < string.length) {
            switch (pattern[p]) {
                case '*' -> {
                    while (p + 1 < pattern.length && pattern[p + 1] == '*') {
                        p++;
                    }
                    if (p == pattern.length - 1) {
                        return MATCH;
                    }
                    starAt = s;
                    return p;
                }
                case '?' -> s++;
                case '[' -> {
                    p = bracketEnd(p + 1, string[s]);
                    if (p < 0) {
                        return NO_MATCH;
                    }
                    s++;
                }
                default -> {
                    if (pattern[p] == '\\' && p + 1 < pattern.length) {
                        p++;
                    }
                    if (!same(pattern[p], string[s])) {
                        return NO_MATCH;
                    }
                    s++;
                }
            }
            p++;
            if (s == string.length) {
                while (p < pattern.length && pattern[p] == '*') {
                    p++;
                }
                break;
            }
        }
        return p == pattern.length && s == string.length ? MATCH : NO_MATCH;
    }

    /**
     * Matches {@code c} against the class starting at {@code p} (just after the {@code [}) and
     * returns the position of the class's last byte, or -1 if {@code c} is not in the class.
     */
    private int bracketEnd(int p, byte c) {
        boolean not = p < pattern.length && pattern[p] == '^';
        if (not) {
            p++;
        }
        boolean match = false;
        while (true) {
            if (p == pattern.length) {
                // Unclosed class: Redis steps back so the pattern ends right after it.
                p--;
                break;
            }
            if (pattern[p] == '\\' && pattern.length - p >= 2) {
                p++;
                if (pattern[p] == c) {
                    match = true;
                }
            } else if (pattern[p] == ']') {
                break;
            } else if (pattern.length - p >= 3 && pattern[p + 1] == '-') {
                int start = pattern[p];
                int end = pattern[p + 2];
                int ch = c;
                if (start > end) {
                    int t = start;
                    start = end;
                    end = t;
                }
                if (nocase) {
                    start = Args.toLower(start);
                    end = Args.toLower(end);
                    ch = Args.toLower(ch);
                }
                p += 2;
                if (ch >= start && ch <= end) {
                    match = true;
                }
            } else if (same(pattern[p], c)) {
                match = true;
            }
            p++;
        }
        return match != not ? p : -1;
    }

    private boolean same(byte a, byte b) {
        return nocase ? Args.toLower(a) == Args.toLower(b) : a == b;
    }
}
