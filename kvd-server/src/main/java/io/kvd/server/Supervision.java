package io.kvd.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import org.slf4j.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@code supervised}, as Redis's redisIsSupervised: under systemd (a {@code Type=notify} unit,
 * as Debian's redis-server.service runs {@code --supervised systemd}) the server's states go as
 * sd_notify(3) messages, one datagram each to {@code NOTIFY_SOCKET}: loading, ready
 * ({@code READY=1}), stopping. Under upstart ({@code expect stop}) the process stops itself with
 * SIGSTOP and upstart continues it. {@code auto} picks upstart if {@code UPSTART_JOB} is set, else
 * systemd if {@code NOTIFY_SOCKET} is. Written here because the JDK has no UNIX datagram sockets
 * (Netty's epoll transport has them) and cannot raise a signal at itself (kill(1) can).
 */
final class Supervision implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel notifySocket;

    private Supervision(EventLoopGroup group, Channel notifySocket) {
        this.group = group;
        this.notifySocket = notifySocket;
    }

    /**
     * The supervision {@code mode} asks for and {@code env} allows, set up; unsupervised (every
     * call a no-op) for {@code no}, or when the mode's variable is missing (logged as Redis logs it).
     */
    static Supervision start(String mode, Map<String, String> env, Logger log) {
        if (mode.equals("auto")) {
            if (env.containsKey("UPSTART_JOB")) {
                log.debug("Upstart supervision detected.");
                mode = "upstart";
            } else if (env.containsKey("NOTIFY_SOCKET")) {
                log.debug("Systemd supervision detected.");
                mode = "systemd";
            }
        }
        if (mode.equals("upstart")) {
            stopForUpstart(env, log);
        } else if (mode.equals("systemd")) {
            Supervision systemd = systemd(env.get("NOTIFY_SOCKET"), log);
            if (systemd != null) {
                return systemd;
            }
        }
        return new Supervision(null, null);
    }

    /**
     * Whether {@code mode} finds its supervisor's variable in {@code env}: then {@code daemonize}
     * is ignored, as Redis does (a supervisor watches the process it started).
     */
    static boolean wanted(String mode, Map<String, String> env) {
        return switch (mode) {
            case "upstart" -> env.containsKey("UPSTART_JOB");
            case "systemd" -> env.containsKey("NOTIFY_SOCKET");
            case "auto" -> env.containsKey("UPSTART_JOB") || env.containsKey("NOTIFY_SOCKET");
            default -> false;
        };
    }

    private static Supervision systemd(String socket, Logger log) {
        if (socket == null || socket.isEmpty()) {
            log.warn("systemd supervision error: NOTIFY_SOCKET not found!");
            return null;
        }
        if (!Epoll.isAvailable()) {
            log.warn("systemd supervision requested or auto-detected, but this JVM has no epoll transport to "
                    + "reach NOTIFY_SOCKET");
            return null;
        }
        // sd_notify: a leading '@' names a socket in the abstract namespace.
        String path = socket.startsWith("@") ? "\0" + socket.substring(1) : socket;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        ChannelFuture connected = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .handler(new ChannelInboundHandlerAdapter()).connect(new DomainSocketAddress(path))
                .awaitUninterruptibly();
        if (!connected.isSuccess()) {
            log.warn("Can't connect to systemd socket {}: {}", socket, connected.cause().toString());
            group.shutdownGracefully();
            return null;
        }
        Supervision systemd = new Supervision(group, connected.channel());
        systemd.notify("STATUS=Redis is loading...\n");
        log.info("Supervised by systemd. Please make sure you set appropriate values for TimeoutStartSec and "
                + "TimeoutStopSec in your service unit.");
        return systemd;
    }

    /** Redis's redisSupervisedUpstart: the stop is upstart's sign that the job is up. */
    private static void stopForUpstart(Map<String, String> env, Logger log) {
        if (!env.containsKey("UPSTART_JOB")) {
            log.warn("upstart supervision requested, but UPSTART_JOB not found!");
            return;
        }
        log.info("supervised by upstart, will stop to signal readiness.");
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).inheritIO().start()
                    .waitFor();
        } catch (IOException e) {
            log.warn("upstart supervision: could not stop: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The server serves: as Redis's main once the data is loaded. */
    void ready(boolean replica) {
        notify(replica ? "STATUS=Ready to accept connections in read-only mode. Waiting for MASTER <-> REPLICA sync\n"
                : "STATUS=Ready to accept connections\n");
        notify("READY=1\n");
    }

    /** The server is stopping. */
    void stopping() {
        notify("STOPPING=1\n");
    }

    private void notify(String message) {
        if (notifySocket == null) {
            return;
        }
        notifySocket.writeAndFlush(Unpooled.wrappedBuffer(message.getBytes(StandardCharsets.US_ASCII)))
                .awaitUninterruptibly();
    }

    @Override
    public void close() {
        if (group != null) {
            group.shutdownGracefully();
        }
    }
}
