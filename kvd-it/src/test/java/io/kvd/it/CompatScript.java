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
 */
record CompatScript(String name, List<Line> lines) {
    private static final String DIRECTORY = "compat";

    /** One command: where it was written, its arguments and how its reply is compared. */
    record Line(int number, String text, byte[][] args, ReplyOrder order) {
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
            ReplyOrder order = order(text);
            if (order == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": unknown marker (~ or ~2 and a blank): " + text);
            }
            String command = text.substring(marker(order).length());
            byte[][] args = InlineRequest.split(command.getBytes(StandardCharsets.UTF_8));
            if (args == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": unbalanced quotes: " + text);
            }
            lines.add(new Line(i + 1, text, args, order));
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
