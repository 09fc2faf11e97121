package io.kvd.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits an inline request line into arguments the way Redis's {@code sdssplitargs} does: blanks
 * separate arguments; {@code "..."} understands {@code \n \r \t \b \a \xHH} and {@code \<any>};
 * {@code '...'} understands only {@code \'}; a closing quote must be followed by a blank or the end.
 * Public for kvd-it, whose command scripts are written as redis-cli lines.
 */
public final class InlineRequest {
    private InlineRequest() {
    }

    /**
     * Returns the arguments (possibly none), or null when a quote is unbalanced. The line holds no
     * NUL byte (Redis never completes such a line) and is unescaped in place, which is safe because
     * an escape never produces more bytes than it consumes.
     */
    public static byte[][] split(byte[] line) {
        List<byte[]> arguments = new ArrayList<>();
        int read = 0;
        while (true) {
            while (read < line.length && isSpace(line[read])) {
                read++;
            }
            if (read == line.length) {
                return arguments.toArray(new byte[0][]);
            }
            int start = read;
            int write = read;
            boolean inDoubleQuotes = false;
            boolean inSingleQuotes = false;
            boolean done = false;
            while (!done) {
                byte c = at(line, read);
                if (inDoubleQuotes) {
                    if (c == '\\' && at(line, read + 1) == 'x'
                            && isHexDigit(at(line, read + 2)) && isHexDigit(at(line, read + 3))) {
                        line[write++] = (byte) (hexValue(at(line, read + 2)) * 16 + hexValue(at(line, read + 3)));
                        read += 3;
                    } else if (c == '\\' && at(line, read + 1) != 0) {
                        read++;
                        line[write++] = unescape(line[read]);
                    } else if (c == '"') {
                        if (!endsArgument(at(line, read + 1))) {
                            return null;
                        }
                        done = true;
                    } else if (c == 0) {
                        return null;
                    } else {
                        line[write++] = c;
                    }
                } else if (inSingleQuotes) {
                    if (c == '\\' && at(line, read + 1) == '\'') {
                        read++;
                        line[write++] = '\'';
                    } else if (c == '\'') {
                        if (!endsArgument(at(line, read + 1))) {
                            return null;
                        }
                        done = true;
                    } else if (c == 0) {
                        return null;
                    } else {
                        line[write++] = c;
                    }
                } else {
                    switch (c) {
                        case ' ', '\n', '\r', '\t', 0 -> done = true;
                        case '"' -> inDoubleQuotes = true;
                        case '\'' -> inSingleQuotes = true;
                        default -> line[write++] = c;
                    }
                }
                if (read < line.length) {
                    read++;
                }
            }
            arguments.add(Arrays.copyOfRange(line, start, write));
        }
    }

    /** The byte at {@code index}, or 0 past the end, standing in for the C string's terminator. */
    private static byte at(byte[] line, int index) {
        return index < line.length ? line[index] : 0;
    }

    private static boolean endsArgument(byte next) {
        return next == 0 || isSpace(next);
    }

    /** C's isspace in the C locale: unquoted arguments end only at space, tab, CR or LF, but all six are skipped between them. */
    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    private static boolean isHexDigit(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hexValue(byte c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }

    private static byte unescape(byte c) {
        return switch (c) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 0x07;
            default -> c;
        };
    }
}
