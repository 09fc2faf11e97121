package io.kvd.server.cluster;

/** A cluster config file that cannot be used; the message says where ({@code file:line: message}) and why. */
public final class ClusterConfigException extends Exception {
    ClusterConfigException(String message) {
        super(message);
    }
}
