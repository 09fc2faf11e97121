package io.kvd.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.kqueue.KQueue;
import io.netty.channel.kqueue.KQueueIoHandler;
import io.netty.channel.kqueue.KQueueServerDomainSocketChannel;
import io.netty.channel.kqueue.KQueueServerSocketChannel;
import io.netty.channel.kqueue.KQueueSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import jdk.net.ExtendedSocketOptions;

import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.Locale;

/** The socket layer under the event loop, chosen by the {@code transport} directive. */
enum Transport {
    EPOLL {
        @Override
        Throwable unavailabilityCause() {
            return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
        }

        @Override
        IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        Class<? extends ServerChannel> domainServerChannel() {
            return EpollServerDomainSocketChannel.class;
        }

        @Override
        Class<? extends Channel> socketChannel() {
            return EpollSocketChannel.class;
        }

        @Override
        void keepAlive(Channel channel, int idleSeconds) {
            channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
            channel.config().setOption(EpollChannelOption.TCP_KEEPIDLE, idleSeconds);
            channel.config().setOption(EpollChannelOption.TCP_KEEPINTVL, probeInterval(idleSeconds));
            channel.config().setOption(EpollChannelOption.TCP_KEEPCNT, KEEPALIVE_PROBES);
        }
    },
    IO_URING {
        @Override
        Throwable unavailabilityCause() {
            return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        }

        @Override
        IoHandlerFactory ioHandlerFactory() {
            return IoUringIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return IoUringServerSocketChannel.class;
        }

        @Override
        Class<? extends ServerChannel> domainServerChannel() {
            return IoUringServerDomainSocketChannel.class;
        }

        @Override
        Class<? extends Channel> socketChannel() {
            return IoUringSocketChannel.class;
        }

        @Override
        void keepAlive(Channel channel, int idleSeconds) {
            channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
            channel.config().setOption(IoUringChannelOption.TCP_KEEPIDLE, idleSeconds);
            channel.config().setOption(IoUringChannelOption.TCP_KEEPINTVL, probeInterval(idleSeconds));
            channel.config().setOption(IoUringChannelOption.TCP_KEEPCNT, KEEPALIVE_PROBES);
        }
    },
    KQUEUE {
        @Override
        Throwable unavailabilityCause() {
            return KQueue.isAvailable() ? null : KQueue.unavailabilityCause();
        }

        @Override
        IoHandlerFactory ioHandlerFactory() {
            return KQueueIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return KQueueServerSocketChannel.class;
        }

        @Override
        Class<? extends ServerChannel> domainServerChannel() {
            return KQueueServerDomainSocketChannel.class;
        }

        @Override
        Class<? extends Channel> socketChannel() {
            return KQueueSocketChannel.class;
        }

        /** kqueue's channels offer no probe timing: the system's keepalive settings apply. */
        @Override
        void keepAlive(Channel channel, int idleSeconds) {
            channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
        }
    },
    NIO {
        @Override
        Throwable unavailabilityCause() {
            return null;
        }

        @Override
        IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        Class<? extends ServerChannel> domainServerChannel() {
            return NioServerDomainSocketChannel.class;
        }

        @Override
        Class<? extends Channel> socketChannel() {
            return NioSocketChannel.class;
        }

        @Override
        void keepAlive(Channel channel, int idleSeconds) {
            channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
            channel.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE), idleSeconds);
            channel.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL), probeInterval(idleSeconds));
            channel.config().setOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT), KEEPALIVE_PROBES);
        }

        /** The JDK's own address type (Java 16's UNIX domain sockets), which NIO channels take. */
        @Override
        SocketAddress domainAddress(String path) {
            return UnixDomainSocketAddress.of(path);
        }
    };

    /** Redis's anetKeepAlive: a dead peer is found after the idle time and three probes. */
    private static final int KEEPALIVE_PROBES = 3;

    /** The client socket channel, for a replica's link to its primary. */
    abstract Class<? extends Channel> socketChannel();

    /**
     * {@code tcp-keepalive}, as Redis's anetKeepAlive sets it on each connection: probes after
     * {@code idleSeconds} of silence, then every third of that, three of them.
     */
    abstract void keepAlive(Channel channel, int idleSeconds);

    private static int probeInterval(int idleSeconds) {
        return Math.max(1, idleSeconds / 3);
    }

    /** Null when this transport can run here, else why not. */
    abstract Throwable unavailabilityCause();

    abstract IoHandlerFactory ioHandlerFactory();

    abstract Class<? extends ServerChannel> serverChannel();

    /** The listener of a UNIX domain socket ({@code unixsocket}). */
    abstract Class<? extends ServerChannel> domainServerChannel();

    /** The address of the UNIX domain socket at {@code path}, as this transport's channels take it. */
    SocketAddress domainAddress(String path) {
        return new DomainSocketAddress(path);
    }

    /** The directive's spelling: {@code io_uring}, {@code epoll}, ... */
    String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The transport the directive names; {@code auto} takes the first available of epoll,
     * io_uring, kqueue and nio. epoll comes first: twice a test JVM that started and stopped many
     * servers on io_uring died of glibc heap corruption (exit 134), never on epoll, and io_uring
     * measured no faster (docs/reliability.md#the-transports-under-a-soak).
     *
     * @throws IllegalStateException naming the cause when a transport asked for by name is unavailable
     */
    static Transport select(String configName) {
        if (configName.equals("auto")) {
            for (Transport t : values()) {
                if (t.unavailabilityCause() == null) {
                    return t;
                }
            }
        }
        Transport t = valueOf(configName.toUpperCase(Locale.ROOT));
        Throwable cause = t.unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("transport " + configName + " is not available here: " + cause, cause);
        }
        return t;
    }
}
