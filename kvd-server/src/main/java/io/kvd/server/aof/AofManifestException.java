package io.kvd.server.aof;

/**
 * A manifest Redis would refuse, with Redis's text (aofLoadManifestFromFile), and the line it
 * was reading when there is one.
 */
public final class AofManifestException extends Exception {
    private final int lineNumber;
    private final String line;

    AofManifestException(String message, int lineNumber, String line) {
        super(message, null, false, false);
        this.lineNumber = lineNumber;
        this.line = line;
    }

    /** 1-based; meaningful only when {@link #line} is not null. */
    int lineNumber() {
        return lineNumber;
    }

    /** The offending line, trimmed; null when the error is not about one line (an empty manifest). */
    String line() {
        return line;
    }
}
