package io.kvd.server.config;

/** A directive that cannot be applied; the message says where ({@code file:line: message}) and why. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }
}
