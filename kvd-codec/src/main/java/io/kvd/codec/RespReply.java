package io.kvd.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** A RESP2 reply as a client sees it. */
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
}
