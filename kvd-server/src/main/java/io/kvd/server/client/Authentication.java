package io.kvd.server.client;

import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclLog;
import io.kvd.server.acl.Latin1;
import io.kvd.server.acl.User;
import io.kvd.server.protocol.CommandError;

/**
 * AUTH's and HELLO's authentication (Redis's ACLAuthenticateUser): the user must exist, be on and
 * take the password; a failure is logged in the ACL log as Redis logs it.
 */
public final class Authentication {
    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    static final String NOAUTH = "NOAUTH Authentication required.";

    private Authentication() {
    }

    /** Authenticates the client as the user or throws WRONGPASS; password hashes are compared in constant time. */
    public static void authenticate(Client client, byte[] username, byte[] password, byte[] commandName) {
        AccessControl acl = client.server().acl();
        User user = acl.authenticate(Latin1.text(username), password);
        if (user == null) {
            Dispatcher.logDenial(client, client, AclLog.Reason.AUTH, commandName, Latin1.text(username),
                    client.transaction() != null ? AclLog.Context.MULTI : AclLog.Context.TOPLEVEL);
            throw new CommandError(WRONGPASS);
        }
        client.authenticateAs(user);
    }

    /** Whether AUTH with a password alone has a password to check: the default user is not nopass. */
    public static boolean passwordRequired(Client client) {
        return !client.server().acl().defaultUser().isNopass();
    }
}
