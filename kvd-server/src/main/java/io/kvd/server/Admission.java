package io.kvd.server;

import io.kvd.server.config.Config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Whether a new connection is served, as Redis decides in acceptCommonHandler: at most
 * {@code maxclients} at once, and with {@code protected-mode yes} and no password, loopback peers only.
 */
final class Admission {
    static final String MAX_CLIENTS = "ERR max number of clients reached";
    /** Redis 7's text (networking.c), naming kvd. */
    static final String DENIED = "DENIED kvd is running in protected mode because protected mode is enabled and no "
            + "password is set for the default user. In this mode connections are only accepted from the loopback "
            + "interface. If you want to connect from external computers to kvd you may adopt one of the following "
            + "solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the "
            + "loopback interface by connecting to kvd from the same host the server is running, however MAKE SURE "
            + "kvd is not publicly accessible from internet if you do so. 2) Alternatively you can just disable the "
            + "protected mode by editing the kvd configuration file, and setting the protected mode option to 'no', "
            + "and then restarting the server. 3) If you started the server manually just for testing, restart it "
            + "with the '--protected-mode no' option. 4) Set up an authentication password for the default user. "
            + "NOTE: You only need to do one of the above things in order for the server to start accepting "
            + "connections from the outside.";

    private Admission() {
    }

    /** Null when the peer may connect, else the error to send before closing. */
    static String refusal(Config config, SocketAddress peer, int connectedClients) {
        if (connectedClients >= config.maxclients()) {
            return MAX_CLIENTS;
        }
        if (config.protectedMode() && config.requirepass().length == 0 && !isLoopback(peer)) {
            return DENIED;
        }
        return null;
    }

    private static boolean isLoopback(SocketAddress peer) {
        if (!(peer instanceof InetSocketAddress inet)) {
            return true;
        }
        InetAddress address = inet.getAddress();
        return address != null && address.isLoopbackAddress();
    }
}
