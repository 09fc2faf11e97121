package io.kvd.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** supervised: the sd_notify datagrams a stand-in for systemd receives, and when a mode applies. */
class SupervisionTest {
    @Test
    void underSystemdTheStatesGoToNotifySocketAsRedisSendsThem(@TempDir Path dir) throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll's UNIX datagram sockets");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            Path socket = dir.resolve("notify");
            Channel systemd = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                    .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                            received.add(packet.content().toString(StandardCharsets.US_ASCII));
                        }
                    }).bind(new DomainSocketAddress(socket.toString())).sync().channel();
            try (Supervision supervision = Supervision.start("auto", Map.of("NOTIFY_SOCKET", socket.toString()),
                    LoggerFactory.getLogger(SupervisionTest.class))) {
                supervision.ready(false);
                supervision.stopping();
            }
            assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("STATUS=Redis is loading...\n");
            assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("STATUS=Ready to accept connections\n");
            assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("READY=1\n");
            assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("STOPPING=1\n");
            systemd.close().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    @Test
    void aModeAppliesOnlyWithItsSupervisorsVariable() {
        assertThat(Supervision.wanted("systemd", Map.of("NOTIFY_SOCKET", "/run/systemd/notify"))).isTrue();
        assertThat(Supervision.wanted("systemd", Map.of("UPSTART_JOB", "redis"))).isFalse();
        assertThat(Supervision.wanted("upstart", Map.of("UPSTART_JOB", "redis"))).isTrue();
        assertThat(Supervision.wanted("auto", Map.of("UPSTART_JOB", "redis"))).isTrue();
        assertThat(Supervision.wanted("auto", Map.of())).isFalse();
        assertThat(Supervision.wanted("no", Map.of("NOTIFY_SOCKET", "/run/systemd/notify"))).isFalse();
    }
}
