package io.kvd.server.numeric;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * sin, cos and asin rounded to the nearest double, for the haversine that Redis computes with
 * glibc's. glibc 2.36's are within a hair of correctly rounded (measured on the haversine's
 * arguments: 0.08 % of sin, 0.15 % of cos and 0.09 % of asin results are an ulp off the nearest
 * double), and Math.sin and Math.cos about as close (0.07 % and 0.12 %; fdlibm's asin: 4 %), but
 * not for the same arguments: Java and glibc disagreed more often than either errs, visible in
 * the 17 digits of GEOSEARCHSTORE's STOREDIST scores. Rounding correctly leaves glibc's own errors.
 * <p>
 * sin and cos (for |x| up to pi): a table at multiples of 2^-12, a short series and
 * double-double arithmetic, then a test that the rounding is certain, with BigDecimal when it is
 * not (a few calls in a million): about 8 and 10 ns on the haversine's arguments, against 7 for
 * Math.sin and Math.cos. asin: fdlibm's algorithm (within an ulp; in Java here since JDK 17's
 * StrictMath.asin is a native call of ~200 ns) corrected by one Newton step,
 * y + (x - sin y) / cos y, with sin y in double-double arithmetic; below 2^-5 (the short
 * distances a search mostly measures) the Taylor series and a test that the rounding is certain.
 */
public final class CorrectlyRoundedMath {
    /** pi/2 to 70 digits, and as the sum of three doubles (about 160 bits). */
    private static final BigDecimal HALF_PI =
            new BigDecimal("1.570796326794896619231321691639751442098584699687552910487472296153908");
    private static final double PIO2_HI;
    private static final double PIO2_LO;
    private static final double PIO2_LO_TAIL;
    private static final double TWO_OVER_PI = 2 / Math.PI;
    /**
     * Up to where x needs no reduction by pi/2: past pi/4, as every latitude the haversine takes
     * the cosine of (85.05 degrees are 1.4844), with cos x at least 0.07.
     */
    private static final double UNREDUCED = 1.5;
    /** The table's step is 1/TABLE_SCALE. */
    private static final int TABLE_SCALE = 4096;
    /** The fraction bits of the fixed point the table is computed in. */
    private static final int TABLE_BITS = 128;
    /**
     * sin and cos of a = i/TABLE_SCALE as double-doubles, for i from 0 to past TABLE_SCALE UNREDUCED:
     * sin a's high and low parts at 4i and 4i + 1, cos a's at 4i + 2 and 4i + 3 (read together).
     */
    private static final double[] TABLE = new double[4 * ((int) (TABLE_SCALE * UNREDUCED) + 2)];
    /**
     * {@link #fromTable}'s double-double is within 2^-75 of the exact value, relatively: all but its
     * correction terms of the second order and above, computed in doubles and at most 2^-25.7 of
     * the result, are exact or within about 2^-100 (measured: 2^-77.7 at worst on 400,000
     * arguments near the worst cases). Its rounding to a double is then the exact
     * value's unless hi + lo lies within that of a midpoint between doubles; hi + lo * ROUNDING_TEST
     * stays hi exactly when it does not (near a midpoint lo is about half an ulp of hi, at least
     * 2^-54 hi, so lo * 2^-19 exceeds 2^-75 hi four times over).
     */
    private static final double ROUNDING_TEST = 1 + 0x1p-19;
    /** The BigDecimal sine or cosine's precision: far beyond the ~120 bits a double's sine or cosine can need to round. */
    private static final MathContext SLOW = new MathContext(50);
    /** 1/n! as double-doubles for the leading Taylor terms, as doubles for the rest (whose error is far below an ulp). */
    private static final double[] INVERSE_FACTORIAL_HI = new double[24];
    private static final double[] INVERSE_FACTORIAL_LO = new double[24];
    /** The last Taylor term kept in double-double at most; terms of degree above it are small enough for doubles. */
    private static final int DOUBLE_DOUBLE_TERMS = 9;

