package io.kvd.server.aof;

import io.kvd.server.config.Directive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Redis 7's AOF manifest (aof.c's aofManifest): which files of the AOF directory hold the
 * dataset, the base first, then the history files a rewrite replaced, then the incr files in
 * sequence order, one line each: {@code file <name> seq <n> type <b|h|i>}. Parsed as strictly as
 * aofLoadManifestFromFile, with its error texts; written as getAofManifestAsString. A change is
 * made on a {@link #copy} that replaces the manifest only once it is on disk, as Redis does.
 */
final class AofManifest {
    /** Redis's MANIFEST_MAX_LINE: fgets reads at most this much of a line. */
    private static final int MAX_LINE = 1024;
    static final String INVALID_FORMAT = "Invalid AOF manifest file format";

    /** appendfilename: every file's name starts with it. */
    private final String prefix;
    private AofInfo base;
    private final Deque<AofInfo> history;
    private final List<AofInfo> incrs;
    private long baseSeq;
    private long incrSeq;

    AofManifest(String prefix) {
        this(prefix, null, new ArrayDeque<>(), new ArrayList<>(), 0, 0);
    }

    private AofManifest(String prefix, AofInfo base, Deque<AofInfo> history, List<AofInfo> incrs, long baseSeq,
                        long incrSeq) {
        this.prefix = prefix;
        this.base = base;
        this.history = history;
        this.incrs = incrs;
        this.baseSeq = baseSeq;
        this.incrSeq = incrSeq;
    }

    AofManifest copy() {
        return new AofManifest(prefix, base, new ArrayDeque<>(history), new ArrayList<>(incrs), baseSeq, incrSeq);
    }

    /** The base file, or null (an AOF of incr files only, or none yet). */
    AofInfo base() {
        return base;
    }

    List<AofInfo> incrs() {
        return incrs;
    }

    List<AofInfo> history() {
        return List.copyOf(history);
    }

    /** Neither a base nor an incr file: no AOF. */
    boolean isEmpty() {
        return base == null && incrs.isEmpty();
    }

    /**
     * Parses a manifest as aofLoadManifestFromFile: comment lines skipped, every other line
     * complete (ending in a newline), at most 1024 bytes, and naming a file, a sequence number
     * other than 0 and a known type; one base at most; incr sequence numbers increasing.
     */
    static AofManifest parse(byte[] text, String prefix) throws AofManifestException {
        AofManifest manifest = new AofManifest(prefix);
        if (text.length == 0) {
            throw new AofManifestException("Found an empty AOF manifest", 0, null);
        }
        long maxIncrSeq = 0;
        int lineNumber = 0;
        for (int start = 0; start < text.length; ) {
            // As fgets into a buffer of MAX_LINE + 1: up to the newline, or MAX_LINE bytes.
            int end = start;
            while (end < text.length && end - start < MAX_LINE && text[end] != '\n') {
                end++;
            }
            boolean complete = end < text.length && text[end] == '\n';
            String raw = new String(text, start, end - start, StandardCharsets.UTF_8);
            start = complete ? end + 1 : end;
            lineNumber++;
            if (raw.startsWith("#")) {
                continue;
            }
            if (!complete) {
                throw new AofManifestException("The AOF manifest file contains too long line", lineNumber, null);
            }
            String line = trim(raw);
            if (line.isEmpty()) {
                throw new AofManifestException(INVALID_FORMAT, lineNumber, line);
            }
            manifest.add(parseLine(line, lineNumber), maxIncrSeq, lineNumber, line);
            if (!manifest.incrs.isEmpty()) {
                maxIncrSeq = manifest.incrSeq;
            }
        }
        return manifest;
    }

    private static AofInfo parseLine(String line, int lineNumber) throws AofManifestException {
        List<String> words = Directive.split(line, StandardCharsets.UTF_8);
        // Six words at least, in pairs: more pairs are for later versions (Redis's forward compatibility).
        if (words == null || words.size() < 6 || words.size() % 2 != 0) {
            throw new AofManifestException(INVALID_FORMAT, lineNumber, line);
        }
        String name = null;
        long seq = 0;
        char type = 0;
        for (int i = 0; i < words.size(); i += 2) {
            String key = words.get(i).toLowerCase(Locale.ROOT);
            String value = words.get(i + 1);
            switch (key) {
                case "file" -> {
                    name = value;
                    if (!Directive.isBaseName(name)) {
                        throw new AofManifestException("File can't be a path, just a filename", lineNumber, line);
                    }
                }
                case "seq" -> seq = atoll(value);
                case "type" -> type = value.isEmpty() ? 0 : value.charAt(0);
                default -> {
                }
            }
        }
        if (name == null || seq == 0 || type == 0) {
            throw new AofManifestException(INVALID_FORMAT, lineNumber, line);
        }
        AofInfo.Type known = AofInfo.Type.of(type);
        if (known == null) {
            throw new AofManifestException("Unknown AOF file type", lineNumber, line);
        }
        return new AofInfo(name, seq, known);
    }

    private void add(AofInfo info, long maxIncrSeq, int lineNumber, String line) throws AofManifestException {
        switch (info.type()) {
            case BASE -> {
                if (base != null) {
                    throw new AofManifestException("Found duplicate base file information", lineNumber, line);
                }
                base = info;
                baseSeq = info.seq();
            }
            case HISTORY -> history.addLast(info);
            case INCR -> {
                if (info.seq() <= maxIncrSeq) {
                    throw new AofManifestException("Found a non-monotonic sequence number", lineNumber, line);
                }
                incrs.add(info);
                incrSeq = info.seq();
            }
        }
    }

    /** The manifest's text: the base, the history, the incr files (getAofManifestAsString). */
    String format() {
        StringBuilder text = new StringBuilder();
        if (base != null) {
            formatLine(text, base);
        }
        for (AofInfo info : history) {
            formatLine(text, info);
        }
        for (AofInfo info : incrs) {
            formatLine(text, info);
        }
        return text.toString();
    }

    /** aofInfoFormat: a name with spaces, quotes or unprintable bytes is quoted as sdscatrepr quotes. */
    private static void formatLine(StringBuilder text, AofInfo info) {
        String name = needsQuoting(info.name()) ? Directive.quote(info.name()) : info.name();
        text.append("file ").append(name).append(" seq ").append(info.seq()).append(" type ")
                .append(info.type().letter).append('\n');
    }

    /** Redis's sdsneedsrepr. */
    private static boolean needsQuoting(String name) {
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '\\' || c == '"' || c < 0x21 || c > 0x7e) {
                return true;
            }
        }
        return false;
    }

    /** The upgrade of a single-file AOF (aofUpgradePrepare): that file, by its own name, is the base. */
    void upgradeFrom(String oldFileName) {
        base = new AofInfo(oldFileName, 1, AofInfo.Type.BASE);
        baseSeq = 1;
    }

    /**
     * A new base's name, {@code <appendfilename>.<seq>.base.rdb} or {@code .aof}; the old base
     * becomes history (getNewBaseFileNameAndMarkPreAsHistory).
     */
    String newBase(boolean rdb) {
        if (base != null) {
            history.addFirst(base.as(AofInfo.Type.HISTORY));
        }
        baseSeq++;
        base = new AofInfo(prefix + "." + baseSeq + ".base" + (rdb ? ".rdb" : ".aof"), baseSeq, AofInfo.Type.BASE);
        return base.name();
    }

    /** A new incr file's name, {@code <appendfilename>.<seq>.incr.aof}, added last (getNewIncrAofName). */
    String newIncr() {
        incrSeq++;
        AofInfo incr = new AofInfo(prefix + "." + incrSeq + ".incr.aof", incrSeq, AofInfo.Type.INCR);
        incrs.add(incr);
        return incr.name();
    }

    /** The incr file appended to: the last one, a new one if there is none (getLastIncrAofName). */
    String lastIncr() {
        return incrs.isEmpty() ? newIncr() : incrs.get(incrs.size() - 1).name();
    }

    /**
     * After a rewrite: the incr files its base covers become history, all but the one appended
     * to when the AOF is on (markRewrittenIncrAofAsHistory).
     */
    void markRewrittenIncrsAsHistory(boolean appending) {
        int keep = appending && !incrs.isEmpty() ? 1 : 0;
        while (incrs.size() > keep) {
            history.addFirst(incrs.remove(incrs.size() - 1 - keep).as(AofInfo.Type.HISTORY));
        }
    }

    void clearHistory() {
        history.clear();
    }

    /** C's atoll: leading blanks, a sign, digits up to the first other character; 0 if none. */
    private static long atoll(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        long value = 0;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            value = value * 10 + (text.charAt(i) - '0');
            i++;
        }
        return negative ? -value : value;
    }

    /** sdstrim with " \t\r\n". */
    private static String trim(String line) {
        int from = 0;
        int to = line.length();
        while (from < to && " \t\r\n".indexOf(line.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && " \t\r\n".indexOf(line.charAt(to - 1)) >= 0) {
            to--;
        }
        return line.substring(from, to);
    }
}
