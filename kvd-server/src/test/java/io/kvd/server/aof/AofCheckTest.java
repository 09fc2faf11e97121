package io.kvd.server.aof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.kvd.server.aof.AofFixture.cmd;
import static io.kvd.server.aof.AofFixture.records;
import static org.assertj.core.api.Assertions.assertThat;

/** --check-aof [--fix], as redis-check-aof: the first bad offset, and truncation there. */
class AofCheckTest {
    private static final String GOOD = records(cmd("SET", "a", "1"), cmd("SET", "b", "2"));

    @TempDir
    Path dir;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    private int check(String content, boolean fix) {
        Path file = AofFixture.write(dir.resolve("appendonly.aof"), content.getBytes(StandardCharsets.UTF_8));
        return AofCheck.run(file, fix, new PrintStream(output, true, StandardCharsets.UTF_8));
    }

    private String output() {
        return output.toString(StandardCharsets.UTF_8).replace(dir.toString(), "DIR");
    }

    @Test
    void validFileIsReportedValid() {
        assertThat(check(GOOD, false)).isZero();
        assertThat(output()).isEqualTo("AOF analyzed: filename=DIR/appendonly.aof, size=54, ok_up_to=54, records=2, diff=0\n"
                + "AOF DIR/appendonly.aof is valid\n");
    }

    @Test
    void tornTailIsReportedWithTheLastGoodOffset() {
        assertThat(check(GOOD + "*3\r\n$3\r\nSE", false)).isEqualTo(1);
        assertThat(output()).isEqualTo("AOF analyzed: filename=DIR/appendonly.aof, size=64, ok_up_to=54, records=2, diff=10\n"
                + "AOF DIR/appendonly.aof is not valid (the last record is incomplete, from offset 54). "
                + "Use the --fix option to try fixing it.\n");
    }

    @Test
    void garbageIsReportedWithItsOffset() {
        assertThat(check(GOOD + "?" + GOOD, false)).isEqualTo(1);
        assertThat(output()).contains("ok_up_to=54").contains("(expected '*' at offset 54)");
    }

    @Test
    void fixTruncatesAtTheLastGoodRecord() throws Exception {
        assertThat(check(GOOD + "?" + GOOD, true)).isZero();
        assertThat(Files.readString(dir.resolve("appendonly.aof"))).isEqualTo(GOOD);
        assertThat(output()).contains("Successfully truncated AOF DIR/appendonly.aof from 109 to 54 bytes");
    }

    @Test
    void transactionWithoutItsExecIsIncompleteFromItsMulti() throws Exception {
        String open = records(cmd("MULTI"), cmd("SET", "c", "3"));
        assertThat(check(GOOD + open, false)).isEqualTo(1);
        assertThat(output()).contains("ok_up_to=54").contains("(the MULTI at offset 54 has no EXEC)");
        assertThat(check(GOOD + open + "*1\r\n$4\r\nEX", true)).isZero();
        assertThat(Files.readString(dir.resolve("appendonly.aof"))).isEqualTo(GOOD);
    }

    @Test
    void completeTransactionIsValid() {
        assertThat(check(GOOD + records(cmd("MULTI"), cmd("SET", "c", "3"), cmd("EXEC")), false)).isZero();
    }
}
