package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class RespWriterTest {

    @Test
    void okAndPongAreSimpleStrings() {
        assertThat(written(out -> RespWriter.writeOk(out))).isEqualTo("+OK\r\n");
        assertThat(written(out -> RespWriter.writePong(out))).isEqualTo("+PONG\r\n");
    }

    @Test
    void simpleStringAndErrorCarryTheirText() {
        assertThat(written(out -> RespWriter.writeSimpleString(out, "QUEUED"))).isEqualTo("+QUEUED\r\n");
        assertThat(written(out -> RespWriter.writeError(out, "ERR syntax error"))).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void integersAreWrittenInDecimalWithTheirSign() {
        assertThat(written(out -> RespWriter.writeInteger(out, 0))).isEqualTo(":0\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, 9999))).isEqualTo(":9999\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, 10_000))).isEqualTo(":10000\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, -1))).isEqualTo(":-1\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, -10_000))).isEqualTo(":-10000\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, Long.MAX_VALUE))).isEqualTo(":9223372036854775807\r\n");
        assertThat(written(out -> RespWriter.writeInteger(out, Long.MIN_VALUE))).isEqualTo(":-9223372036854775808\r\n");
    }

    @Test
    void bulkIsLengthThenBytes() {
        assertThat(written(out -> RespWriter.writeBulk(out, "foo"))).isEqualTo("$3\r\nfoo\r\n");
        assertThat(written(out -> RespWriter.writeBulk(out, new byte[0]))).isEqualTo("$0\r\n\r\n");
        assertThat(written(out -> RespWriter.writeBulk(out, new byte[] {'\r', '\n', 0}))).isEqualTo("$3\r\n\r\n\0\r\n");
        assertThat(written(out -> RespWriter.writeBulk(out, "xfoox".getBytes(StandardCharsets.US_ASCII), 1, 3)))
                .isEqualTo("$3\r\nfoo\r\n");
    }

    @Test
    void bulkStringIsWrittenAsUtf8() {
        assertThat(written(out -> RespWriter.writeBulk(out, "é"))).isEqualTo("$2\r\n\u00c3\u00a9\r\n");
    }

    @Test
    void bulkLongerThan9999HasItsLengthWrittenOut() {
        String value = "v".repeat(12_345);
        assertThat(written(out -> RespWriter.writeBulk(out, value))).isEqualTo("$12345\r\n" + value + "\r\n");
    }

    @Test
    void everySharedIntegerAndLengthIsItsDecimalText() {
        for (int n = 0; n <= 10_000; n++) {
            int i = n;
            assertThat(written(out -> RespWriter.writeInteger(out, i))).isEqualTo(":" + i + "\r\n");
            assertThat(written(out -> RespWriter.writeArrayHeader(out, i))).isEqualTo("*" + i + "\r\n");
            assertThat(written(out -> RespWriter.writeBulk(out, new byte[i]))).startsWith("$" + i + "\r\n");
        }
    }

    @Test
    void nullBulkAndNullArrayHaveLengthMinusOne() {
        assertThat(written(out -> RespWriter.writeNullBulk(out))).isEqualTo("$-1\r\n");
        assertThat(written(out -> RespWriter.writeNullArray(out))).isEqualTo("*-1\r\n");
    }

    @Test
    void arrayHeaderCarriesTheCount() {
        assertThat(written(out -> RespWriter.writeArrayHeader(out, 0))).isEqualTo("*0\r\n");
        assertThat(written(out -> RespWriter.writeArrayHeader(out, 3))).isEqualTo("*3\r\n");
        assertThat(written(out -> RespWriter.writeArrayHeader(out, 10_000))).isEqualTo("*10000\r\n");
    }

    @Test
    void commandIsAnArrayOfBulks() {
        byte[] set = "SET".getBytes(StandardCharsets.US_ASCII);
        byte[] key = "k".getBytes(StandardCharsets.US_ASCII);
        assertThat(written(out -> RespWriter.writeCommand(out, set, key, new byte[0])))
                .isEqualTo("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
    }

    @Test
    void decimalsAppendAfterWhatTheBufferAlreadyHolds() {
        assertThat(written(out -> {
            out.writeByte('x');
            RespWriter.writeInteger(out, -42_000);
            RespWriter.writeInteger(out, 123_456_789);
        })).isEqualTo("x:-42000\r\n:123456789\r\n");
    }

    @Test
    void decimalsGrowAFullBuffer() {
        ByteBuf out = Unpooled.buffer(2);
        try {
            RespWriter.writeInteger(out, 1_234_567_890_123L);
            assertThat(out.toString(StandardCharsets.ISO_8859_1)).isEqualTo(":1234567890123\r\n");
        } finally {
            out.release();
        }
    }

    /** What {@code writing} wrote, one char per byte. */
    private static String written(Consumer<ByteBuf> writing) {
        ByteBuf out = Unpooled.buffer();
        try {
            writing.accept(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        } finally {
            out.release();
        }
    }

    @Test
    void arrayEncodingsWriteTheSameBytesAsBufferEncodings() {
        long seed = 20261203L;
        SplittableRandom random = new SplittableRandom(seed);
        long[] edges = {0, 1, 9, 10, 9999, 10_000, -1, -10_000, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
        for (int i = 0; i < 10_000; i++) {
            long value = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            int count = (int) Math.min(Integer.MAX_VALUE, Math.abs(value == Long.MIN_VALUE ? 0 : value));
            byte[] bulk = new byte[random.nextInt(12_000)];
            random.nextBytes(bulk);
            String why = "seed " + seed + ", value " + value;
            assertThat(arrayWritten(RespWriter.MAX_LINE_BYTES, (out, at) -> RespWriter.writeInteger(out, at, value)))
                    .as(why).isEqualTo(written(out -> RespWriter.writeInteger(out, value)));
            assertThat(arrayWritten(RespWriter.MAX_LINE_BYTES, (out, at) -> RespWriter.writeArrayHeader(out, at, count)))
                    .as(why).isEqualTo(written(out -> RespWriter.writeArrayHeader(out, count)));
            assertThat(arrayWritten(RespWriter.MAX_LINE_BYTES + bulk.length + 2,
                    (out, at) -> RespWriter.writeBulk(out, at, bulk, 0, bulk.length)))
                    .as(why).isEqualTo(written(out -> RespWriter.writeBulk(out, bulk)));
        }
        assertThat(arrayWritten(RespWriter.MAX_LINE_BYTES, RespWriter::writeNullBulk))
                .isEqualTo(written(RespWriter::writeNullBulk));
    }

    /** What an array encoding wrote at offset 3 of an array with exactly {@code room} bytes after it. */
    private static String arrayWritten(int room, ArrayEncoding encoding) {
        byte[] out = new byte[3 + room];
        int end = encoding.write(out, 3);
        return new String(out, 3, end - 3, StandardCharsets.ISO_8859_1);
    }

    private interface ArrayEncoding {
        int write(byte[] out, int at);
    }
}
