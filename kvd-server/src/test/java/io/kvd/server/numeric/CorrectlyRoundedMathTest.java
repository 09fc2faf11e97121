package io.kvd.server.numeric;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The expected values are the exact asin rounded to nearest, computed with 200-bit arithmetic (mpmath). */
class CorrectlyRoundedMathTest {
    private static final long SEED = 20261204L;
    private static final MathContext PRECISE = new MathContext(45);

    @Test
    void asinIsTheNearestDoubleWhereFdlibmIsAnUlpOff() {
        assertThat(StrictMath.asin(0.46249075911760285)).isNotEqualTo(0.48080240855348894);
        assertThat(CorrectlyRoundedMath.asin(0.46249075911760285)).isEqualTo(0.48080240855348894);
        assertThat(CorrectlyRoundedMath.asin(0.8381981668493141)).isEqualTo(0.9939708865173261);
    }

    @Test
    void asinKeepsTheEdgesAndTheSign() {
        assertThat(CorrectlyRoundedMath.asin(0.0)).isEqualTo(0.0);
        assertThat(CorrectlyRoundedMath.asin(1.0)).isEqualTo(Math.PI / 2);
        assertThat(CorrectlyRoundedMath.asin(-0.8381981668493141)).isEqualTo(-0.9939708865173261);
        assertThat(CorrectlyRoundedMath.asin(1.5)).isNaN();
    }

    /**
     * asin x is the nearest double y when sin, increasing there, puts x strictly between the sines
     * of the midpoints either side of y (in 45-digit arithmetic). The haversine's arguments are
     * mostly tiny (short distances), so x is drawn log-uniform from 2^-40 to 1 as well as uniform.
     */
    @Test
    void asinIsTheNearestDoubleOnRandomArguments() {
        System.out.println("CorrectlyRoundedMathTest seed " + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 20_000; i++) {
            double x = i % 2 == 0 ? random.nextDouble() : Math.pow(2, -40 * random.nextDouble());
            double y = CorrectlyRoundedMath.asin(x);
            BigDecimal halfUlp = new BigDecimal(Math.ulp(y)).divide(BigDecimal.valueOf(2));
            BigDecimal below = sin(new BigDecimal(y).subtract(halfUlp));
            BigDecimal above = sin(new BigDecimal(y).add(halfUlp));
            BigDecimal exact = new BigDecimal(x);
            assertThat(below.compareTo(exact) < 0 && exact.compareTo(above) < 0)
                    .as("seed %d, draw %d: asin(%s) = %s", SEED, i, x, y)
                    .isTrue();
        }
    }

    private static BigDecimal sin(BigDecimal r) {
        BigDecimal z = r.multiply(r, PRECISE);
        BigDecimal term = r;
        BigDecimal sum = r;
        for (int n = 3; term.abs().compareTo(new BigDecimal("1e-60")) > 0; n += 2) {
            term = term.multiply(z, PRECISE).divide(BigDecimal.valueOf((long) n * (n - 1)), PRECISE).negate();
            sum = sum.add(term, PRECISE);
        }
        return sum;
    }
}
