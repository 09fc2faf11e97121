package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * LOLWUT (Redis 7.0's lolwut.c, lolwut5.c and lolwut6.c): the version line, or the computer art
 * of an earlier Redis. The art is random, as Redis's (C's rand()), so only its shape and the
 * parts that draw nothing at random can be compared with Redis's.
 */
public final class LolwutCommand {
    private static final int RAND_MAX = Integer.MAX_VALUE;
    private static final byte[] SCHOTTER_CREDITS =
            Args.bytes("\nGeorg Nees - schotter, plotter on paper, 1968. Redis ver. " + Version.REDIS + "\n");
    private static final byte[] SKYLINE_CREDITS = Args.bytes("\nDedicated to the 8 bit game developers of past and present.\n"
            + "Original 8 bit image from Plaguemon by hikikomori. Redis ver. " + Version.REDIS + "\n");
    /** lolwut6.c's cell of each colour: black, two greys, white, as foreground and background. */
    private static final byte[][] SKYLINE_CELLS = {
            cell("0;30;40m"), cell("0;90;100m"), cell("0;37;47m"), cell("0;97;107m")};

    private LolwutCommand() {
    }

    /**
     * LOLWUT [VERSION version] [args...]: VERSION 5 draws Schotter, VERSION 6 the skyline; anything
     * else, and no VERSION, is Redis 7.0's own LOLWUT, which only says the version. As Redis, the
     * version is read as a long, then taken as a C unsigned int, so 4294967301 is 5.
     */
    public static void lolwut(Client client, byte[][] argv) {
        int version = 7;
        int from = 1;
        if (argv.length >= 3 && Args.is(argv[1], "version")) {
            long asked = Args.parseLong(argv[2]) & 0xFFFF_FFFFL;
            version = asked == 5 || asked == 6 ? (int) asked : 7;
            from = 3;
        }
        byte[] rendered = switch (version) {
            case 5 -> schotter(argv, from);
            case 6 -> skyline(argv, from);
            default -> Args.bytes("Redis ver. " + Version.REDIS + "\n");
        };
        client.reply().verbatim(rendered);
    }

    /**
     * LOLWUT VERSION 5 [columns [squares-per-row [squares-per-col]]]: Georg Nees' Schotter in
     * Braille, 66 columns and 8 by 12 squares unless asked, at most 1000 columns and 200 by 200.
     */
    private static byte[] schotter(byte[][] argv, int from) {
        long columns = longArg(argv, from, 66);
        long perRow = longArg(argv, from + 1, 8);
        long perColumn = longArg(argv, from + 2, 12);
        LolwutCanvas canvas = drawSchotter((int) clamp(columns, 1000), (int) clamp(perRow, 200), (int) clamp(perColumn, 200));
        return canvas.braille(SCHOTTER_CREDITS);
    }

    /**
     * lwDrawSchotter: rows of squares, the first two straight, each row below turned and moved
     * further at random. Its float arithmetic is C's, step for step, since it decides the canvas's
     * height and where each square falls.
     */
    private static LolwutCanvas drawSchotter(int columns, int perRow, int perColumn) {
        int width = columns * 2;
        int padding = width > 4 ? 2 : 0;
        float side = (float) (width - padding * 2) / perRow;
        LolwutCanvas canvas = new LolwutCanvas(width, (int) (side * perColumn + padding * 2), 0);
        for (int y = 0; y < perColumn; y++) {
            for (int x = 0; x < perRow; x++) {
                int sx = (int) (x * side + side / 2 + padding);
                int sy = (int) (y * side + side / 2 + padding);
                float angle = 0;
                if (y > 1) {
                    float r1 = (float) rand() / RAND_MAX / perColumn * y;
                    float r2 = (float) rand() / RAND_MAX / perColumn * y;
                    float r3 = (float) rand() / RAND_MAX / perColumn * y;
                    if (rand() % 2 != 0) {
                        r1 = -r1;
                    }
                    if (rand() % 2 != 0) {
                        r2 = -r2;
                    }
                    if (rand() % 2 != 0) {
                        r3 = -r3;
                    }
                    angle = r1;
                    sx += r2 * side / 3;
                    sy += r3 * side / 3;
                }
                canvas.square(sx, sy, side, angle, 1);
            }
        }
        return canvas;
    }

