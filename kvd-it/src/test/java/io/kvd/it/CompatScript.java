package io.kvd.it;

import io.kvd.codec.InlineRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A file of commands under {@code compat/} in the test resources, one per line as typed at
 * redis-cli: arguments split on blanks, {@code "..."} with {@code \" \\ \n \r \t \xHH} escapes,
 * {@code '...'}. Blank lines and lines starting with {@code #} are skipped.
 * <p>
 * A line starting with {@code ~ } compares its reply as an unordered collection, one starting
 * with {@code ~2 } as unordered (field, value) pairs ({@link ReplyOrder}): for the replies Redis
 * gives in hash-table order, e.g. {@code ~2 HGETALL h} of a hashtable-encoded hash.
 * <p>
 * Several clients: a line starting with {@code [n] } runs on connection n (1 without it). A
 * command ending in {@code " &"} is sent and expected to block: the runner waits until the server
 * lists the connection as blocked. A line {@code [n] <} reads connection n's next reply, e.g. the
 * one a push from another connection gave a blocked client.
 */
record CompatScript(String name, List<Line> lines) {
    private static final String DIRECTORY = "compat";

    /**
     * One line: where it was written, the connection it uses, what it does, its arguments (none
     * for {@link Action#READ}) and how its reply is compared.
     */
    record Line(int number, String text, int connection, Action action, byte[][] args, ReplyOrder order) {
    }

    /** What a line does on its connection. */
    enum Action {
        /** Sends the command and reads its reply. */
        CALL,
        /** Sends the command, which must block. */
        BLOCK,
        /** Reads the next reply. */
        READ
    }

    /** Every {@code compat/*.txt}, by name. */
    static List<CompatScript> all() {
        URL directory = CompatScript.class.getClassLoader().getResource(DIRECTORY);
        if (directory == null) {
            throw new AssertionError("no " + DIRECTORY + "/ directory on the test classpath");
        }
        try (Stream<Path> files = Files.list(Path.of(directory.toURI()))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".txt"))
                    .sorted()
                    .map(CompatScript::read)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static CompatScript read(Path file) {
        try {
            return parse(file.getFileName().toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CompatScript parse(String name, List<String> textLines) {
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < textLines.size(); i++) {
            String text = textLines.get(i).strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            int connection = 1;
            String rest = text;
            if (rest.startsWith("[")) {
                int close = rest.indexOf("] ");
                if (close < 2 || !rest.substring(1, close).chars().allMatch(Character::isDigit)) {
                    throw new IllegalArgumentException(name + ":" + (i + 1) + ": bad connection prefix ([n] and a blank): " + text);
                }
                connection = Integer.parseInt(rest.substring(1, close));
                rest = rest.substring(close + 2).strip();
            }
            if (rest.equals("<")) {
                lines.add(new Line(i + 1, text, connection, Action.READ, new byte[0][], ReplyOrder.EXACT));
                continue;
            }
            Action action = Action.CALL;
            if (rest.endsWith(" &")) {
                action = Action.BLOCK;
                rest = rest.substring(0, rest.length() - 2).strip();
            }
            ReplyOrder order = order(rest);
            if (order == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": unknown marker (~ or ~2 and a blank): " + text);
            }
            String command = rest.substring(marker(order).length());
            byte[][] args = InlineRequest.split(command.getBytes(StandardCharsets.UTF_8));
            if (args == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": unbalanced quotes: " + text);
            }
            lines.add(new Line(i + 1, text, connection, action, args, order));
        }
        return new CompatScript(name, lines);
    }

    /** The order the line's marker asks for, or null for a {@code ~} that is no marker. */
    private static ReplyOrder order(String text) {
        for (ReplyOrder order : List.of(ReplyOrder.UNORDERED_PAIRS, ReplyOrder.UNORDERED)) {
            if (text.startsWith(marker(order))) {
                return order;
            }
        }
        return text.startsWith("~") ? null : ReplyOrder.EXACT;
    }

    /** What starts a line whose reply is compared in this order. */
    private static String marker(ReplyOrder order) {
        return switch (order) {
            case EXACT -> "";
            case UNORDERED -> "~ ";
            case UNORDERED_PAIRS -> "~2 ";
        };
    }
}
