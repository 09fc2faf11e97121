package io.kvd.server.aof;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A real file channel whose writes and fsyncs fail on demand, as a full or broken disk makes them,
 * or take as long as a slow disk's; counts them.
 */
final class FailingFileChannel extends FileChannel {
    private final FileChannel file;
    String writeFailure;
    String forceFailure;
    int writes;
    int forces;
    /** Bytes a failing write still puts on disk before it fails (a partial write). */
    int partialBytes;
    /** Milliseconds each write and fsync takes at least. */
    long delayMs;

    FailingFileChannel(FileChannel file) {
        this.file = file;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        writes++;
        delay();
        if (writeFailure != null) {
            if (partialBytes > 0) {
                ByteBuffer part = src.duplicate();
                part.limit(Math.min(part.limit(), part.position() + partialBytes));
                file.write(part, position);
            }
            throw new IOException(writeFailure);
        }
        return file.write(src, position);
    }

    private void delay() throws IOException {
        if (delayMs > 0) {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }

    @Override
    public void force(boolean metaData) throws IOException {
        forces++;
        delay();
        if (forceFailure != null) {
            throw new IOException(forceFailure);
        }
        file.force(metaData);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return file.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) {
        throw new UnsupportedOperationException("the AOF writes at explicit positions");
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        throw new UnsupportedOperationException("the AOF writes at explicit positions");
    }

    @Override
    public long position() throws IOException {
        return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        file.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        file.truncate(size);
        return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return file.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return file.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return file.read(dst, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return file.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        file.close();
    }
}
