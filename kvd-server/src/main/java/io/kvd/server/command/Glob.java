package io.kvd.server.command;

/**
 * Redis's glob-style matching (util.c, stringmatchlen), ported step for step so edge cases such as
 * an unclosed '[' or a trailing '\' behave the same: {@code *}, {@code ?}, {@code [abc]},
 * {@code [^a-z]} and {@code \} escapes.
 */
public final class Glob {
    private final String pattern;
    private final String text;
    private final boolean nocase;
    /** Set once a '*' failed against every suffix: a longer prefix cannot match either. */
    private boolean skipLongerMatches;

    private Glob(String pattern, String text, boolean nocase) {
        this.pattern = pattern;
        this.text = text;
        this.nocase = nocase;
    }

    public static boolean matches(String pattern, String text, boolean nocase) {
        return new Glob(pattern, text, nocase).match(0, 0, 0);
    }

    private boolean match(int p, int s, int nesting) {
        // Redis's bound on '*' recursion, so a hostile pattern cannot exhaust the stack.
        if (nesting > 1000) {
            return false;
        }
        int plen = pattern.length() - p;
        int slen = text.length() - s;
        while (plen > 0 && slen > 0) {
            switch (pat(p)) {
                case '*' -> {
                    while (plen > 0 && pat(p + 1) == '*') {
                        p++;
                        plen--;
                    }
                    if (plen == 1) {
                        return true;
                    }
                    while (slen > 0) {
                        if (match(p + 1, s, nesting + 1)) {
                            return true;
                        }
                        if (skipLongerMatches) {
                            return false;
                        }
                        s++;
                        slen--;
                    }
                    skipLongerMatches = true;
                    return false;
                }
                case '?' -> {
                    s++;
                    slen--;
                }
                case '[' -> {
                    p++;
                    plen--;
                    boolean not = pat(p) == '^';
                    if (not) {
                        p++;
                        plen--;
                    }
                    boolean matched = false;
                    while (true) {
                        if (pat(p) == '\\' && plen >= 2) {
                            p++;
                            plen--;
                            matched |= pat(p) == text.charAt(s);
                        } else if (pat(p) == ']') {
                            break;
                        } else if (plen == 0) {
                            p--;
                            plen++;
                            break;
                        } else if (plen >= 3 && pat(p + 1) == '-') {
                            int start = pat(p);
                            int end = pat(p + 2);
                            int c = text.charAt(s);
                            if (start > end) {
                                int t = start;
                                start = end;
                                end = t;
                            }
                            if (nocase) {
                                start = Args.toLower(start);
                                end = Args.toLower(end);
                                c = Args.toLower(c);
                            }
                            p += 2;
                            plen -= 2;
                            matched |= c >= start && c <= end;
                        } else {
                            matched |= same(pat(p), text.charAt(s));
                        }
                        p++;
                        plen--;
                    }
                    if (not == matched) {
                        return false;
                    }
                    s++;
                    slen--;
                }
                default -> {
                    if (pat(p) == '\\' && plen >= 2) {
                        p++;
                        plen--;
                    }
                    if (!same(pat(p), text.charAt(s))) {
                        return false;
                    }
                    s++;
                    slen--;
                }
            }
            p++;
            plen--;
            if (slen == 0) {
                while (pat(p) == '*') {
                    p++;
                    plen--;
                }
                break;
            }
        }
        return plen == 0 && slen == 0;
    }

    /** The pattern's character at {@code i}, or 0 past its end (C's terminating NUL). */
    private char pat(int i) {
        return i < pattern.length() ? pattern.charAt(i) : 0;
    }

    private boolean same(char a, char b) {
        return nocase ? Args.toLower(a) == Args.toLower(b) : a == b;
    }
}
