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
}
