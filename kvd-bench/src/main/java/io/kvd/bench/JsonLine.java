package io.kvd.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads back what {@link ResultJson} writes: one flat object whose values are strings, numbers
 * (as Double), booleans, null, or arrays of numbers. Anything else is rejected.
 */
final class JsonLine {
    private final String text;
    private int at;

    private JsonLine(String text) {
        this.text = text;
    }

    static Map<String, Object> parse(String line) {
        JsonLine parser = new JsonLine(line.strip());
        Map<String, Object> fields = new LinkedHashMap<>();
        parser.expect('{');
        if (parser.peek() != '}') {
            do {
                String name = parser.string();
                parser.expect(':');
                fields.put(name, parser.value());
            } while (parser.accept(','));
        }
        parser.expect('}');
        if (parser.at != parser.text.length()) {
            throw parser.error("text after the object");
        }
        return fields;
    }

    private Object value() {
        char c = peek();
        if (c == '"') {
            return string();
        } else if (c == '[') {
            at++;
            List<Double> numbers = new ArrayList<>();
            if (peek() != ']') {
                do {
                    numbers.add(number());
                } while (accept(','));
            }
            expect(']');
            return numbers;
        } else if (text.startsWith("null", at)) {
            at += 4;
            return null;
        } else if (text.startsWith("true", at)) {
            at += 4;
            return Boolean.TRUE;
        } else if (text.startsWith("false", at)) {
            at += 5;
            return Boolean.FALSE;
        }
        return number();
    }

    private double number() {
        int start = at;
        while (at < text.length() && "+-.eE0123456789".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        try {
            return Double.parseDouble(text.substring(start, at));
        } catch (NumberFormatException e) {
            throw error("a value");
        }
    }

    private String string() {
        expect('"');
        StringBuilder value = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return value.toString();
            }
            if (c == '\\') {
                char escaped = next();
                value.append(escaped == 'u' ? (char) Integer.parseInt(text.substring(at, at += 4), 16) : escaped);
            } else {
                value.append(c);
            }
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw error("more");
        }
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private boolean accept(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("'" + c + "'");
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("expected " + expected + " at offset " + at + " of " + text);
    }
}