    static {
        PIO2_HI = HALF_PI.doubleValue();
        BigDecimal rest = HALF_PI.subtract(new BigDecimal(PIO2_HI));
        PIO2_LO = rest.doubleValue();
        PIO2_LO_TAIL = rest.subtract(new BigDecimal(PIO2_LO)).doubleValue();
        // Rotations by 1/TABLE_SCALE in fixed point of TABLE_BITS fraction bits (~30 ms, a fifth of
        // BigDecimal's): the 6,145 steps stay within 2^-115, under 2^-103 of the smallest entry.
        BigDecimal step = BigDecimal.ONE.divide(BigDecimal.valueOf(TABLE_SCALE));
        BigInteger sinStep = fixedPoint(taylor(step, true, SLOW));
        BigInteger cosStep = fixedPoint(taylor(step, false, SLOW));
        BigInteger sin = BigInteger.ZERO;
        BigInteger cos = fixedPoint(BigDecimal.ONE);
        for (int i = 0; i < TABLE.length; i += 4) {
            splitFixedPoint(sin, i);
            splitFixedPoint(cos, i + 2);
            BigInteger next = sin.multiply(cosStep).add(cos.multiply(sinStep)).shiftRight(TABLE_BITS);
            cos = cos.multiply(cosStep).subtract(sin.multiply(sinStep)).shiftRight(TABLE_BITS);
            sin = next;
        }
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
    /** Below it asin is its Taylor series' first terms ({@link #shortAsin}). */
    private static final double SHORT_ASIN = 0x1p-5;
    /** asin's Taylor coefficients (2n)! / (4^n n!^2 (2n + 1)) from n = 1, for x^3, x^5, ... x^13. */
    private static final double[] ASIN_SERIES = {
        1.0 / 6, 3.0 / 40, 5.0 / 112, 35.0 / 1152, 63.0 / 2816, 231.0 / 13312,
    };

    private CorrectlyRoundedMath() {
    }

    private static BigInteger fixedPoint(BigDecimal value) {
        return value.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(TABLE_BITS))).toBigInteger();
    }

    /** A fixed-point value as a double-double at TABLE[at] and TABLE[at + 1]. */
    private static void splitFixedPoint(BigInteger value, int at) {
        double hi = value.doubleValue();
        int exponent = Math.getExponent(hi) - 52;
        long mantissa = (long) Math.scalb(hi, -exponent);
        double lo = value.subtract(BigInteger.valueOf(mantissa).shiftLeft(exponent)).doubleValue();
        TABLE[at] = Math.scalb(hi, -TABLE_BITS);
        TABLE[at + 1] = Math.scalb(lo, -TABLE_BITS);
    }

    /** sin x rounded to the nearest double for |x| up to pi (the haversine's half differences); Math.sin beyond. */
    public static double sin(double x) {
        double abs = Math.abs(x);
        if (abs <= UNREDUCED) {
            return Math.copySign(fromTable(abs, 0, abs, 0, true), x);
        }
        return abs <= Math.PI ? Math.copySign(reduced(abs, false), x) : Math.sin(x);
    }

    /** cos x rounded to the nearest double for |x| up to pi (the haversine's latitudes); Math.cos beyond. */
    public static double cos(double x) {
        double abs = Math.abs(x);
        if (abs <= UNREDUCED) {
            return fromTable(abs, 0, abs, 0, false);
        }
        return abs <= Math.PI ? reduced(abs, true) : Math.cos(x);
    }

    /**
     * sin x or cos x for x in (UNREDUCED, pi]: x = k pi/2 + r with k of 1 or 2 and |r| at most
     * pi/4, r in double-double (x - k PIO2_HI is exact by Sterbenz's lemma for those k).
     */
    private static double reduced(double x, boolean cos) {
        int k = (int) (x * TWO_OVER_PI + 0.5);
        double x0 = x - k * PIO2_HI;
        double b = -k * PIO2_LO;
        double rh = x0 + b;
        double v = rh - x0;
        double rl = (x0 - (rh - v)) + (b - v) - k * PIO2_LO_TAIL;
        double signOfR = Math.copySign(1.0, rh);
        // sin x is sin |r| for k = 2 (r <= 0 there), cos r for k = 1; cos x is -sin r, -cos r.
        boolean sinOfR = cos == (k == 1);
        double magnitude = fromTable(x, k, rh * signOfR, rl * signOfR, sinOfR);
        if (!cos) {
            return magnitude;
        }
        return k == 2 ? -magnitude : -signOfR * magnitude;
    }

    /**
     * sin r or cos r for r = rh + rl in [0, UNREDUCED], r being x - k pi/2 up to sign: r = a + t
     * with a the nearest i/TABLE_SCALE (|t| at most 2^-13, rh - a exact by Sterbenz's lemma), and
     * sin r = sin a + cos a t + [sin a (cos t - 1) + cos a (sin t - t)] and
     * cos r = cos a - sin a t + [cos a (cos t - 1) - sin a (sin t - t)]: the first two terms in
     * double-double, the bracket, their Taylor series to degree 5, in doubles. Rounded once, through
     * BigDecimal when the double-double is too close to a midpoint between doubles. Small enough
     * for the JIT to inline (the haversine's arguments need no reduction).
     */
    private static double fromTable(double x, int k, double rh, double rl, boolean sinOfR) {
        int i = (int) (rh * TABLE_SCALE + 0.5);
        double th = rh - i * (1.0 / TABLE_SCALE);
        double t = th + rl;
        double z = t * t;
        double cosTMinusOne = z * (-1.0 / 2 + z * (1.0 / 24));
        double sinTMinusT = t * z * (-1.0 / 6 + z * (1.0 / 120));
        int entry = 4 * i + (sinOfR ? 0 : 2);
        int other = 4 * i + (sinOfR ? 2 : 0);
        double otherSign = sinOfR ? 1 : -1;
        double ah = TABLE[entry];
        double al = TABLE[entry + 1];
        double bh = otherSign * TABLE[other];
        double bl = otherSign * TABLE[other + 1];
        double bracket = ah * cosTMinusOne + bh * sinTMinusT;
        double p = bh * th;
        double pe = Math.fma(bh, th, -p);
        double s = ah + p;
        double sv = s - ah;
        double lo = (ah - (s - sv)) + (p - sv) + pe + al + (bh * rl + bl * th) + bracket;
        double hi = s + lo;
        lo -= hi - s;
        return hi == hi + lo * ROUNDING_TEST ? hi : slowSinOrCos(x, k, sinOfR);
    }

    /** sin |r| or cos |r| of r = x - k pi/2 in 50-digit decimal arithmetic, rounded to a double. */
    private static double slowSinOrCos(double x, int k, boolean sinOfR) {
        BigDecimal r = new BigDecimal(x).subtract(HALF_PI.multiply(BigDecimal.valueOf(k)));
        return taylor(r.abs().round(SLOW), sinOfR, SLOW).doubleValue();
    }

    /** The Taylor series of sin r or cos r for |r| up to UNREDUCED, to degree 60: 1.5^60 / 60! is below 10^-71. */
    private static BigDecimal taylor(BigDecimal r, boolean sin, MathContext precision) {
        BigDecimal z = r.multiply(r, precision);
        BigDecimal term = sin ? r : BigDecimal.ONE;
        BigDecimal sum = term;
        for (int n = sin ? 3 : 2; n <= 60; n += 2) {
            term = term.multiply(z, precision).divide(BigDecimal.valueOf((long) n * (n - 1)), precision).negate();
            sum = sum.add(term, precision);
        }
        return sum;
    }

    public static double asin(double x) {
        if (x < 0) {
            return -asin(-x);
        }
        if (!(x > 0 && x < 1)) {
            return StrictMath.asin(x);
        }
        if (x < SHORT_ASIN) {
            double y = shortAsin(x);
            if (!Double.isNaN(y)) {
                return y;
            }
        }
        double y = fdlibmAsin(x);
        // sin y for y up to pi/4, else cos (pi/2 - y), pi/2 - PIO2_HI being exact there.
        DoubleDouble sin = y <= PIO2_HI / 2 ? series(y, 0, true) : series(PIO2_HI - y, PIO2_LO, false);
        double residual = (x - sin.hi) - sin.lo;
        // cos y is sqrt(1 - x^2) to the correction's few bits, without cos's cost (1 - x is exact from 0.5 on).
        return y + residual / Math.sqrt((1 - x) * (1 + x));
    }

    /**
     * asin x for 0 < x < SHORT_ASIN (distances up to some 400 km) by its Taylor series, or NaN
     * when the rounding is in doubt: x plus a correction under 2^-10 x, which the series' first
     * six terms give in doubles to within some 2^-62 x (the rest is below 2^-70 x). hi + lo is
     * x plus the correction exactly, so hi is the nearest double unless hi + lo lies within that
     * error of a midpoint between doubles, which lo * (1 + 2^-6) rounding elsewhere shows (lo
     * is then about half an ulp, at least 2^-55 hi, and 2^-6 of it is 2^-61 hi).
     */
    private static double shortAsin(double x) {
        double z = x * x;
        double p = ASIN_SERIES[ASIN_SERIES.length - 1];
        for (int n = ASIN_SERIES.length - 2; n >= 0; n--) {
            p = p * z + ASIN_SERIES[n];
        }
        double correction = x * z * p;
        double hi = x + correction;
        double lo = correction - (hi - x);
        return hi == hi + lo * (1 + 0x1p-6) ? hi : Double.NaN;
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
     * by Horner in z = r^2, in double-double. Terms below 2^-110 of the first are left out, those
     * below 2^-53 summed in doubles: a small r (a short distance) needs few, and few exactly.
     */
    private static DoubleDouble series(double rh, double rl, boolean sin) {
        double zh = rh * rh;
        double zl = Math.fma(rh, rh, -zh) + 2 * rh * rl;
        double z = zh + zl;
        int first = sin ? 1 : 0;
        int top = lastDegree(z, 110, first, INVERSE_FACTORIAL_HI.length - 2 + first);
        int lastExact = lastDegree(z, 53, first, DOUBLE_DOUBLE_TERMS - 1 + first);
        double tail = 0;
        int n = top;
        for (; n > lastExact; n -= 2) {
            tail = tail * z + sign(n) * INVERSE_FACTORIAL_HI[n];
        }
        DoubleDouble sum = new DoubleDouble(tail, 0);
        for (; n >= 0; n -= 2) {
            sum.multiply(zh, zl);
            sum.add(sign(n) * INVERSE_FACTORIAL_HI[n], sign(n) * INVERSE_FACTORIAL_LO[n]);
        }
        if (sin) {
            sum.multiply(rh, rl);
        }
        return sum;
    }

    /**
     * The highest degree, at most {@code most} and of the parity of {@code first}, whose term (in
     * z^m) may reach 2^-bits of the first: z < 2^-(e-1) puts z^m below once m (e - 1) >= bits,
     * and the factorials only make terms smaller.
     */
    private static int lastDegree(double z, int bits, int first, int most) {
        int e = -Math.getExponent(z);
        return e < 2 ? most : Math.min(most, 2 * ((bits + e - 2) / (e - 1) - 1) + first);
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
