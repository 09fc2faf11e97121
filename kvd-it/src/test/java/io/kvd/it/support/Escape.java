package io.kvd.it.support;

/** Bytes shown as text for failure messages: printable ASCII as is, the rest as C-style escapes. */
public final class Escape {
    private Escape() {
    }

    public static String bytes(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length + 2).append('"');
        for (byte b : bytes) {
            switch (b) {
                case '\r' -> text.append("\\r");
                case '\n' -> text.append("\\n");
                case '\t' -> text.append("\\t");
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                default -> {
                    if (b >= 0x20 && b < 0x7f) {
                        text.append((char) b);
                    } else {
                        text.append(String.format("\\x%02x", b & 0xff));
                    }
                }
            }
        }
        return text.append('"').toString();
    }
}
