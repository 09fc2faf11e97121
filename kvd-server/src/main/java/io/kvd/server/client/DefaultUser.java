package io.kvd.server.client;

import io.kvd.server.protocol.CommandError;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * kvd's one user, Redis's {@code default}: without {@code requirepass} it has no password (any
 * AUTH for it succeeds, as with Redis's nopass), with one it takes exactly that password.
 */
public final class DefaultUser {
    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    static final String NOAUTH = "NOAUTH Authentication required.";
    private static final byte[] NAME = "default".getBytes(StandardCharsets.US_ASCII);

    private DefaultUser() {
    }

    /** Authenticates the client or throws WRONGPASS; the comparison takes the same time wherever it differs. */
    public static void authenticate(Client client, byte[] username, byte[] password) {
        byte[] required = client.server().config().requirepass();
        boolean userMatches = MessageDigest.isEqual(username, NAME);
        boolean passwordMatches = required.length == 0 || MessageDigest.isEqual(password, required);
        if (!userMatches || !passwordMatches) {
            throw new CommandError(WRONGPASS);
        }
        client.setAuthenticated(true);
    }

    public static boolean passwordRequired(Client client) {
        return client.server().config().requirepass().length > 0;
    }
}
