package io.kvd.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
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

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * {@code syslog-enabled}: each log line also goes to the system log as Redis's syslog(3) call
 * sends it, one datagram to {@code /dev/log} in the C library's format
 * ({@code <priority>Mmm dd hh:mm:ss ident[pid]: message}), with {@code syslog-ident} and
 * {@code syslog-facility}, and Redis's levels (warning, notice, info for verbose, debug).
 * Written here because the JDK has no UNIX datagram sockets and logback's syslog appender speaks
 * UDP only, which most systems' log daemons do not listen to; Netty's epoll transport has them,
 * on a thread of this appender's own. Where epoll is missing, nothing is sent and start-up says so.
 */
final class SyslogAppender extends AppenderBase<ILoggingEvent> {
    /** The C library's _PATH_LOG. */
    static final String DEV_LOG = "/dev/log";
    private static final List<String> FACILITIES = List.of("user", "local0", "local1", "local2", "local3", "local4",
            "local5", "local6", "local7");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.US);
    private static final int LOG_WARNING = 4;
    private static final int LOG_NOTICE = 5;
    private static final int LOG_INFO = 6;
    private static final int LOG_DEBUG = 7;

    private final DomainSocketAddress target;
    private final String ident;
    private final int facility;
    private final long pid = ProcessHandle.current().pid();
    private EventLoopGroup group;
    private Bootstrap bootstrap;
    /** Connected to the log daemon's socket; null until it could be. */
    private Channel channel;

    /** @param facility one of syslog-facility's words: user, local0 ... local7 */
    SyslogAppender(String path, String ident, String facility) {
        this.target = new DomainSocketAddress(path);
        this.ident = ident;
        // LOG_USER is 1 << 3, LOG_LOCAL0 16 << 3, each local one more.
        int index = FACILITIES.indexOf(facility);
        this.facility = (index == 0 ? 1 : 15 + index) << 3;
    }

    /** Whether this JVM can send to the system log (the epoll transport loads). */
    static boolean available() {
        return Epoll.isAvailable();
    }

    @Override
    public void start() {
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        bootstrap = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .handler(new ChannelInboundHandlerAdapter());
        super.start();
    }

    @Override
    public void stop() {
        super.stop();
        if (group != null) {
            group.shutdownGracefully();
        }
    }

    @Override
    protected void append(ILoggingEvent event) {
        String line = "<" + (facility | severity(event.getLevel())) + ">" + LocalDateTime.now().format(STAMP) + " "
                + ident + "[" + pid + "]: " + event.getFormattedMessage();
        if ((channel == null || !channel.isActive()) && !group.next().inEventLoop()) {
            // As syslog(3): connected when first needed, and again after the daemon went away.
            ChannelFuture connecting = bootstrap.connect(target).awaitUninterruptibly();
            channel = connecting.isSuccess() ? connecting.channel() : null;
        }
        // Without a log daemon the line is lost, as syslog(3) loses it.
        if (channel != null) {
            channel.writeAndFlush(Unpooled.wrappedBuffer(line.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** Redis's syslogLevelMap over the levels Main maps Redis's loglevel to. */
    private static int severity(Level level) {
        if (level.isGreaterOrEqual(Level.WARN)) {
            return LOG_WARNING;
        }
        if (level == Level.INFO) {
            return LOG_NOTICE;
        }
        return level == Level.DEBUG ? LOG_INFO : LOG_DEBUG;
    }
}
