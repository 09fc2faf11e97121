package io.kvd.server.admin;

import io.kvd.server.numeric.CorrectlyRoundedMath;

import java.util.Arrays;

/**
 * LOLWUT's canvas (Redis's lwCanvas in lolwut.c): pixels of colour 0 to 3, (0, 0) top left, drawn
 * and read out of bounds without effect (reads give 0), and Redis's square and line drawing on it.
 *
 * <p>Two bits a pixel, where Redis keeps a byte: LOLWUT VERSION 5 at its largest (1000 columns,
 * one square a row, 200 a column) is a canvas of 800 million pixels.
 */
final class LolwutCanvas {
    /** 32 pixels a word: a pixel's word is its index shifted right by 5. */
    private static final int WORD_SHIFT = 5;
    private static final int PIXELS_PER_WORD = 1 << WORD_SHIFT;
    /** A 1 in each pixel's low bit: times a colour, a word of pixels all that colour. */
    private static final long EVERY_PIXEL = 0x5555_5555_5555_5555L;
    /** The pixel (x, y offsets) behind each bit of a Braille character's dots: lwTranslatePixelsGroup's order. */
    private static final int[][] DOTS = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}};

    private final int width;
    private final int height;
    private final long[] pixels;

    LolwutCanvas(int width, int height, int background) {
        this.width = width;
        this.height = height;
        long count = (long) width * height;
        pixels = new long[(int) ((count + PIXELS_PER_WORD - 1) / PIXELS_PER_WORD)];
        Arrays.fill(pixels, background * EVERY_PIXEL);
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    void draw(int x, int y, int color) {
        if (x < 0 || x >= width || y < 0 || y >= height) {
            return;
        }
        long index = x + (long) y * width;
        int word = (int) (index >>> WORD_SHIFT);
        // Twice the index: a long's shift distance is taken mod 64, the pixel's place in its word.
        int shift = (int) index << 1;
        pixels[word] = pixels[word] & ~(3L << shift) | (long) color << shift;
    }

    int get(int x, int y) {
        if (x < 0 || x >= width || y < 0 || y >= height) {
            return 0;
        }
        long index = x + (long) y * width;
        return (int) (pixels[(int) (index >>> WORD_SHIFT)] >>> ((int) index << 1)) & 3;
    }

    /** A line from (x1, y1) to (x2, y2), both ends included: Bresenham's, as lwDrawLine. */
    private void line(int x1, int y1, int x2, int y2, int color) {
        int dx = Math.abs(x2 - x1);
        int dy = Math.abs(y2 - y1);
        int sx = x1 < x2 ? 1 : -1;
        int sy = y1 < y2 ? 1 : -1;
        int err = dx - dy;
        while (true) {
            draw(x1, y1, color);
            if (x1 == x2 && y1 == y2) {
                return;
            }
            int e2 = err * 2;
            if (e2 > -dy) {
                err -= dy;
                x1 += sx;
            }
            if (e2 < dx) {
                err += dx;
                y1 += sy;
            }
        }
    }

    /**
     * A square of side {@code size} centred on (x, y), turned by {@code angle} radians: its corners
     * on a circle, from pi/4 on in quarter turns, as lwDrawSquare, in its float and double steps.
     */
    void square(int x, int y, float size, float angle, int color) {
        size /= 1.4142135623;
        size = (float) roundHalfAway(size);
        int[] px = new int[4];
        int[] py = new int[4];
        float k = (float) (Math.PI / 4 + angle);
        for (int j = 0; j < 4; j++) {
            px[j] = (int) roundHalfAway(CorrectlyRoundedMath.sin(k) * size + x);
            py[j] = (int) roundHalfAway(CorrectlyRoundedMath.cos(k) * size + y);
            k += Math.PI / 2;
        }
        for (int j = 0; j < 4; j++) {
            line(px[j], py[j], px[(j + 1) % 4], py[(j + 1) % 4], color);
        }
    }

    /**
     * The canvas as lines of Braille characters, each 2 by 4 pixels (a pixel is set unless colour 0),
     * then {@code suffix}: lolwut5.c's renderCanvas. A line ends in a newline unless its band starts
     * on the canvas's last row, so some heights leave an empty line before the suffix, as Redis's.
     */
    byte[] braille(byte[] suffix) {
        int lines = (height + 3) / 4;
        int newlines = height > 0 && (height - 1) % 4 == 0 ? lines - 1 : lines;
        byte[] out = new byte[lines * ((width + 1) / 2) * 3 + newlines + suffix.length];
        int at = 0;
        for (int y = 0; y < height; y += 4) {
            for (int x = 0; x < width; x += 2) {
                int code = 0x2800 + brailleDots(x, y);
                out[at++] = (byte) (0xE0 | code >> 12);
                out[at++] = (byte) (0x80 | code >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | code & 0x3F);
            }
            if (y != height - 1) {
                out[at++] = '\n';
            }
        }
        System.arraycopy(suffix, 0, out, at, suffix.length);
        return out;
    }

    /** The Braille dots of the 2x4 pixels at (x, y): bits 0-2 down the left, 3-5 down the right, 6 and 7 below. */
    private int brailleDots(int x, int y) {
        int dots = 0;
        for (int bit = 0; bit < DOTS.length; bit++) {
            if (get(x + DOTS[bit][0], y + DOTS[bit][1]) != 0) {
                dots |= 1 << bit;
            }
        }
        return dots;
    }

    /** C's round: halves away from zero (Math.round takes them up). */
    private static double roundHalfAway(double value) {
        double magnitude = Math.abs(value);
        double whole = Math.floor(magnitude);
        return Math.copySign(magnitude - whole >= 0.5 ? whole + 1 : whole, value);
    }
}
