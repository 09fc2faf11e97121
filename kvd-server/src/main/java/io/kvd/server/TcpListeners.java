package io.kvd.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The sockets one port is served on, one per {@code bind} address (TCP, or TLS with its own
 * bootstrap), and their replacement by CONFIG SET port and bind, as Redis's changeListenPort
 * and changeBindAddr. Event loop only: a channel registered on and bound from the loop that
 * runs the command binds inline, so CONFIG SET answers with the outcome.
 */
final class TcpListeners {
    private static final Logger log = LoggerFactory.getLogger(TcpListeners.class);

    private final ServerBootstrap bootstrap;
    private List<Channel> channels = List.of();
    private int port;

    TcpListeners(ServerBootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** The port served; 0 when none is. */
    int port() {
        return port;
    }

    /**
     * At start: every address of {@code bind} at {@code requestedPort}, where 0 takes the port the
     * first bind picks. A required address that cannot be bound stops the start with Redis's words,
     * which scripts and Redis's own test harness wait for to retry elsewhere.
     */
    void listen(List<String> bind, int requestedPort) {
        try {
            channels = bindAll(bind, requestedPort);
        } catch (BindFailure e) {
            throw new ListenFailedException("Failed listening on port " + requestedPort + " (TCP), aborting: cannot"
                    + " listen on " + e.host + ": " + e.getCause(), e.getCause());
        }
        port = channels.isEmpty() ? requestedPort : ((InetSocketAddress) channels.get(0).localAddress()).getPort();
    }

    /**
     * CONFIG SET port: the new port on every address, and only then the old sockets closed, so a
     * port already taken leaves the server where it was; 0 closes them, as Redis's.
     *
     * @throws IllegalArgumentException with Redis's reason
     */
    void changePort(List<String> bind, int newPort) {
        if (newPort == port) {
            return;
        }
        List<Channel> bound = List.of();
        if (newPort != 0) {
            try {
                bound = bindAll(bind, newPort);
            } catch (BindFailure e) {
                log.warn("Could not create server TCP listening socket {}:{}: {}", e.host, newPort, e.getCause().toString());
                throw new IllegalArgumentException("Unable to listen on this port");
            }
        }
        close();
        channels = bound;
        port = newPort;
    }

    /**
     * CONFIG SET bind: the same port on the new addresses. The old sockets close first (the new
     * ones may share an address with them); when a new one fails, CONFIG SET puts the old
     * addresses back through this method.
     *
     * @throws IllegalArgumentException with Redis's reason
     */
    void changeAddresses(List<String> bind) {
        if (port == 0) {
            return;
        }
        close();
        try {
            channels = bindAll(bind, port);
        } catch (BindFailure e) {
            log.warn("Failed to bind, trying to restore old listening sockets.");
            throw new IllegalArgumentException("Failed to bind to specified addresses.");
        }
    }

    void close() {
        channels.forEach(Channel::close);
        channels = List.of();
    }

    /** Binds every address, all or none of the required ones; an optional one ('-') may fail. */
    private List<Channel> bindAll(List<String> bind, int requestedPort) throws BindFailure {
        List<Channel> bound = new ArrayList<>();
        int at = requestedPort;
        for (String address : bind) {
            if (address.isEmpty()) {
                continue;
            }
            boolean optional = address.startsWith("-");
            String host = hostOf(optional ? address.substring(1) : address);
            ChannelFuture registered = bootstrap.register();
            Channel channel = registered.channel();
            ChannelFuture done = registered.isSuccess() ? channel.bind(new InetSocketAddress(host, at)) : registered;
            if (!done.isDone()) {
                channel.close();
                bound.forEach(Channel::close);
                throw new IllegalStateException("listening sockets change on the server's event loop only");
            }
            if (!done.isSuccess()) {
                channel.close();
                if (!optional) {
                    bound.forEach(Channel::close);
                    throw new BindFailure(host, done.cause());
                }
                log.warn("could not listen on optional address {}: {}", host, done.cause().toString());
                continue;
            }
            bound.add(channel);
            at = ((InetSocketAddress) channel.localAddress()).getPort();
        }
        return bound;
    }

    /** Redis's wildcards: {@code *} is every IPv4 address, {@code ::*} every IPv6 one. */
    private static String hostOf(String address) {
        return switch (address) {
            case "*" -> "0.0.0.0";
            case "::*" -> "::";
            default -> address;
        };
    }

    private static final class BindFailure extends Exception {
        final String host;

        BindFailure(String host, Throwable cause) {
            super(cause);
            this.host = host;
        }
    }
}
