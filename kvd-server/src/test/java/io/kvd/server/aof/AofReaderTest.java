package io.kvd.server.aof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.kvd.server.aof.AofFixture.cmd;
import static io.kvd.server.aof.AofFixture.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parsing a record into the arrays of one already done with: same records, offsets and errors as into new arrays. */
class AofReaderTest {
    @TempDir
    Path dir;

    private FileChannel open(String text) throws IOException {
        Path file = AofFixture.write(dir.resolve("appendonly.aof"), text.getBytes(StandardCharsets.UTF_8));
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    private static String[] text(byte[][] argv) {
        String[] words = new String[argv.length];
        for (int i = 0; i < argv.length; i++) {
            words[i] = new String(argv[i], StandardCharsets.UTF_8);
        }
        return words;
    }

    @Test
    void recordOfTheSameLengthsIsParsedIntoTheDoneRecordsArrays() throws Exception {
        try (FileChannel channel = open(records(cmd("SET", "a", "11"), cmd("DEL", "b", "22")))) {
            AofReader reader = new AofReader(channel);
            byte[][] first = reader.next();
            byte[] value = first[2];
            byte[][] second = reader.next(first);
            assertThat(second).isSameAs(first);
            assertThat(second[2]).isSameAs(value);
            assertThat(text(second)).containsExactly("DEL", "b", "22");
        }
    }

    @Test
    void annotationLinesAreSkippedAsRedisSkipsItsTimestamps() throws Exception {
        try (FileChannel channel = open("#TS:1628217470\r\n" + records(cmd("SET", "a", "1")) + "#TS:1628217471\r\n"
                + records(cmd("DEL", "a")) + "#TS:1628217472\r\n")) {
            AofReader reader = new AofReader(channel);
            assertThat(text(reader.next())).containsExactly("SET", "a", "1");
            assertThat(text(reader.next())).containsExactly("DEL", "a");
            assertThat(reader.next()).isNull();
            assertThat(reader.isTorn()).isFalse();
            assertThat(reader.records()).isEqualTo(2);
        }
    }

    @Test
    void argumentsOfOtherLengthsGetNewArrays() throws Exception {
        try (FileChannel channel = open(records(cmd("SET", "a", "1"), cmd("SET", "a", "1", "PXAT", "1800000000000"),
                cmd("SET", "bb", "1")))) {
            AofReader reader = new AofReader(channel);
            byte[][] first = reader.next();
            byte[] key = first[1];
            byte[][] longer = reader.next(first);
            assertThat(longer).isNotSameAs(first);
            assertThat(text(longer)).containsExactly("SET", "a", "1", "PXAT", "1800000000000");
            byte[][] otherKey = reader.next(first);
            assertThat(otherKey[1]).isNotSameAs(key);
            assertThat(text(otherKey)).containsExactly("SET", "bb", "1");
        }
    }

    @Test
    void recordLargerThanOneReadOfTheFileIsReadWhole() throws Exception {
        String large = "x".repeat(3 << 20);
        try (FileChannel channel = open(records(cmd("SET", "a", "1"), cmd("SET", "big", large), cmd("SET", "b", "2")))) {
            AofReader reader = new AofReader(channel);
            reader.next();
            assertThat(reader.next()[2]).hasSize(large.length());
            assertThat(text(reader.next())).containsExactly("SET", "b", "2");
            assertThat(reader.next()).isNull();
            assertThat(reader.isTorn()).isFalse();
        }
    }

    @Test
    void tornLastRecordParsedIntoADoneRecordEndsTheFileAfterTheLastCompleteOne() throws Exception {
        String complete = records(cmd("SET", "a", "1"));
        String torn = records(cmd("SET", "b", "2")).substring(0, 17);
        try (FileChannel channel = open(complete + torn)) {
            AofReader reader = new AofReader(channel);
            assertThat(reader.next(reader.next())).isNull();
            assertThat(reader.isTorn()).isTrue();
            assertThat(reader.validUpTo()).isEqualTo(complete.length());
        }
    }

    @Test
    void garbageParsedIntoADoneRecordIsRefusedAtTheSameOffset() throws Exception {
        String first = records(cmd("SET", "a", "1"));
        try (FileChannel channel = open(first + "*3\r\n$3\r\nSET\r\n$1\r\nbx\r\n" + first)) {
            AofReader reader = new AofReader(channel);
            byte[][] done = reader.next();
            assertThatThrownBy(() -> reader.next(done))
                    .isInstanceOf(AofFormatException.class)
                    .hasMessage("bulk string not followed by CRLF at offset " + (first.length() + 18))
                    .extracting(e -> ((AofFormatException) e).validUpTo()).isEqualTo((long) first.length());
        }
    }
}
