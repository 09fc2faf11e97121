package io.kvd.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The datagrams syslog-enabled sends, read by a stand-in for the system's log daemon. */
class SyslogAppenderTest {
    @Test
    void eachLineIsOneDatagramInTheCLibraryFormatWithRedisLevels(@TempDir Path dir) throws Exception {
        assumeTrue(SyslogAppender.available(), "epoll's UNIX datagram sockets");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        SyslogAppender appender = null;
        try {
            Path socket = dir.resolve("log");
            Channel daemon = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                    .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                            received.add(packet.content().toString(StandardCharsets.UTF_8));
                        }
                    }).bind(new DomainSocketAddress(socket.toString())).sync().channel();
            appender = new SyslogAppender(socket.toString(), "kvd-test", "local3");
            appender.setContext(new LoggerContext());
            appender.start();
            LoggerContext context = new LoggerContext();
            appender.doAppend(new LoggingEvent("x", context.getLogger("x"), Level.WARN, "Ready {}", null, new Object[] {1}));
            appender.doAppend(new LoggingEvent("x", context.getLogger("x"), Level.INFO, "notice", null, null));
            long pid = ProcessHandle.current().pid();
            // local3 is 19 << 3 = 152; warning 4, notice 5.
            assertThat(received.poll(20, TimeUnit.SECONDS))
                    .matches("<156>[A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d kvd-test\\[" + pid + "\\]: Ready 1");
            assertThat(received.poll(20, TimeUnit.SECONDS)).startsWith("<157>").endsWith("kvd-test[" + pid + "]: notice");
            daemon.close().sync();
        } finally {
            if (appender != null) {
                appender.stop();
            }
            group.shutdownGracefully();
        }
    }
}
