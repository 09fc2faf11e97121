package io.kvd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Counts the {@code +OK} replies in a stream of replies, however the reads split it. The first reply
 * that is anything else ends the count: its line is read to its end and quoted in the failure.
 */
final class OkReplyCounter {
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    /** An unexpected reply is quoted up to this many characters. */
    private static final int MAX_QUOTED = 200;

    private long count;
    /** How many bytes of {@code +OK\r\n} the reply being read has matched. */
    private int matched;
    /** The reply being read once it is known not to be {@code +OK}; null until then. */
    private StringBuilder unexpected;

    /** Counts the replies {@code bytes[0, length)} complete. @throws IOException at the end of a reply that is not +OK */
    void consume(byte[] bytes, int length) throws IOException {
        for (int i = 0; i < length; i++) {
            byte b = bytes[i];
            if (unexpected == null) {
                if (b == OK[matched]) {
                    if (++matched == OK.length) {
                        count++;
                        matched = 0;
                    }
                    continue;
                }
                unexpected = new StringBuilder(new String(OK, 0, matched, StandardCharsets.US_ASCII));
            }
            if (b == '\n') {
                throw new IOException("reply " + (count + 1) + " is " + unexpected.toString().strip() + ", not +OK");
            }
            if (unexpected.length() < MAX_QUOTED) {
                unexpected.append((char) b);
            }
        }
    }

    /** The +OK replies so far. */
    long count() {
        return count;
    }
}
