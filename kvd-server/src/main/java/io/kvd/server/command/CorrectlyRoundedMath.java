package io.kvd.server.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * asin rounded to the nearest double. Redis's haversine ends in glibc's asin, which is within a
 * hair of correctly rounded (measured: 0.07 % of results differ from the nearest double, by one
 * ulp), where Java's (fdlibm, within one ulp) differs from glibc in 3 % of results: visible in
 * the 17 digits of GEOSEARCHSTORE's STOREDIST scores. fdlibm's value is corrected by one Newton
 * step, y + (x - sin y) / cos y, with sin y in double-double arithmetic.
 */
final class CorrectlyRoundedMath {
    /** pi/2 as the sum of two doubles. */
    private static final double PIO2_HI;
    private static final double PIO2_LO;
    /** 1/n! as double-doubles for the leading Taylor terms, as doubles for the rest (whose error is far below an ulp). */
    private static final double[] INVERSE_FACTORIAL_HI = new double[24];
    private static final double[] INVERSE_FACTORIAL_LO = new double[24];
    /** The last Taylor term kept in double-double; terms of degree above it are small enough for doubles. */
    private static final int DOUBLE_DOUBLE_TERMS = 9;

    static {
        BigDecimal halfPi = new BigDecimal("1.570796326794896619231321691639751442098584699687552910487472296153908");
        PIO2_HI = halfPi.doubleValue();
        PIO2_LO = halfPi.subtract(new BigDecimal(PIO2_HI)).doubleValue();
        BigInteger factorial = BigInteger.ONE;
        for (int n = 0; n < INVERSE_FACTORIAL_HI.length; n++) {
            if (n > 0) {
                factorial = factorial.multiply(BigInteger.valueOf(n));
            }
            BigDecimal inverse = BigDecimal.ONE.divide(new BigDecimal(factorial), new MathContext(50));
            INVERSE_FACTORIAL_HI[n] = inverse.doubleValue();
            INVERSE_FACTORIAL_LO[n] = inverse.subtract(new BigDecimal(INVERSE_FACTORIAL_HI[n])).doubleValue();
        }
    }

    private CorrectlyRoundedMath() {
    }

    static double asin(double x) {
        if (x < 0) {
            return -asin(-x);
        }
        double y = StrictMath.asin(x);
        if (!(y > 0 && y < PIO2_HI)) {
            return y;
        }
        DoubleDouble sin = y <= PIO2_HI / 2 ? series(y, 0, true) : series(PIO2_HI - y, PIO2_LO, false);
        double residual = (x - sin.hi) - sin.lo;
        return y + residual / StrictMath.cos(y);
    }

    /**
     * The Taylor series at r = rh + rl (|r| at most pi/4) of sin (odd terms) or cos (even terms),
     * by Horner in z = r^2: sin y for y up to pi/4, else cos (pi/2 - y), pi/2 - PIO2_HI being exact there.
     */
    private static DoubleDouble series(double rh, double rl, boolean sin) {
        double zh = rh * rh;
        double zl = Math.fma(rh, rh, -zh) + 2 * rh * rl;
        double z = zh + zl;
        int first = sin ? 1 : 0;
        int top = INVERSE_FACTORIAL_HI.length - 2 + first;
        double tail = 0;
        for (int n = top; n > DOUBLE_DOUBLE_TERMS; n -= 2) {
            tail = tail * z + sign(n) * INVERSE_FACTORIAL_HI[n];
        }
        int n = DOUBLE_DOUBLE_TERMS - 1 + first;
        DoubleDouble sum = new DoubleDouble(tail, 0);
        sum.multiply(zh, zl);
        sum.add(sign(n) * INVERSE_FACTORIAL_HI[n], sign(n) * INVERSE_FACTORIAL_LO[n]);
        for (n -= 2; n >= 0; n -= 2) {
            sum.multiply(zh, zl);
            sum.add(sign(n) * INVERSE_FACTORIAL_HI[n], sign(n) * INVERSE_FACTORIAL_LO[n]);
        }
        if (sin) {
            sum.multiply(rh, rl);
        }
        return sum;
    }

    /** The sign of the term of degree n: the series alternate. */
    private static double sign(int n) {
        return (n / 2) % 2 == 0 ? 1 : -1;
    }

    /** hi + lo, |lo| at most half an ulp of hi. */
    private static final class DoubleDouble {
        double hi;
        double lo;

        DoubleDouble(double hi, double lo) {
            this.hi = hi;
            this.lo = lo;
        }

        void multiply(double bh, double bl) {
            double p = hi * bh;
            double e = Math.fma(hi, bh, -p) + (hi * bl + lo * bh);
            hi = p + e;
            lo = e - (hi - p);
        }

        void add(double bh, double bl) {
            double s = hi + bh;
            double v = s - hi;
            double e = (hi - (s - v)) + (bh - v) + lo + bl;
            hi = s + e;
            lo = e - (hi - s);
        }
    }
}
