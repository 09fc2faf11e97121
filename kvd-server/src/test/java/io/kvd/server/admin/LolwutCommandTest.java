package io.kvd.server.admin;

import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kvd.server.command.CommandFixture.bulk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * LOLWUT as Redis 7.0.15 answers it. Its art is random, so drawings are compared by shape (lines
 * and their lengths, as redis-server gave them for the same arguments), and byte for byte where
 * nothing is drawn at random (squares of the first two rows, a skyline one row tall).
 */
class LolwutCommandTest {
    private static final String VERSION_LINE = "Redis ver. 7.0.15\n";
    private static final String SCHOTTER_CREDITS = "Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.0.15";
    private static final String SKYLINE_CREDITS = "Dedicated to the 8 bit game developers of past and present.\n"
            + "Original 8 bit image from Plaguemon by hikikomori. Redis ver. 7.0.15";
    private static final String WHITE = "\033[0;97;107m \033[0m";
    private static final Pattern CELL = Pattern.compile("\033\\[[0-9;]*m \033\\[0m");
    private static final Set<String> SKYLINE_COLOURS =
            Set.of("\033[0;30;40m \033[0m", "\033[0;90;100m \033[0m", "\033[0;37;47m \033[0m", WHITE);

    private final CommandFixture kvd = new CommandFixture();

    /** The bulk string's text, after checking that the reply is one bulk of that many bytes. */
    private String text(String... argv) {
        String reply = kvd.call(argv);
        String text = reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
        assertThat(reply).isEqualTo(bulk(text));
        return text;
    }

    /** The drawing's lines: the text before the credits' line, split at its newlines. */
    private static List<String> drawing(String text, String credits) {
        String after = "\n" + credits + "\n";
        assertThat(text).endsWith(after);
        return Arrays.asList(text.substring(0, text.length() - after.length()).split("\n", -1));
    }

    @Test
    void withoutVersionRepliesTheVersionLine() {
        assertThat(kvd.call("LOLWUT")).isEqualTo(bulk(VERSION_LINE));
        assertThat(kvd.call("LOLWUT", "5", "10")).isEqualTo(bulk(VERSION_LINE));
        assertThat(kvd.call("LOLWUT", "VERSION")).isEqualTo(bulk(VERSION_LINE));
    }

    @Test
    void versionsOtherThanFiveAndSixReplyTheVersionLine() {
        assertThat(kvd.call("LOLWUT", "VERSION", "7")).isEqualTo(bulk(VERSION_LINE));
        assertThat(kvd.call("LOLWUT", "version", "4", "x")).isEqualTo(bulk(VERSION_LINE));
        assertThat(kvd.call("LOLWUT", "VERSION", "50")).isEqualTo(bulk(VERSION_LINE));
        assertThat(kvd.call("LOLWUT", "VERSION", "-1")).isEqualTo(bulk(VERSION_LINE));
    }

    @Test
    void versionIsTakenAsAnUnsignedInt() {
        assertThat(text("LOLWUT", "VERSION", "4294967301", "1")).isEqualTo("⠿\n\n" + SCHOTTER_CREDITS + "\n");
        assertThat(text("LOLWUT", "VERSION", "-4294967290", "3", "1")).isEqualTo(WHITE.repeat(3) + "\n"
                + SKYLINE_CREDITS + "\n");
    }

    @Test
    void nonIntegerVersionOrArgumentIsRefused() {
        String notInteger = "-ERR value is not an integer or out of range\r\n";
        assertThat(kvd.call("LOLWUT", "VERSION", "x")).isEqualTo(notInteger);
        assertThat(kvd.call("LOLWUT", "VERSION", "5.0")).isEqualTo(notInteger);
        assertThat(kvd.call("LOLWUT", "VERSION", "99999999999999999999")).isEqualTo(notInteger);
        assertThat(kvd.call("LOLWUT", "VERSION", "5", "10", "x")).isEqualTo(notInteger);
        assertThat(kvd.call("LOLWUT", "VERSION", "6", "x")).isEqualTo(notInteger);
        assertThat(kvd.call("LOLWUT", "VERSION", "7", "x")).isEqualTo(bulk(VERSION_LINE));
    }

