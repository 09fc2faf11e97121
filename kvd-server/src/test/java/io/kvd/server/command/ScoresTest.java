package io.kvd.server.command;

import io.kvd.server.protocol.CommandError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Scores read as strtod reads them, the plain decimals' shortcut included. */
class ScoresTest {
    private static final long SEED = 20261204L;

    @Test
    void plainDecimalsReadAsTheCorrectlyRoundedParseDoes() {
        System.out.println("ScoresTest seed " + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 200_000; i++) {
            // Up to 18 digits with the point anywhere, so both sides of 2^53 and of 22 fraction digits.
            int length = 1 + random.nextInt(24);
            StringBuilder text = new StringBuilder(random.nextInt(3) == 0 ? "-" : random.nextInt(8) == 0 ? "+" : "");
            int point = random.nextInt(length + 1);
            for (int d = 0; d < length; d++) {
                if (d == point) {
                    text.append('.');
                }
                text.append((char) ('0' + (d < 18 ? random.nextInt(10) : 0)));
            }
            String number = text.toString();
            assertThat(Scores.parse(number.getBytes(StandardCharsets.US_ASCII)))
                    .as("seed %d, draw %d: %s", SEED, i, number)
                    .isEqualTo(Double.parseDouble(number));
        }
    }

    @Test
    void edgesOfTheShortcutReadAsStrtod() {
        assertThat(Scores.parse(b("9007199254740991"))).isEqualTo(9007199254740991.0);
        assertThat(Scores.parse(b("9007199254740993"))).isEqualTo(9007199254740992.0);
        assertThat(Scores.parse(b("0.1"))).isEqualTo(0.1);
        assertThat(Scores.parse(b("1.0000000000000000000001"))).isEqualTo(1.0);
        assertThat(Scores.parse(b("-0"))).isEqualTo(-0.0);
        assertThat(Scores.parse(b("5."))).isEqualTo(5.0);
        assertThat(Scores.parse(b(".5"))).isEqualTo(0.5);
        assertThat(Scores.parse(b("+7"))).isEqualTo(7.0);
        assertThat(Scores.parse(b("1e3"))).isEqualTo(1000.0);
        for (String invalid : new String[] {".", "-", "+", "1..2", "1.2.3", "--1", "1-", " 1", "1 ", "nan"}) {
            assertThatThrownBy(() -> Scores.parse(b(invalid))).as(invalid).isInstanceOf(CommandError.class);
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
