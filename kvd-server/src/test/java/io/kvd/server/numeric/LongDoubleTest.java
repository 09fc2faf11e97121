package io.kvd.server.numeric;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** x87 long double as Redis 7.0 on x86-64 reads, adds and prints it; expected texts come from redis-server. */
class LongDoubleTest {

    private static LongDouble parse(String text) {
        return LongDouble.parse(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** What INCRBYFLOAT of {@code increment} on {@code value} stores, or null if a side is no float. */
    private static String sum(String value, String increment) {
        LongDouble a = parse(value);
        LongDouble b = parse(increment);
        return a == null || b == null ? null : a.plus(b).toHumanString();
    }

    @Test
    void decimalFormsStrtoldAccepts() {
        assertThat(sum("0", ".5")).isEqualTo("0.5");
        assertThat(sum("0", "5.")).isEqualTo("5");
        assertThat(sum("0", "-.5e+1")).isEqualTo("-5");
        assertThat(sum("0", "1E+2")).isEqualTo("100");
        assertThat(sum("0", "+1")).isEqualTo("1");
        assertThat(sum("0", "5e-1")).isEqualTo("0.5");
    }

    @Test
    void hexadecimalFormsStrtoldAccepts() {
        assertThat(sum("0", "0X1P3")).isEqualTo("8");
        assertThat(sum("0", "-0x.8")).isEqualTo("-0.5");
        assertThat(sum("0", "0x1.8p1")).isEqualTo("3");
    }

    @Test
    void stringsThatAreNotWholeNumbersAreRefused() {
        for (String text : new String[]{"", "-", ".", "e1", "1e", "1e+", "0x", "0xg", "0x1p", "1.2.3", " 1", "1 ",
                "nan", "nan(1)", "infinit", "1_0"}) {
            assertThat(parse(text)).as(text).isNull();
        }
    }

    @Test
    void infinityIsReadButIsInfinite() {
        assertThat(parse("INFINITY").isInfinite()).isTrue();
        assertThat(parse("-inf").isInfinite()).isTrue();
        assertThat(parse("+Inf").plus(parse("1")).isInfinite()).isTrue();
    }

    @Test
    void stringsOf5120CharactersOrMoreAreRefused() {
        assertThat(sum("0", "0".repeat(5118) + "1")).isEqualTo("1");
        assertThat(parse("0".repeat(5119) + "1")).isNull();
    }

    @Test
    void overflowWhileReadingIsRefusedNotInfinite() {
        assertThat(parse("1.18973149535723176509e+4932")).isNull();
        assertThat(parse("1e5000")).isNull();
        assertThat(parse("00001e4934")).isNull();
        assertThat(sum("0", "1.189731495357231765e4932")).startsWith("11897314953572317650212638530309702051690633");
    }

    @Test
    void underflowToZeroIsRefusedButSubnormalsAndZeroAreRead() {
        assertThat(parse("1e-4951")).isNull();
        assertThat(parse("1.8e-4951")).isNull();
        assertThat(parse("0x1p-16446")).isNull();
        assertThat(sum("0", "1.9e-4951")).isEqualTo("0");
        assertThat(sum("0", "0x1p-16445")).isEqualTo("0");
        assertThat(sum("0", "0x1.8p-16446")).isEqualTo("0");
        assertThat(sum("0", "0e-99999")).isEqualTo("0");
    }

    @Test
    void sumsRoundToA64BitSignificand() {
        assertThat(sum("100000000000000000000", "1")).isEqualTo("100000000000000000000");
        assertThat(sum("5.6", "5.0e3")).isEqualTo("5005.60000000000000009");
        assertThat(sum("17179869184", "17179869184")).isEqualTo("34359738368");
    }

    @Test
    void printingKeepsSeventeenDecimalsWithoutTrailingZeros() {
        assertThat(sum("10.5", "0.1")).isEqualTo("10.6");
        assertThat(sum("0.1", "0.2")).isEqualTo("0.3");
        assertThat(sum("123456789.123456789", "0")).isEqualTo("123456789.12345678899873747");
        assertThat(sum("0", "0.000000000000000001")).isEqualTo("0");
        assertThat(sum("0", "0.000000000000000006")).isEqualTo("0.00000000000000001");
    }

    @Test
    void negativeValuesThatPrintAsZeroAreZero() {
        assertThat(sum("0", "-1e-20")).isEqualTo("0");
        assertThat(sum("-0", "-0")).isEqualTo("0");
    }

    @Test
    void overflowingSumIsInfinite() {
        assertThat(parse("1e4932").plus(parse("1e4932")).isInfinite()).isTrue();
        assertThat(parse("-1e4932").plus(parse("-1e4932")).isInfinite()).isTrue();
    }

    private static SplittableRandom seededRandom(String test) {
        long seed = Long.getLong("kvd.test.seed", 7_000_417L);
        System.out.println(test + " seed " + seed + " (rerun with -Dkvd.test.seed=" + seed + ")");
        return new SplittableRandom(seed);
    }

    @Test
    void sumsOfLongsWithoutOverflowAreExact() {
        SplittableRandom random = seededRandom("sumsOfLongsWithoutOverflowAreExact");
        for (int i = 0; i < 10_000; i++) {
            long a = random.nextLong() >> random.nextInt(64);
            long b = random.nextLong() >> random.nextInt(64);
            if (((a ^ (a + b)) & (b ^ (a + b))) < 0) {
                continue;
            }
            assertThat(sum(Long.toString(a), Long.toString(b))).as(a + " + " + b).isEqualTo(Long.toString(a + b));
        }
    }

    @Test
    void everyDoubleIsReadExactlyAndPrintedRoundedToSeventeenDecimals() {
        SplittableRandom random = seededRandom("everyDoubleIsReadExactlyAndPrintedRoundedToSeventeenDecimals");
        for (int i = 0; i < 10_000; i++) {
            double d = Double.longBitsToDouble(random.nextLong());
            if (Math.abs(Math.getExponent(d)) > 100) {
                continue;
            }
            BigDecimal exact = new BigDecimal(d);
            BigDecimal printed = exact.setScale(17, RoundingMode.HALF_EVEN);
            String expected = printed.signum() == 0 ? "0" : printed.stripTrailingZeros().toPlainString();
            assertThat(sum(exact.toPlainString(), "0")).as(exact.toPlainString()).isEqualTo(expected);
        }
    }
}
