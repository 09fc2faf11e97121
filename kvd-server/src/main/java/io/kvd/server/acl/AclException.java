package io.kvd.server.acl;

/** A rule, user or ACL file refused, with Redis's text; no stack trace, as it is an answer. */
public final class AclException extends RuntimeException {
    public AclException(String message) {
        super(message, null, false, false);
    }

    static final String UNKNOWN_COMMAND = "Unknown command or category name in ACL";
    static final String SYNTAX = "Syntax error";
    static final String KEY_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid"
            + " and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    static final String CHANNEL_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not"
            + " valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
    static final String NO_SUCH_PASSWORD = "The password you are trying to remove from the user does not exist";
    static final String BAD_HASH = "The password hash must be exactly 64 characters and contain only lowercase"
            + " hexadecimal characters";
    static final String FIRST_ARG_OF_SUBCOMMAND = "Allowing first-arg of a subcommand is not supported";
}
