package io.kvd.server.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * asin rounded to the nearest double. Redis's haversine ends in glibc's asin, which is within a
 * hair of correctly rounded (measured: 0.07 % of results differ from the nearest double, by one
 * ulp), where Java's (fdlibm, within one ulp) differs from glibc in 3 % of results: visible in
 * the 17 digits of GEOSEARCHSTORE's STOREDIST scores. fdlibm's algorithm (within an ulp; in
 * Java here since JDK 17's StrictMath.asin is a native call of ~200 ns) is corrected by one Newton
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

    /** fdlibm's e_asin.c: pi/2 and pi/4 split, and the rational approximation's coefficients. */
    private static final double FDLIBM_PIO2_HI = 1.57079632679489655800e+00;
    private static final double FDLIBM_PIO2_LO = 6.12323399573676603587e-17;
    private static final double FDLIBM_PIO4_HI = 7.85398163397448278999e-01;
    private static final double PS0 = 1.66666666666666657415e-01;
    private static final double PS1 = -3.25565818622400915405e-01;
    private static final double PS2 = 2.01212532134862925881e-01;
    private static final double PS3 = -4.00555345006794114027e-02;
    private static final double PS4 = 7.91534994289814532176e-04;
    private static final double PS5 = 3.47933107596021167570e-05;
    private static final double QS1 = -2.40339491173441421878e+00;
    private static final double QS2 = 2.02094576023350569471e+00;
    private static final double QS3 = -6.88283971605453293030e-01;
    private static final double QS4 = 7.70381505559019352791e-02;

    private CorrectlyRoundedMath() {
    }

    static double asin(double x) {
        if (x < 0) {
            return -asin(-x);
        }
        if (!(x > 0 && x < 1)) {
            return StrictMath.asin(x);
        }
        double y = fdlibmAsin(x);
        DoubleDouble sin = y <= PIO2_HI / 2 ? series(y, 0, true) : series(PIO2_HI - y, PIO2_LO, false);
        double residual = (x - sin.hi) - sin.lo;
        return y + residual / Math.cos(y);
    }

    /** fdlibm's __ieee754_asin for 0 < x < 1. */
    private static double fdlibmAsin(double x) {
        if (x < 0.5) {
            double t = x * x;
            double p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
            double q = 1.0 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
            return x + x * (p / q);
        }
        double w = 1.0 - x;
        double t = w * 0.5;
        double p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
        double q = 1.0 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
        double s = Math.sqrt(t);
        if (x >= 0.975) {
            return FDLIBM_PIO2_HI - (2.0 * (s + s * (p / q)) - FDLIBM_PIO2_LO);
        }
        double high = Double.longBitsToDouble(Double.doubleToRawLongBits(s) & 0xFFFFFFFF00000000L);
        double c = (t - high * high) / (s + high);
        double r = p / q;
        p = 2.0 * s * r - (FDLIBM_PIO2_LO - 2.0 * c);
        q = FDLIBM_PIO4_HI - 2.0 * high;
        return FDLIBM_PIO4_HI - (p - q);
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
