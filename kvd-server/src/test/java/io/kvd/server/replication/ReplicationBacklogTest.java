package io.kvd.server.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicationBacklogTest {
    private static final int SIZE = 16 * 1024;

    @Test
    void offsetsCountEveryByteFromTheStartingOffset() {
        ReplicationBacklog backlog = new ReplicationBacklog(SIZE, 100);
        assertThat(backlog.endOffset()).isEqualTo(100);
        assertThat(backlog.held()).isZero();
        assertThat(backlog.covers(101)).isTrue();
        assertThat(backlog.covers(100)).isFalse();
        backlog.append(Unpooled.wrappedBuffer(new byte[] {'a', 'b', 'c'}));
        assertThat(backlog.endOffset()).isEqualTo(103);
        assertThat(backlog.firstOffset()).isEqualTo(101);
        assertThat(ByteBufUtil.getBytes(backlog.since(102))).containsExactly('b', 'c');
        assertThat(backlog.since(104).readableBytes()).isZero();
        assertThat(backlog.covers(105)).isFalse();
    }

    @Test
    void anAppendLongerThanTheRingKeepsItsLastBytes() {
        ReplicationBacklog backlog = new ReplicationBacklog(SIZE, 0);
        byte[] bytes = new byte[SIZE * 2 + 7];
        new SplittableRandom(1).nextBytes(bytes);
        backlog.append(Unpooled.wrappedBuffer(bytes));
        assertThat(backlog.held()).isEqualTo(SIZE);
        assertThat(backlog.firstOffset()).isEqualTo(bytes.length - SIZE + 1);
        assertThat(ByteBufUtil.getBytes(backlog.since(backlog.firstOffset())))
                .isEqualTo(Arrays.copyOfRange(bytes, bytes.length - SIZE, bytes.length));
    }

    /** Random appends across the ring's end, each checked against the whole stream kept aside. */
    @Test
    void whatItHoldsIsAlwaysTheStreamsLastBytes() {
        long seed = 20261205L;
        System.out.println("ReplicationBacklogTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        ReplicationBacklog backlog = new ReplicationBacklog(SIZE, 0);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int round = 0; round < 500; round++) {
            byte[] chunk = new byte[random.nextInt(0, SIZE / 3)];
            random.nextBytes(chunk);
            backlog.append(Unpooled.wrappedBuffer(chunk));
            stream.writeBytes(chunk);
            byte[] all = stream.toByteArray();
            assertThat(backlog.endOffset()).isEqualTo(all.length);
            long from = random.nextLong(backlog.firstOffset(), backlog.endOffset() + 2);
            ByteBuf since = backlog.since(from);
            assertThat(ByteBufUtil.getBytes(since)).as("round %d from %d", round, from)
                    .isEqualTo(Arrays.copyOfRange(all, (int) from - 1, all.length));
            if (round % 100 == 99) {
                backlog.resize(SIZE + random.nextInt(0, SIZE));
                assertThat(ByteBufUtil.getBytes(backlog.since(backlog.firstOffset())))
                        .isEqualTo(Arrays.copyOfRange(all, all.length - (int) backlog.held(), all.length));
            }
        }
    }
}
