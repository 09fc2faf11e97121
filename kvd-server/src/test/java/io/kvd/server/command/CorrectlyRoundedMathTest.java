package io.kvd.server.command;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The expected values are the exact asin rounded to nearest, computed with 200-bit arithmetic (mpmath). */
class CorrectlyRoundedMathTest {
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
}
