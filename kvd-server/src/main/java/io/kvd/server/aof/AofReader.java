package io.kvd.server.aof;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads an AOF record by record: each a RESP array of bulk strings, as redis-server writes and
 * loads them. The file is read in large chunks and parsed in place; each argument is copied once,
 * into a new array or into one of a record the caller has done with ({@link #next(byte[][])}). A
 * record that runs past the end of the file is a torn tail (a crash in the middle of a write,
 * {@link #isTorn}); bytes that cannot start or continue a record are garbage
 * ({@link AofFormatException}).
 */
final class AofReader {
    /**
     * Bytes read at a time: small enough to stay in the CPU's cache between the read and the
     * parse, and for the first read to be quick (4 MB took 30 ms, mostly faulting in fresh pages,
     * while the replay waited for its first record).
     */
    private static final int CHUNK = 256 << 10;
    /** Longest decimal accepted in a header: more digits cannot be a real count or length. */
    private static final int MAX_DIGITS = 18;
    private static final int NEED_MORE = -1;
    private static final int TORN = -2;

    private final FileChannel channel;
    private final long fileSize;
    private byte[] buf = new byte[CHUNK];
    /** File offset of buf[0]. */
    private long bufStart;
    private int pos;
    private int limit;
    private boolean eof;
    private boolean torn;
    private long records;
    // Results of the parse in progress.
    private byte[][] args;
    private long number;

    AofReader(FileChannel channel) throws IOException {
        this(channel, 0);
    }

    /** Reads from {@code start}: the AOF tail after an old-style file's RDB preamble. */
    AofReader(FileChannel channel, long start) throws IOException {
        this.channel = channel;
        this.fileSize = channel.size();
        this.bufStart = start;
        channel.position(start);
    }

    /** The next record's arguments, or null at the end of the file (see {@link #isTorn}). */
    byte[][] next() throws IOException, AofFormatException {
        return next(null);
    }

    /**
     * As {@link #next()}, reusing {@code done} (a record this reader returned, which nothing holds
     * any more) and its arguments where their lengths fit: a replay's records then leave no garbage.
     */
    byte[][] next(byte[][] done) throws IOException, AofFormatException {
        while (true) {
            int end;
            if (pos < limit && buf[pos] == '#') {
                // An annotation line (Redis's "#TS:<unix time>" with aof-timestamp-enabled): skipped, as Redis's loader skips it.
                end = annotationEnd(pos);
                if (end >= 0) {
                    pos = end;
                    continue;
                }
            } else {
                end = parse(pos, done);
                if (end >= 0) {
                    pos = end;
                    records++;
                    return args;
                }
            }
            if (end == TORN || !fill()) {
                torn = pos < limit || end == TORN;
                return null;
            }
        }
    }

    /** The position after the annotation line at p, or NEED_MORE. */
    private int annotationEnd(int p) {
        for (int i = p; i < limit; i++) {
            if (buf[i] == '\n') {
                return i + 1;
            }
        }
        return NEED_MORE;
    }

    /** The end of the last complete record read. */
    long validUpTo() {
        return bufStart + pos;
    }

    long fileSize() {
        return fileSize;
    }

    long records() {
        return records;
    }

    /** After {@link #next} returned null: the file ends inside a record. */
    boolean isTorn() {
        return torn;
    }

    /**
     * Parses the record at p, into {@code done}'s arrays where they fit; returns its end,
     * NEED_MORE, TORN, or throws on garbage.
     */
    private int parse(int p, byte[][] done) throws AofFormatException {
        if (p >= limit) {
            return NEED_MORE;
        }
        if (buf[p] != '*') {
            throw garbage("expected '*'", p);
        }
        p = parseNumber(p + 1);
        if (p < 0) {
            return p;
        }
        if (number < 1) {
            throw garbage("invalid argument count", p - 1);
        }
        // Never sized from the count alone: each argument takes at least 6 bytes ("$0\r\n\r\n").
        long count = number;
        if (count > (fileSize - (bufStart + p)) / 6) {
            return TORN;
        }
        byte[][] argv = done != null && done.length == count ? done : new byte[(int) count][];
        for (int i = 0; i < count; i++) {
            if (p >= limit) {
                return NEED_MORE;
            }
            if (buf[p] != '$') {
                throw garbage("expected '$'", p);
            }
            p = parseNumber(p + 1);
            if (p < 0) {
                return p;
            }
            long length = number;
            if (length > fileSize - (bufStart + p) - 2) {
                return TORN;
            }
            if (p + length + 2 > limit) {
                return NEED_MORE;
            }
            int end = p + (int) length;
            if (buf[end] != '\r' || buf[end + 1] != '\n') {
                throw garbage("bulk string not followed by CRLF", end);
            }
            argv[i] = copy(p, (int) length, argv[i]);
            p = end + 2;
        }
        args = argv;
        return p;
    }

    /** The {@code length} bytes at p, in {@code into} if it has that length, else in a new array. */
    private byte[] copy(int p, int length, byte[] into) {
        if (into == null || into.length != length) {
            return Arrays.copyOfRange(buf, p, p + length);
        }
        System.arraycopy(buf, p, into, 0, length);
        return into;
    }

    /** Reads the decimal ending in CRLF at p into {@link #number}; returns the position after it. */
    private int parseNumber(int p) throws AofFormatException {
        long value = 0;
        int digits = 0;
        while (true) {
            if (p >= limit) {
                return NEED_MORE;
            }
            byte b = buf[p];
            if (b == '\r') {
                break;
            }
            if (b < '0' || b > '9' || ++digits > MAX_DIGITS) {
                throw garbage("invalid number", p);
            }
            value = value * 10 + (b - '0');
            p++;
        }
        if (digits == 0) {
            throw garbage("invalid number", p);
        }
        if (p + 1 >= limit) {
            return NEED_MORE;
        }
        if (buf[p + 1] != '\n') {
            throw garbage("expected LF", p + 1);
        }
        number = value;
        return p + 2;
    }

    /** Keeps the unparsed bytes and reads more after them; false at the end of the file. */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int kept = limit - pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, kept);
            bufStart += pos;
            pos = 0;
        } else if (kept == buf.length) {
            // One record larger than the buffer: grow (bounded by the file, see parse).
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        limit = kept;
        int n = channel.read(ByteBuffer.wrap(buf, limit, buf.length - limit));
        if (n < 0) {
            eof = true;
            return false;
        }
        limit += n;
        return true;
    }

    private AofFormatException garbage(String problem, int at) {
        return new AofFormatException(problem, bufStart + at, bufStart + pos);
    }
}
