package io.kvd.server.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

/** A replica connected to this server, from its SYNC or PSYNC on (Redis's client with CLIENT_SLAVE). */
public final class ConnectedReplica {
    /** Redis's repl_state of a replica, as INFO names it. */
    enum State {
        WAIT_BGSAVE_START("wait_bgsave"), WAIT_BGSAVE_END("wait_bgsave"), SEND_BULK("send_bulk"), ONLINE("online");

        final String infoName;

        State(String infoName) {
            this.infoName = infoName;
        }
    }

    final long clientId;
    final ReplicaOutput output;
    State state;
    /** The stream written while the RDB is made and sent, sent right after it. */
    private CompositeByteBuf buffered;
    /** The offset the replica acknowledged last (REPLCONF ACK). */
    long ackOffset;
    long ackTimeMs;
    int listeningPort;
    String announcedIp;
    /** Came with SYNC, not PSYNC: no +FULLRESYNC line before the RDB. */
    boolean oldSync;
    /** Announced REPLCONF capa eof: it can take an RDB streamed with an EOF mark (a diskless sync). */
    boolean eofCapable;
    /** When it asked for its sync: repl-diskless-sync-delay counts from here (Redis's lastinteraction). */
    final long requestedMs;
    /** Its RDB is being (or was) streamed straight to its socket, so nothing else may be written meanwhile. */
    boolean diskless;
    /**
     * Its streamed RDB was sent, and the stream waits for its first REPLCONF ACK (Redis's
     * repl_start_cmd_stream_on_ack): nothing may follow the EOF mark before the replica found it.
     */
    boolean streamOnAck;

    /** For {@link #transferStalledMs}: the unsent bytes seen last, and since when they have not gone down. */
    private long lastPending;
    long stalledSinceMs;

    ConnectedReplica(long clientId, ReplicaOutput output, long nowMs) {
        this.clientId = clientId;
        this.output = output;
        this.ackTimeMs = nowMs;
        this.requestedMs = nowMs;
    }

    /** Sends the stream's new bytes now, or keeps them for after the RDB; {@code bytes} stay unchanged. */
    void feed(ByteBuf bytes) {
        if (state == State.ONLINE && !streamOnAck) {
            output.write(bytes.retainedDuplicate());
        } else if (state != State.WAIT_BGSAVE_START) {
            if (buffered == null) {
                buffered = Unpooled.compositeBuffer(Integer.MAX_VALUE);
            }
            buffered.addComponent(true, bytes.retainedDuplicate());
        }
    }

    /** The RDB is sent: the stream since its start follows, and from now on goes out as it comes. */
    void online() {
        state = State.ONLINE;
        streamOnAck = false;
        if (buffered != null) {
            output.write(buffered);
            buffered = null;
        }
    }

    /**
     * How long its socket has taken nothing of a diskless transfer (Redis's repl_last_partial_write):
     * checked by the cron, it counts from the first check that found unsent bytes not gone down.
     */
    long transferStalledMs(long nowMs) {
        long pending = output.pendingBytes();
        if (pending == 0 || pending < lastPending) {
            stalledSinceMs = nowMs;
        }
        lastPending = pending;
        return nowMs - stalledSinceMs;
    }

    /** The replica's output buffer, what client-output-buffer-limit replica bounds. */
    long outputBytes() {
        return output.pendingBytes() + (buffered == null ? 0 : buffered.readableBytes());
    }

    void release() {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }

    public long ackOffset() {
        return ackOffset;
    }

    public int listeningPort() {
        return listeningPort;
    }

    /** INFO's {@code ip}: the announced address if the replica gave one, else its connection's. */
    public String ip() {
        return announcedIp != null ? announcedIp : output.ip();
    }
}
