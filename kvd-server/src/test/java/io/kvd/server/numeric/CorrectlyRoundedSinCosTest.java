package io.kvd.server.numeric;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CorrectlyRoundedMath's sin and cos against the exact values rounded to the nearest double, from
 * a reference that shares nothing with them: the Taylor series at x itself (no reduction, no
 * table) in 60-digit decimal arithmetic, of which at least 40 digits survive the cancellation
 * near pi and pi/2; BigDecimal.doubleValue rounds to nearest.
 */
class CorrectlyRoundedSinCosTest {
    private static final long SEED = 20261206L;
    private static final MathContext REFERENCE = new MathContext(60);
    /** Arguments whose double-double lies so near a midpoint between doubles that they take the BigDecimal path (found by search). */
    private static final double[] NEAR_MIDPOINTS = {
            -0.7499167605075585, -2.0514969681418336, -0.001001570246530914, 1.2099948831568463,
            0.8722078557076651, 1.609670892451014, 2.720084705748519, -2.850862478657379, 2.432383912197369,
            2.4327533832522708, -1.7509879395019161, 2.681204293761094, -2.8085442184037266,
            0.8505560455481165, -2.99607892641433, -2.2884663961255907};

    @Test
    void sinAndCosAreTheNearestDoublesOverTheDomain() {
        System.out.println("CorrectlyRoundedSinCosTest seed " + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 20_000; i++) {
            // Uniform over [-pi, pi], and log-uniform down to 2^-30 as the haversine's half differences of nearby points.
            double x = i % 2 == 0
                    ? random.nextDouble(-Math.PI, Math.PI)
                    : Math.copySign(Math.pow(2, random.nextDouble(-30, Math.log(Math.PI) / Math.log(2))), random.nextDouble() - 0.5);
            assertCorrectlyRounded(x, "seed " + SEED + ", draw " + i);
        }
    }

    @Test
    void sinAndCosAreTheNearestDoublesAtTheEdges() {
        double[] edges = {Double.MIN_VALUE, 1e-300, 0x1p-30, 1.0 / 4096, 1.5 / 4096, 0.5,
                Math.PI / 4, 1.5, Math.PI / 2, 3 * Math.PI / 4, Math.PI, 1.0, 2.0, 3.0};
        for (double edge : edges) {
            for (double x : new double[] {Math.nextDown(edge), edge, Math.nextUp(edge)}) {
                if (Math.abs(x) <= Math.PI) {
                    assertCorrectlyRounded(x, "edge");
                    assertCorrectlyRounded(-x, "edge");
                }
            }
        }
        for (double x : NEAR_MIDPOINTS) {
            assertCorrectlyRounded(x, "near a midpoint");
        }
    }

    @Test
    void signedZerosAndKnownValues() {
        assertThat(Double.doubleToRawLongBits(CorrectlyRoundedMath.sin(0.0))).isEqualTo(Double.doubleToRawLongBits(0.0));
        assertThat(Double.doubleToRawLongBits(CorrectlyRoundedMath.sin(-0.0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(CorrectlyRoundedMath.cos(0.0)).isEqualTo(1.0);
        assertThat(CorrectlyRoundedMath.cos(-0.0)).isEqualTo(1.0);
        assertThat(CorrectlyRoundedMath.sin(Math.PI)).isEqualTo(1.2246467991473532e-16);
        assertThat(CorrectlyRoundedMath.cos(Math.PI / 2)).isEqualTo(6.123233995736766e-17);
        assertThat(CorrectlyRoundedMath.cos(Math.PI)).isEqualTo(-1.0);
        assertThat(CorrectlyRoundedMath.sin(Math.PI / 2)).isEqualTo(1.0);
    }

    @Test
    void pastPiIsJavasAndNaNStaysNaN() {
        assertThat(CorrectlyRoundedMath.sin(4.0)).isEqualTo(Math.sin(4.0));
        assertThat(CorrectlyRoundedMath.cos(-4.0)).isEqualTo(Math.cos(-4.0));
        assertThat(CorrectlyRoundedMath.sin(Double.NaN)).isNaN();
        assertThat(CorrectlyRoundedMath.cos(Double.POSITIVE_INFINITY)).isNaN();
    }

    private static void assertCorrectlyRounded(double x, String where) {
        assertThat(CorrectlyRoundedMath.sin(x)).as("%s: sin(%s)", where, x).isEqualTo(reference(x, true));
        assertThat(CorrectlyRoundedMath.cos(x)).as("%s: cos(%s)", where, x).isEqualTo(reference(x, false));
    }

    /** sin x or cos x by the Taylor series at x, summed until a term is below 10^-80. */
    private static double reference(double x, boolean sin) {
        BigDecimal exact = new BigDecimal(x);
        BigDecimal square = exact.multiply(exact, REFERENCE);
        BigDecimal term = sin ? exact : BigDecimal.ONE;
        BigDecimal sum = term;
        BigDecimal negligible = new BigDecimal("1e-80");
        for (int n = sin ? 3 : 2; term.abs().compareTo(negligible) > 0; n += 2) {
            term = term.multiply(square, REFERENCE).divide(BigDecimal.valueOf((long) n * (n - 1)), REFERENCE).negate();
            sum = sum.add(term, REFERENCE);
        }
        return sum.doubleValue();
    }
}