    @Test
    void schotterOfOneColumnIsOneCharacter() {
        // Two rows of squares are drawn straight: rows from the third on move at random.
        assertThat(text("LOLWUT", "VERSION", "5", "1", "1", "2")).isEqualTo("⡯\n\n" + SCHOTTER_CREDITS + "\n");
        assertThat(text("LOLWUT", "VERSION", "5", "-3", "0", "0")).isEqualTo("⠋\n\n" + SCHOTTER_CREDITS + "\n");
    }

    @Test
    void schotterTwoRowsHighIsDrawnStraight() {
        assertThat(text("LOLWUT", "VERSION", "5", "10", "3", "2")).isEqualTo("""
                ⢰⠒⠒⢲⠒⠒⣶⠒⠒⡆
                ⢸⣀⣀⣸⣀⣀⣿⣀⣀⡇
                ⢸⠀⠀⢸⠀⠀⣿⠀⠀⡇
                ⠘⠒⠒⠚⠒⠒⠛⠒⠒⠃

                """ + SCHOTTER_CREDITS + "\n");
        assertThat(text("LOLWUT", "VERSION", "5", "7", "3", "1")).isEqualTo("⠀⡤⡄⡤⣤⢤⠀\n⠀⠉⠁⠉⠉⠉⠀\n\n" + SCHOTTER_CREDITS + "\n");
    }

    @Test
    void schotterByDefaultIs49LinesOf66Braille() {
        List<String> lines = drawing(text("LOLWUT", "VERSION", "5"), SCHOTTER_CREDITS);
        // 196 pixel rows: the last band starts above the last row, so an empty line follows it.
        assertThat(lines).hasSize(50);
        assertThat(lines.subList(0, 49)).allSatisfy(line -> assertThat(line).hasSize(66).matches("[\u2800-\u28ff]+"));
        assertThat(lines.get(49)).isEmpty();
    }

    @Test
    void schotterArgumentsAreClampedToRedisLimits() {
        // 1000 columns of 200 squares, one row: 13 pixel rows, so 4 lines and no empty one.
        List<String> lines = drawing(text("LOLWUT", "VERSION", "5", "5000", "900", "1"), SCHOTTER_CREDITS);
        assertThat(lines).hasSize(4).allSatisfy(line -> assertThat(line).hasSize(1000));
        // 200 rows of squares 9 pixels high: 1804 pixel rows, 451 lines and an empty one.
        lines = drawing(text("LOLWUT", "VERSION", "5", "20", "4", "300"), SCHOTTER_CREDITS);
        assertThat(lines).hasSize(452);
        assertThat(lines.subList(0, 451)).allSatisfy(line -> assertThat(line).hasSize(20));
    }

    @Test
    void skylineByDefaultIs20RowsOf80Cells() {
        assertThat(drawing(text("LOLWUT", "VERSION", "6"), SKYLINE_CREDITS))
                .hasSize(20).allSatisfy(row -> assertThat(cells(row)).hasSize(80).isSubsetOf(SKYLINE_COLOURS));
    }

    @Test
    void skylineArgumentsAreClampedToRedisLimits() {
        assertThat(drawing(text("LOLWUT", "VERSION", "6", "0", "5000"), SKYLINE_CREDITS))
                .hasSize(1000).allSatisfy(row -> assertThat(cells(row)).hasSize(1).isSubsetOf(SKYLINE_COLOURS));
        assertThat(drawing(text("LOLWUT", "VERSION", "6", "3000", "2"), SKYLINE_CREDITS))
                .hasSize(2).allSatisfy(row -> assertThat(cells(row)).hasSize(1000).isSubsetOf(SKYLINE_COLOURS));
    }

    @Test
    void skylineOneRowTallIsAllSky() {
        assertThat(text("LOLWUT", "VERSION", "6", "4", "1")).isEqualTo(WHITE.repeat(4) + "\n"
                + SKYLINE_CREDITS + "\n");
    }

    /** A skyline row's cells, checking that nothing else is in it. */
    private static List<String> cells(String row) {
        Matcher matcher = CELL.matcher(row);
        List<String> cells = new ArrayList<>();
        while (matcher.find()) {
            cells.add(matcher.group());
        }
        assertThat(String.join("", cells)).isEqualTo(row);
        return cells;
    }
}
