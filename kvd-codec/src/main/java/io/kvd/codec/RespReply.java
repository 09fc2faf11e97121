package io.kvd.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** A RESP2 or RESP3 reply as a client sees it. */
public sealed interface RespReply {

    /** {@code +value\r\n} */
    record SimpleString(String value) implements RespReply {
        @Override
        public String toString() {
            return "+" + value;
        }
    }

    /** {@code -message\r\n}; the message starts with its code, as in {@code ERR syntax error}. */
    record Error(String message) implements RespReply {
        @Override
        public String toString() {
            return "-" + message;
        }
    }

    /** {@code :value\r\n} */
    record Integer(long value) implements RespReply {
        @Override
        public String toString() {
            return ":" + value;
        }
    }

    /** {@code $len\r\nbytes\r\n}; a null value is the null bulk {@code $-1\r\n}. */
    record BulkString(byte[] value) implements RespReply {
        public static BulkString of(String utf8) {
            return new BulkString(utf8.getBytes(StandardCharsets.UTF_8));
        }

        /** The value decoded as UTF-8, or null for the null bulk. */
        public String utf8() {
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BulkString bulk && Arrays.equals(value, bulk.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        /** The value quoted, with bytes outside printable ASCII escaped, so test failures show what arrived. */
        @Override
        public String toString() {
            if (value == null) {
                return "$null";
            }
            StringBuilder text = new StringBuilder(value.length + 3).append("$\"");
            for (byte b : value) {
                if (b == '"' || b == '\\') {
                    text.append('\\').append((char) b);
                } else if (b >= 0x20 && b < 0x7f) {
                    text.append((char) b);
                } else {
                    text.append(String.format("\\x%02x", b & 0xff));
                }
            }
            return text.append('"').toString();
        }
    }

    /** {@code *count\r\n} followed by the elements; null elements is the null array {@code *-1\r\n}. */
    record Array(List<RespReply> elements) implements RespReply {
        public static Array of(RespReply... elements) {
            return new Array(List.of(elements));
        }

        @Override
        public String toString() {
            return elements == null ? "*null" : "*" + elements;
        }
    }

    /** RESP3's {@code %count\r\n}: keys and values alternating, {@code 2 * count} elements. */
    record Map(List<RespReply> elements) implements RespReply {
        @Override
        public String toString() {
            return "%" + elements;
        }
    }

    /** RESP3's {@code ~count\r\n} followed by the elements. */
    record Set(List<RespReply> elements) implements RespReply {
        @Override
        public String toString() {
            return "~" + elements;
        }
    }

    /** RESP3's {@code >count\r\n}: an out-of-band message (pub/sub, invalidation) and its elements. */
    record Push(List<RespReply> elements) implements RespReply {
        @Override
        public String toString() {
            return ">" + elements;
        }
    }

    /**
     * RESP3's {@code |count\r\n} attribute (keys and values alternating, as a map's) and the reply it
     * comes before, which it describes.
     */
    record Attribute(List<RespReply> elements, RespReply reply) implements RespReply {
        @Override
        public String toString() {
            return "|" + elements + reply;
        }
    }

    /** RESP3's {@code _\r\n}. */
    record Null() implements RespReply {
        @Override
        public String toString() {
            return "_";
        }
    }

    /** RESP3's {@code ,text\r\n}, kept as the server wrote it ({@code 1.5}, {@code inf}, {@code nan}). */
    record Double(String text) implements RespReply {
        @Override
        public String toString() {
            return "," + text;
        }
    }

    /** RESP3's {@code #t\r\n} or {@code #f\r\n}. */
    record Boolean(boolean value) implements RespReply {
        @Override
        public String toString() {
            return value ? "#t" : "#f";
        }
    }

    /** RESP3's {@code (digits\r\n}. */
    record BigNumber(String digits) implements RespReply {
        @Override
        public String toString() {
            return "(" + digits;
        }
    }

    /** RESP3's {@code =len\r\nfmt:text\r\n}: a three-letter format ({@code txt}, {@code mkd}) and the text. */
    record Verbatim(String format, String text) implements RespReply {
        @Override
        public String toString() {
            return "=" + format + ":" + text;
        }
    }
}
