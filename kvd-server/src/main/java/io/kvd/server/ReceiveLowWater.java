package io.kvd.server;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * SO_RCVLOWAT for a client whose command arrives in pieces: while a bulk lacks N bytes, the kernel
 * need not wake the loop before N bytes are there. A 38-byte SET trickled one byte at a time then
 * costs 20 wakeups instead of 38, and the loop half the CPU (docs/reliability.md, Slow and idle clients).
 *
 * <p>Only for a frame that stalled (a read that completed no command): a pipelining client's reads
 * end inside a frame too, but its next read completes it, and it must not pay two setsockopt calls
 * per read. Only on epoll and io_uring (a Linux option), never under TLS (the socket carries
 * records, not RESP bytes).
 */
final class ReceiveLowWater {
    private static final IntegerUnixChannelOption SO_RCVLOWAT = new IntegerUnixChannelOption("SO_RCVLOWAT", 1, 18);
    /** A bigger bulk is read in pieces of this size, as the kernel caps the mark at half its buffer anyway. */
    private static final int MAX_BYTES = 64 * 1024;

    private final Channel channel;
    private final boolean supported;
    private int current = 1;

    ReceiveLowWater(Channel channel, boolean tls) {
        this.channel = channel;
        this.supported = !tls && (channel instanceof EpollSocketChannel || channel instanceof IoUringSocketChannel);
    }

    /**
     * After a read: {@code stalled} when it completed no command and a frame is partly buffered,
     * {@code bytesToProgress} what that frame needs before anything can change.
     */
    void afterRead(boolean stalled, int bytesToProgress) {
        int wanted = stalled ? Math.min(bytesToProgress, MAX_BYTES) : 1;
        if (supported && wanted != current) {
            current = wanted;
            channel.config().setOption(SO_RCVLOWAT, wanted);
        }
    }
}
