package io.kvd.server.keyspec;

import java.util.Locale;

/**
 * Redis 7.0's key-spec flags (CMD_KEY_* in server.h), in the order COMMAND INFO and COMMAND
 * GETKEYSANDFLAGS print them: the access kind in capitals, the rest in lower case.
 */
public enum KeyFlag {
    RO, RW, OW, RM, ACCESS, UPDATE, INSERT, DELETE, NOT_KEY, INCOMPLETE, VARIABLE_FLAGS;

    /** The name Redis prints, e.g. {@code RW} or {@code variable_flags}. */
    public String replyName() {
        return ordinal() <= RM.ordinal() ? name() : name().toLowerCase(Locale.ROOT);
    }

    /** The flag Redis prints as {@code name}. */
    static KeyFlag ofReplyName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
