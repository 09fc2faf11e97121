package io.kvd.server.acl;

import java.util.List;
import java.util.Locale;

/** Redis 7.0's ACL command categories, in acl.c's order (ACL CAT's, and the order rules are described in). */
public enum AclCategory {
    KEYSPACE, READ, WRITE, SET, SORTEDSET, LIST, HASH, STRING, BITMAP, HYPERLOGLOG, GEO, STREAM, PUBSUB, ADMIN,
    FAST, SLOW, BLOCKING, DANGEROUS, CONNECTION, TRANSACTION, SCRIPTING;

    /** The name rules and ACL CAT use, e.g. {@code sortedset}. */
    public String ruleName() {
        return name().toLowerCase(Locale.ROOT);
    }

    long flag() {
        return 1L << ordinal();
    }

    /** The category named {@code name} in any case, or null. */
    public static AclCategory byName(String name) {
        for (AclCategory category : values()) {
            if (category.ruleName().equalsIgnoreCase(name)) {
                return category;
            }
        }
        return null;
    }

    static long flags(List<String> names) {
        long flags = 0;
        for (String name : names) {
            flags |= byName(name).flag();
        }
        return flags;
    }
}
