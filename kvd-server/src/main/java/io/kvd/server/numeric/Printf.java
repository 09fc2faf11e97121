package io.kvd.server.numeric;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** C's printf of a double, as Redis prints scores and digests them. */
public final class Printf {
    private static final MathContext SEVENTEEN_DIGITS = new MathContext(17, RoundingMode.HALF_EVEN);

    private Printf() {
    }

    /**
     * C's printf("%.17g"): 17 significant digits, trailing zeros dropped, exponent form outside
     * [1e-4, 1e17); "inf" and "-inf" for the infinities.
     */
    public static String g17(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(SEVENTEEN_DIGITS);
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 17) {
            String digits = rounded.unscaledValue().abs().toString().replaceFirst("0+$", "");
            StringBuilder out = new StringBuilder();
            if (rounded.signum() < 0) {
                out.append('-');
            }
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            return out.append(magnitude).toString();
        }
        String plain = rounded.toPlainString();
        if (plain.indexOf('.') >= 0) {
            plain = plain.replaceFirst("0+$", "").replaceFirst("\\.$", "");
        }
        return plain;
    }
}
