package io.kvd.server.replication;

import io.kvd.server.rdb.RdbSave;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A diskless full sync (Redis's rdbSaveToSlavesSockets): the snapshot's chunks go straight to
 * the sockets of the replicas it started with, after {@code $EOF:<mark>\r\n}, and end with the
 * checksum and the same 40-character mark, so no length is needed in advance. The walk waits
 * while any replica still connected has more than {@link #MAX_PENDING_BYTES} unsent, as Redis's
 * parent reads the child's pipe only once every replica took the last block: the slowest replica
 * paces the transfer, and no dataset-sized buffer builds up. A replica that goes away is only
 * skipped (its closed channel drops the writes; it holds nothing back).
 */
final class DisklessTransfer implements RdbSave.Destination {
    static final int MARK_LENGTH = 40;
    private static final long MAX_PENDING_BYTES = 1 << 20;

    private final List<ConnectedReplica> replicas;
    private final byte[] mark;

    /** @param replicas fixed at the start, as the fork's targets are */
    DisklessTransfer(List<ConnectedReplica> replicas, byte[] mark) {
        this.replicas = List.copyOf(replicas);
        this.mark = mark;
    }

    /** What precedes the RDB: its EOF mark. */
    ByteBuf preamble() {
        ByteBuf header = Unpooled.buffer(MARK_LENGTH + 7);
        header.writeCharSequence("$EOF:", StandardCharsets.US_ASCII);
        header.writeBytes(mark);
        header.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
        return header;
    }

    List<ConnectedReplica> replicas() {
        return replicas;
    }

    @Override
    public void write(ByteBuf chunk) {
        try {
            for (ConnectedReplica replica : replicas) {
                replica.output.write(chunk.retainedDuplicate());
            }
        } finally {
            chunk.release();
        }
    }

    @Override
    public void finish(long crc, long keys) {
        ByteBuf end = Unpooled.buffer(8 + MARK_LENGTH);
        end.writeLongLE(crc);
        end.writeBytes(mark);
        write(end);
    }

    @Override
    public void discard() {
        // Replication closes the replicas that waited for it.
    }

    @Override
    public boolean behind() {
        for (ConnectedReplica replica : replicas) {
            if (replica.output.pendingBytes() > MAX_PENDING_BYTES) {
                return true;
            }
        }
        return false;
    }
}
