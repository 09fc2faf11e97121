package io.kvd.server.config;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One configuration directive: its default as written in kvd.conf, whether CONFIG SET may change
 * it, how its words become the normalized value CONFIG GET shows (or why they cannot), and how
 * CONFIG REWRITE writes that value back.
 */
public record Directive(String name, String defaultText, boolean mutable, Function<List<String>, String> parser,
                        Form form) {

    /** How CONFIG REWRITE writes a value, as Redis's rewrite function of the config's type (config.c). */
    public enum Form {
        /** As CONFIG GET shows it: booleans, enumerations, integers. */
        PLAIN,
        /** A size, in gb, mb or kb where one divides it (rewriteConfigFormatMemory); a percentage as n%. */
        MEMORY,
        /** Quoted and escaped as sdscatrepr does (rewriteConfigStringOption). */
        STRING,
        /** A string that is unset when empty (Redis's EMPTY_STRING_IS_NULL): then its lines are removed. */
        OPTIONAL_STRING
    }

    /** A directive CONFIG REWRITE writes as CONFIG GET shows it. */
    public Directive(String name, String defaultText, boolean mutable, Function<List<String>, String> parser) {
        this(name, defaultText, mutable, parser, Form.PLAIN);
    }

    /** The value of {@link #defaultText}, normalized as CONFIG GET shows values. */
    public String defaultValue() {
        return parse(split(defaultText));
    }

    /** Normalizes the words after the name; IllegalArgumentException says what is wrong. */
    public String parse(List<String> words) {
        return parser.apply(words);
    }

    static String single(List<String> words) {
        if (words.size() != 1) {
            throw new IllegalArgumentException("wrong number of arguments");
        }
        return words.get(0);
    }

    /** A file name inside dir, as Redis's appendfilename: no path. */
    static String fileName(List<String> words) {
        String name = single(words);
        if (!isBaseName(name)) {
            throw new IllegalArgumentException("appendfilename can't be a path, just a filename");
        }
        return name;
    }

    /** A directory name inside dir, as Redis's appenddirname: no path. */
    static String dirName(List<String> words) {
        String name = single(words);
        if (!isBaseName(name)) {
            throw new IllegalArgumentException("appenddirname can't be a path, just a dirname");
        }
        return name;
    }

    /** Redis's pathIsBaseName: neither separator. */
    public static boolean isBaseName(String name) {
        return name.indexOf('/') < 0 && name.indexOf('\\') < 0;
    }

    /** Redis's tls-protocols: any of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3; empty for TLSv1.2 and TLSv1.3. */
    static String tlsProtocols(List<String> words) {
        List<String> protocols = new ArrayList<>();
        for (String word : String.join(" ", words).trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            String protocol = switch (word.toLowerCase(Locale.ROOT)) {
                case "tlsv1" -> "TLSv1";
                case "tlsv1.1" -> "TLSv1.1";
                case "tlsv1.2" -> "TLSv1.2";
                case "tlsv1.3" -> "TLSv1.3";
                default -> throw new IllegalArgumentException("invalid tls-protocols specified: " + word);
            };
            protocols.add(protocol);
        }
        return String.join(" ", protocols);
    }

    /** Percentiles INFO latencystats reports, each 0 to 100; empty for none. Shown as Redis trims a %f. */
    static String percentiles(List<String> words) {
        List<String> out = new ArrayList<>();
        for (String word : String.join(" ", words).trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            double percentile;
            try {
                percentile = Double.parseDouble(word);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid latency-tracking-info-percentiles parameters");
            }
            if (!(percentile >= 0 && percentile <= 100)) {
                throw new IllegalArgumentException("latency-tracking-info-percentiles parameters should sit between [0.0,100.0]");
            }
            String shown = String.format(Locale.ROOT, "%f", percentile).replaceAll("0+$", "").replaceAll("\\.$", "");
            out.add(shown);
        }
        return String.join(" ", out);
    }

    /** unixsocketperm: octal, at most 0777; shown in octal without its leading zero, as Redis's OCTAL_CONFIG. */
    static String octalPermissions(List<String> words) {
        String word = Directive.single(words);
        long value;
        try {
            value = Long.parseLong(word, 8);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("argument couldn't be parsed into an integer");
        }
        if (value < 0 || value > 0777) {
            throw new IllegalArgumentException("argument must be between 0 and 777 inclusive");
        }
        return Long.toOctalString(value);
    }

    /** A boolean as Redis's yesnotoi reads it. */
    static String yesNo(List<String> words) {
        String word = single(words).toLowerCase(Locale.ROOT);
        if (!word.equals("yes") && !word.equals("no")) {
            throw new IllegalArgumentException("argument must be 'yes' or 'no'");
        }
        return word;
    }

    /**
     * save: pairs of {@code <seconds> <changes>}, or "" for none, as Redis's setConfigSaveOption
     * checks them.
     */
    static String savePoints(List<String> words) {
        String[] parts = String.join(" ", words).trim().split("\\s+");
        if (parts.length == 1 && parts[0].isEmpty()) {
            return "";
        }
        if (parts.length % 2 != 0) {
            throw new IllegalArgumentException("Invalid save parameters");
        }
        List<String> points = new ArrayList<>();
        for (String part : parts) {
            try {
                long value = Long.parseLong(part);
                if (value < 0 || value > Integer.MAX_VALUE) {
                    throw new NumberFormatException(part);
                }
                points.add(String.valueOf(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid save parameters");
            }
        }
        return String.join(" ", points);
    }

    /** replicaof: only {@code no one} (a master), which is what kvd is. */
    /** replicaof host port, or "" (and "no one") for none. */
    static String replicaOf(List<String> words) {
        String value = String.join(" ", words).trim();
        if (value.isEmpty() || value.equalsIgnoreCase("no one")) {
            return "";
        }
        if (words.size() != 2) {
            throw new IllegalArgumentException("wrong number of arguments");
        }
        // Redis's strtol check: digits only, 0 to 65535.
        String port = words.get(1);
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("Invalid master port");
        }
        return words.get(0) + " " + port;
    }

    static String words(List<String> words) {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("wrong number of arguments");
        }
        return String.join(" ", words);
    }

    static Function<List<String>, String> integer(long min, long max) {
        return words -> {
            return String.valueOf(inRange(integerValue(single(words)), min, max));
        };
    }

    /** The client classes of client-output-buffer-limit, in the order CONFIG GET shows them. */
    static final List<String> CLIENT_CLASSES = List.of("normal", "slave", "pubsub");

    /**
     * {@code <class> <hard> <soft> <seconds>} for one or more classes, as one value (CONFIG SET) or
     * as words (the file), with Redis's error texts. Normalized to just the classes given (replica
     * read as slave); {@link #mergeOutputBufferLimits} sets them over the current value, as Redis
     * changes only the classes named.
     */
    static String outputBufferLimit(List<String> words) {
        String[] parts = String.join(" ", words).trim().split("\\s+");
        if (parts.length % 4 != 0) {
            throw new IllegalArgumentException("Wrong number of arguments in buffer limit configuration.");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i += 4) {
            String name = parts[i].toLowerCase(Locale.ROOT);
            String clientClass = name.equals("replica") ? "slave" : name;
            if (!CLIENT_CLASSES.contains(clientClass)) {
                throw new IllegalArgumentException("Invalid client class specified in buffer limit configuration.");
            }
            long hard = memtoll(parts[i + 1]);
            long soft = memtoll(parts[i + 2]);
            long seconds = inRange(integerValue(parts[i + 3]), 0, Integer.MAX_VALUE);
            if (hard < 0 || soft < 0) {
                throw new IllegalArgumentException("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
            }
            out.append(out.length() == 0 ? "" : " ").append(clientClass).append(' ').append(hard).append(' ')
                    .append(soft).append(' ').append(seconds);
        }
        return out.toString();
    }

    /** {@code current} (every class, or null) with the classes {@code update} names replaced; every class, in order. */
    static String mergeOutputBufferLimits(String current, String update) {
        String[] limits = new String[CLIENT_CLASSES.size()];
        for (String text : new String[]{current, update}) {
            if (text == null) {
                continue;
            }
            String[] parts = text.split(" ");
            for (int i = 0; i < parts.length; i += 4) {
                limits[CLIENT_CLASSES.indexOf(parts[i])] = String.join(" ", parts[i], parts[i + 1], parts[i + 2], parts[i + 3]);
            }
        }
        return String.join(" ", limits);
    }

    /** A size as Redis's memtoll reads it: 100, 1k (1000), 1kb (1024), 5m, 5mb, 1g, 1gb. */
    static Function<List<String>, String> memory(long min, long max) {
        return words -> String.valueOf(inRange(memtoll(single(words)), min, max));
    }

    static Function<List<String>, String> oneOf(String... allowed) {
        return words -> {
            String word = single(words).toLowerCase(Locale.ROOT);
            for (String a : allowed) {
                if (a.equals(word)) {
                    return a;
                }
            }
            throw new IllegalArgumentException("argument(s) must be one of the following: "
                    + String.join(", ", quoted(allowed)));
        };
    }

    /** A size as Redis's memtoll reads it (100, 1k = 1000, 1kb = 1024, ... gb); IllegalArgumentException if it is none. */
    public static long memtoll(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        long unit = 1;
        String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"gb", "1073741824"},
                {"k", "1000"}, {"m", "1000000"}, {"g", "1000000000"}, {"b", "1"}};
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                s = s.substring(0, s.length() - u[0].length());
                break;
            }
        }
        try {
            // As Redis's memtoull: a size is never negative, "-0" included.
            if (s.startsWith("-")) {
                throw new NumberFormatException(text);
            }
            return Math.multiplyExact(Long.parseLong(s), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("argument must be a memory value");
        }
    }

    private static long integerValue(String word) {
        try {
            return Long.parseLong(word);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("argument couldn't be parsed into an integer");
        }
    }

    private static long inRange(long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("argument must be between " + min + " and " + max + " inclusive");
        }
        return value;
    }

    private static List<String> quoted(String[] words) {
        List<String> out = new ArrayList<>();
        for (String w : words) {
            out.add(w.isEmpty() ? "\"\"" : w);
        }
        return out;
    }

    /**
     * Quotes a word as Redis's sdscatrepr: double quotes, C escapes, {@code \\xHH} for bytes that
     * are not printable ASCII; {@link #split} reads it back as the same word. CONFIG REWRITE writes
     * strings so, and command-line options are joined into a line so, as redis-server does.
     */
    public static String quote(String word) {
        StringBuilder out = new StringBuilder("\"");
        for (byte b : word.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            switch (c) {
                case '\\', '"' -> out.append('\\').append((char) c);
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 7 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        out.append((char) c);
                    } else {
                        out.append(String.format("\\x%02x", c));
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /**
     * Splits a line into words as Redis's sdssplitargs: spaces separate; "..." quotes with C
     * escapes and {@code \\xHH} bytes; '...' quotes with only {@code \\'}; a closing quote must
     * end the word. Null when the quotes are unbalanced or a closing quote is followed by more.
     */
    static List<String> split(String line) {
        return split(line, StandardCharsets.UTF_8);
    }

    /** {@link #split(String)} of text whose chars are bytes in {@code charset} (ACL rules keep Latin-1: one per byte). */
    public static List<String> split(String line, Charset charset) {
        byte[] bytes = line.getBytes(charset);
        List<String> words = new ArrayList<>();
        int i = 0;
        int n = bytes.length;
        while (true) {
            while (i < n && isSpace(bytes[i])) {
                i++;
            }
            if (i == n) {
                return words;
            }
            ByteArrayOutputStream word = new ByteArrayOutputStream();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                if (i == n) {
                    if (inDouble || inSingle) {
                        return null;
                    }
                    break;
                }
                byte c = bytes[i];
                if (inDouble) {
                    if (c == '\\' && i + 3 < n && bytes[i + 1] == 'x' && isHex(bytes[i + 2]) && isHex(bytes[i + 3])) {
                        word.write(Character.digit(bytes[i + 2], 16) * 16 + Character.digit(bytes[i + 3], 16));
                        i += 3;
                    } else if (c == '\\' && i + 1 < n) {
                        byte escaped = bytes[++i];
                        word.write(switch (escaped) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> escaped;
                        });
                    } else if (c == '"') {
                        if (i + 1 < n && !isSpace(bytes[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        word.write(c);
                    }
                } else if (inSingle) {
                    if (c == '\\' && i + 1 < n && bytes[i + 1] == '\'') {
                        word.write('\'');
                        i++;
                    } else if (c == '\'') {
                        if (i + 1 < n && !isSpace(bytes[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        word.write(c);
                    }
                } else if (isSpace(c)) {
                    done = true;
                } else if (c == '"') {
                    inDouble = true;
                } else if (c == '\'') {
                    inSingle = true;
                } else {
                    word.write(c);
                }
                i++;
            }
            words.add(word.toString(charset));
        }
    }

    /** C's isspace. */
    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0x0b || c == '\f';
    }

    private static boolean isHex(byte c) {
        return Character.digit(c, 16) >= 0;
    }
}
