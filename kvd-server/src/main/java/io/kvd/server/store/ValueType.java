package io.kvd.server.store;

/** The type of a key's value, as TYPE names it. */
public enum ValueType {
    STRING("string"),
    HASH("hash"),
    SET("set"),
    LIST("list"),
    ZSET("zset"),
    STREAM("stream");

    private final String typeName;

    ValueType(String typeName) {
        this.typeName = typeName;
    }

    /** The name TYPE answers and SCAN's TYPE option takes. */
    public String typeName() {
        return typeName;
    }
}
