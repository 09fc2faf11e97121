package io.kvd.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @Test
    void unitsAreMillisecondsSecondsMinutesAndHours() {
        assertThat(converter.convert("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(converter.convert("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aBareNumberIsSeconds() {
        assertThat(converter.convert("30")).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void fractionsNegativesAndOtherUnitsAreRejected() {
        for (String text : new String[] {"1.5s", "-1s", "10d", "s", ""}) {
            assertThatThrownBy(() -> converter.convert(text)).as(text).isInstanceOf(TypeConversionException.class);
        }
    }
}