    /** LOLWUT VERSION 6 [columns [rows]]: the skyline, 80 by 20 unless asked, at most 1000 by 1000. */
    private static byte[] skyline(byte[][] argv, int from) {
        long columns = longArg(argv, from, 80);
        long rows = longArg(argv, from + 1, 20);
        LolwutCanvas canvas = new LolwutCanvas((int) clamp(columns, 1000), (int) clamp(rows, 1000), 3);
        drawSkyline(canvas);
        ByteArrayOutputStream out = new ByteArrayOutputStream(canvas.width() * canvas.height() * 17 + SKYLINE_CREDITS.length);
        for (int y = 0; y < canvas.height(); y++) {
            for (int x = 0; x < canvas.width(); x++) {
                out.writeBytes(SKYLINE_CELLS[canvas.get(x, y)]);
            }
            if (y != canvas.height() - 1) {
                out.write('\n');
            }
        }
        out.writeBytes(SKYLINE_CREDITS);
        return out.toByteArray();
    }

    /**
     * generateSkyline: two passes of window-less skyscrapers (the lighter grey behind), then the
     * black ones with windows in front.
     */
    private static void drawSkyline(LolwutCanvas canvas) {
        int height = canvas.height();
        for (int color = 2; color >= 1; color--) {
            for (int offset = -10; offset < canvas.width(); ) {
                offset += rand() % 8;
                int width = 10 + rand() % 9;
                int tall = height / 2 + rand() % height / (color == 2 ? 2 : 3);
                drawSkyscraper(canvas, offset, width, tall, false, color);
                offset += color == 2 ? width / 2 : width + 1;
            }
        }
        for (int offset = -10; offset < canvas.width(); ) {
            offset += rand() % 8;
            int width = 5 + rand() % 14;
            if (width % 4 != 0) {
                width += width % 3;
            }
            int tall = height / 3 + rand() % height / 2;
            drawSkyscraper(canvas, offset, width, tall, true, 0);
            offset += width + 5;
        }
    }

    /**
     * generateSkyscraper: standing on the bottom row, its roof two pixels narrower on each side;
     * windows, two pixels wide and one tall, each a random grey, away from the walls.
     */
    private static void drawSkyscraper(LolwutCanvas canvas, int left, int width, int tall, boolean windows, int color) {
        int bottom = canvas.height() - 1;
        int top = bottom - tall + 1;
        for (int y = bottom; y >= top; y--) {
            for (int x = left; x < left + width; x++) {
                if (y == top && (x <= left + 1 || x >= left + width - 2)) {
                    continue;
                }
                int pixel = color;
                if (windows && x > left + 1 && x < left + width - 2 && y > top + 1 && y < bottom - 1) {
                    int relX = x - (left + 1);
                    int relY = y - (top + 1);
                    if (relX / 2 % 2 != 0 && relY % 2 != 0) {
                        do {
                            pixel = 1 + rand() % 2;
                        } while (pixel == color);
                        if (relX % 2 != 0) {
                            pixel = canvas.get(x - 1, y);
                        }
                    }
                }
                canvas.draw(x, y, pixel);
            }
        }
    }

    /** The argument at {@code at} as Redis's getLongFromObjectOrReply reads it, or {@code absent}. */
    private static long longArg(byte[][] argv, int at, long absent) {
        return at < argv.length ? Args.parseLong(argv[at]) : absent;
    }

    private static long clamp(long value, long max) {
        return Math.max(1, Math.min(value, max));
    }

    /** C's rand(): 0 to RAND_MAX. */
    private static int rand() {
        return ThreadLocalRandom.current().nextInt() & RAND_MAX;
    }

    private static byte[] cell(String color) {
        return ("\033[" + color + " \033[0m").getBytes(StandardCharsets.US_ASCII);
    }
}
