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
 */
record CompatScript(String name, List<Line> lines) {
    private static final String DIRECTORY = "compat";

    /** One command: where it was written and its arguments. */
    record Line(int number, String text, byte[][] args) {
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
            byte[][] args = InlineRequest.split(text.getBytes(StandardCharsets.UTF_8));
            if (args == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": unbalanced quotes: " + text);
            }
            lines.add(new Line(i + 1, text, args));
        }
        return new CompatScript(name, lines);
    }
}
