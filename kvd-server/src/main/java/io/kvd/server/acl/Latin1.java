package io.kvd.server.acl;

import java.nio.charset.StandardCharsets;

/**
 * ACL names, rules and patterns are kept as Latin-1 strings: one char per byte of the request, so
 * every byte comes back.
 */
public final class Latin1 {
    private Latin1() {
    }

    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The text up to its first NUL, as C reads it: acl.c compares most rules with strcasecmp, looks
     * commands up by C string and prints rules with %s, so what follows a NUL there is not seen.
     */
    static String cString(String text) {
        int nul = text.indexOf('\0');
        return nul < 0 ? text : text.substring(0, nul);
    }
}
