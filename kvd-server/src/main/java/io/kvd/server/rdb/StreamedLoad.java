package io.kvd.server.rdb;

import io.kvd.server.store.Databases;
import io.kvd.server.store.KeyAccess;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A replica's diskless load (Redis's readSyncBulkPayload with repl-diskless-load): the RDB the
 * primary sends is parsed on a thread of its own as its bytes arrive, and the loop stores its
 * keys, a batch at a time between its other work, into databases nobody is served from (the
 * server's own stay as they are) until the load succeeded and the caller takes them. Neither the
 * network nor the parsing holds the loop; the loop's share is the stores, as in a load from disk.
 * Reading pauses while more than {@link #MAX_QUEUED_BYTES} wait to be parsed, and the parser
 * while {@link #MAX_BATCHES} batches wait for the loop, so memory beyond the dataset stays bounded.
 */
public final class StreamedLoad {
    /** How the load ends, told on the loop, once. */
    public interface Listener {
        /** The whole RDB (and its EOF mark, if any) arrived and every key is stored. */
        void loaded(RdbLoader.Result result);

        /** The RDB was bad or broken off; what was stored is to be dropped. */
        void failed(String reason);
    }

    private static final int KEYS_PER_BATCH = 256;
    private static final int MAX_BATCHES = 16;
    private static final long MAX_QUEUED_BYTES = 16L << 20;
    /** Put in the queue to end the input: a length-prefixed RDB read in full, or an abort. */
    private static final ByteBuf END = Unpooled.unreleasableBuffer(Unpooled.buffer(1));

    private final Databases databases;
    private final RdbLoader loader;
    private final RdbLoader.Store store;
    private final long size;
    private final byte[] mark;
    private final Executor loop;
    private final Runnable resumeReading;
    private final Listener listener;
    private final LinkedBlockingQueue<ByteBuf> input = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Semaphore batches = new Semaphore(MAX_BATCHES);
    private final List<byte[]> libraries = new ArrayList<>();
    private volatile boolean readingPaused;
    private volatile boolean stopped;
    /** Loop only: the listener was told, or the load was aborted. */
    private boolean ended;

    /**
     * @param databases   empty databases to load into, as many as the server's
     * @param access      the server's key stamps, which eviction reads
     * @param size        the RDB's length, or -1 if it ends with {@code mark}
     * @param resumeReading runs on the loop once the bytes waiting to be parsed drained
     */
    public StreamedLoad(Databases databases, KeyAccess access, int keyLoadDelayMicros, long size, byte[] mark,
                        Executor loop, Runnable resumeReading, Listener listener) {
        this.databases = databases;
        this.store = new RdbLoader.Store(databases, access, false, libraries::add);
        this.loader = new RdbLoader(databases, code -> { }, 0).keyLoadDelay(keyLoadDelayMicros);
        this.size = size;
        this.mark = mark;
        this.loop = loop;
        this.resumeReading = resumeReading;
        this.listener = listener;
        Thread thread = new Thread(this::parse, "kvd-sync-load");
        thread.setDaemon(true);
        thread.start();
    }

    /** The databases loaded into; the server's to take once {@link Listener#loaded} was called. */
    public Databases databases() {
        return databases;
    }

    /** The function libraries the RDB held, for the server to load when it takes the databases. */
    public List<byte[]> libraries() {
        return libraries;
    }

    /** On the loop: the next bytes of the RDB, which the load releases; true if reading should pause. */
    public boolean feed(ByteBuf bytes) {
        long queued = queuedBytes.addAndGet(bytes.readableBytes());
        input.add(bytes);
        if (queued > MAX_QUEUED_BYTES) {
            readingPaused = true;
            return true;
        }
        return false;
    }

    /** On the loop: a length-prefixed RDB was fed in full. */
    public void endOfInput() {
        input.add(END);
    }

    /** On the loop: the link went; the load stops, and its listener is not told. */
    public void abort() {
        ended = true;
        stopped = true;
        input.add(END);
    }

    private void parse() {
        try {
            RdbInput in = new RdbInput(new Input(), size < 0 ? Long.MAX_VALUE : size);
            List<Consumer<RdbLoader.Keys>> batch = new ArrayList<>();
            RdbLoader.Result result = loader.load(in, new RdbLoader.Keys() {
                @Override
                public void reserve(int db, int keys) {
                    add(batch, target -> target.reserve(db, keys));
                }

                @Override
                public void store(int db, byte[] key, RdbValue value, long deadline, long frequency, long idleSeconds) {
                    add(batch, target -> target.store(db, key, value, deadline, frequency, idleSeconds));
                }

                @Override
                public void library(byte[] code) {
                    add(batch, target -> target.library(code));
                }
            });
            if (mark != null && !Arrays.equals(in.readBytes(mark.length), mark)) {
                throw new RdbFormatException("Replication stream EOF marker is broken");
            }
            handOff(new ArrayList<>(batch));
            loop.execute(() -> {
                if (!ended) {
                    ended = true;
                    listener.loaded(result);
                }
            });
        } catch (RuntimeException e) {
            if (!stopped) {
                String reason = reason(e);
                loop.execute(() -> fail(reason));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (ByteBuf left; (left = input.poll()) != null; ) {
                left.release();
            }
        }
    }

    private void add(List<Consumer<RdbLoader.Keys>> batch, Consumer<RdbLoader.Keys> operation) {
        batch.add(operation);
        if (batch.size() >= KEYS_PER_BATCH) {
            try {
                handOff(new ArrayList<>(batch));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RdbFormatException("interrupted");
            }
            batch.clear();
        }
    }

    /** Waits while {@link #MAX_BATCHES} wait for the loop, then queues this one. */
    private void handOff(List<Consumer<RdbLoader.Keys>> batch) throws InterruptedException {
        batches.acquire();
        loop.execute(() -> {
            try {
                if (!ended) {
                    batch.forEach(operation -> operation.accept(store));
                }
            } catch (RuntimeException e) {
                // A value that parsed but cannot be stored (a duplicated key): the load fails, the loop goes on.
                fail(reason(e));
            } finally {
                batches.release();
            }
        });
    }

    private static String reason(RuntimeException e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    private void fail(String reason) {
        if (!ended) {
            ended = true;
            stopped = true;
            input.add(END);
            listener.failed(reason);
        }
    }

    /** The queued bytes as the parser's stream: blocks for more, ends at {@link #END}. */
    private final class Input extends InputStream {
        private ByteBuf current = Unpooled.EMPTY_BUFFER;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (!current.isReadable()) {
                current.release();
                try {
                    current = input.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RdbFormatException("interrupted");
                }
                if (current == END) {
                    input.add(END);
                    if (stopped) {
                        throw new RdbFormatException("aborted");
                    }
                    return -1;
                }
            }
            int n = Math.min(len, current.readableBytes());
            current.readBytes(b, off, n);
            if (queuedBytes.addAndGet(-n) < MAX_QUEUED_BYTES / 2 && readingPaused) {
                readingPaused = false;
                loop.execute(resumeReading);
            }
            return n;
        }
    }
}
