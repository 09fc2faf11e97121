package io.kvd.server.aof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.kvd.server.aof.ReadAheadAofReader.BATCH_RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

/** Looking ahead of the record being replayed, within the batch the reading thread handed over. */
class ReadAheadAofReaderTest {
    private static final int RECORDS = BATCH_RECORDS + 3;

    @TempDir
    Path dir;

    private FileChannel file() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < RECORDS; i++) {
            text.append(AofFixture.records(AofFixture.cmd("SET", "k" + i, "v")));
        }
        Path file = AofFixture.write(dir.resolve("appendonly.aof"), text.toString().getBytes(StandardCharsets.UTF_8));
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String key(byte[][] argv) {
        return new String(argv[1], StandardCharsets.UTF_8);
    }

    @Test
    void aheadShowsTheCurrentRecordAndThoseAfterItInItsBatch() throws Exception {
        try (FileChannel channel = file(); ReadAheadAofReader reader = new ReadAheadAofReader(new AofReader(channel))) {
            byte[][] first = reader.next();
            assertThat(reader.ahead(0)).isSameAs(first);
            assertThat(key(reader.ahead(2))).isEqualTo("k2");
            assertThat(key(reader.ahead(BATCH_RECORDS - 1))).isEqualTo("k" + (BATCH_RECORDS - 1));
            assertThat(reader.ahead(BATCH_RECORDS)).isNull();
        }
    }

    @Test
    void aheadEndsWithTheBatchAndGoesOnInTheNextOne() throws Exception {
        try (FileChannel channel = file(); ReadAheadAofReader reader = new ReadAheadAofReader(new AofReader(channel))) {
            for (int i = 0; i < BATCH_RECORDS; i++) {
                assertThat(key(reader.next())).isEqualTo("k" + i);
            }
            assertThat(reader.ahead(1)).isNull();
            assertThat(key(reader.next())).isEqualTo("k" + BATCH_RECORDS);
            assertThat(key(reader.ahead(2))).isEqualTo("k" + (RECORDS - 1));
            assertThat(reader.ahead(3)).isNull();
            assertThat(key(reader.next())).isEqualTo("k" + (BATCH_RECORDS + 1));
        }
    }
}
