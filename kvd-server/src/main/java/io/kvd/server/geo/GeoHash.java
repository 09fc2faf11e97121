package io.kvd.server.geo;

import io.kvd.server.numeric.CorrectlyRoundedMath;

/**
 * Redis 7.0's geohash.c and geohash_helper.c: a position is a 52-bit geohash (26 bits of
 * longitude and 26 of latitude, interleaved, latitude in the even bits) over the Web Mercator
 * limits, stored as a sorted set's score; a search covers its shape with a cell and its eight
 * neighbours, each a range of scores. The arithmetic follows Redis's operation by operation so
 * that every decoded coordinate has Redis's bits.
 */
public final class GeoHash {
    public static final double LONG_MIN = -180;
    public static final double LONG_MAX = 180;
    public static final double LAT_MIN = -85.05112878;
    public static final double LAT_MAX = 85.05112878;
    /** Bits per coordinate of a stored position (GEO_STEP_MAX). */
    static final int STEP_MAX = 26;
    /** The quadratic mean radius of WGS-84 that Redis's haversine uses. */
    private static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double MERCATOR_MAX = 20037726.37;
    private static final double D_R = Math.PI / 180.0;
    private static final long EVEN_BITS = 0x5555555555555555L;
    private static final long ODD_BITS = 0xaaaaaaaaaaaaaaaaL;
    private static final double TWO_TO_63 = 0x1p63;
    private static final String BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

    private GeoHash() {
    }

    /**
     * A search shape: a circle of {@code radius}, or a box of {@code width} by {@code height}, in
     * the unit {@code conversion} meters; with the haversine's {@code a} from which on a point is
     * past the radius, or past half the width or height (see {@link #beyond}), and the same for
     * a lower bound of {@code a} (see {@link #boundBeyond}).
     */
    public record Shape(double longitude, double latitude, boolean box, double radius, double width, double height,
                 double conversion, double cosLatitude, double beyondRadius, double beyondHalfWidth,
                 double beyondHalfHeight, double boundBeyondRadius, double boundBeyondHalfWidth,
                 double boundBeyondHalfHeight) {
        public static Shape circle(double longitude, double latitude, double radius, double conversion) {
            double beyond = beyond(radius * conversion);
            return new Shape(longitude, latitude, false, radius, 0, 0, conversion,
                    CorrectlyRoundedMath.cos(degRad(latitude)), beyond, 0, 0, boundBeyond(beyond), 0, 0);
        }

        public static Shape box(double longitude, double latitude, double width, double height, double conversion) {
            double beyondHalfWidth = beyond(width * conversion / 2);
            double beyondHalfHeight = beyond(height * conversion / 2);
            return new Shape(longitude, latitude, true, 0, width, height, conversion,
                    CorrectlyRoundedMath.cos(degRad(latitude)), 0, beyondHalfWidth, beyondHalfHeight,
                    0, boundBeyond(beyondHalfWidth), boundBeyond(beyondHalfHeight));
        }
    }

    /**
     * The cells a search reads (Redis's GeoHashRadius): the centre cell then north, south, east,
     * west, north-east, north-west, south-east, south-west, all of {@code step} bits; a cell
     * Redis zeroed (outside the shape's bounding box) is {@code null}.
     */
    public record Cells(int step, Long[] cells) {
    }

    /** GEOADD's score for a position inside the limits: the 52-bit hash. */
    public static long score(double longitude, double latitude) {
        return encode(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, longitude, latitude, STEP_MAX);
    }

    /**
     * The longitude and latitude of a score, the centre of its cell clamped to the limits, as
     * Redis's decodeGeohash (which converts the score to uint64_t as x86-64 does).
     */
    public static double[] decode(double score) {
        double[] area = area(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, toUnsigned(score), STEP_MAX);
        double longitude = (area[0] + area[1]) / 2;
        longitude = Math.max(LONG_MIN, Math.min(LONG_MAX, longitude));
        double latitude = (area[2] + area[3]) / 2;
        latitude = Math.max(LAT_MIN, Math.min(LAT_MAX, latitude));
        return new double[] {longitude, latitude};
    }

    /** GEOHASH's 11 characters: the position re-encoded over the standard latitudes [-90, 90], the 11th always '0'. */
    public static String standard(double longitude, double latitude) {
        long bits = encode(-180, 180, -90, 90, longitude, latitude, STEP_MAX);
        char[] text = new char[11];
        for (int i = 0; i < 10; i++) {
            text[i] = BASE32.charAt((int) (bits >>> (52 - (i + 1) * 5)) & 0x1f);
        }
        text[10] = '0';
        return new String(text);
    }

    /** The scores {@code [min, max)} of every position in a cell (scoresOfGeoHashBox). */
    public static long[] scoreRange(long cell, int step) {
        return new long[] {cell << (52 - step * 2), (cell + 1) << (52 - step * 2)};
    }

    /** C's double to uint64_t on x86-64: beyond 2^64 (or infinite) is 0, a negative value wraps. */
    private static long toUnsigned(double value) {
        if (value >= TWO_TO_63) {
            double low = value - TWO_TO_63;
            return low >= TWO_TO_63 ? 0 : (long) low ^ Long.MIN_VALUE;
        }
        return (long) value;
    }

    /** geohashEncode for a position inside the ranges. */
    private static long encode(double longMin, double longMax, double latMin, double latMax,
                               double longitude, double latitude, int step) {
        double latOffset = (latitude - latMin) / (latMax - latMin);
        double longOffset = (longitude - longMin) / (longMax - longMin);
        latOffset *= (double) (1L << step);
        longOffset *= (double) (1L << step);
        return interleave((long) latOffset & 0xFFFFFFFFL, (long) longOffset & 0xFFFFFFFFL);
    }

    /** geohashDecode: {longitude min, longitude max, latitude min, latitude max} of a cell. */
    private static double[] area(double longMin, double longMax, double latMin, double latMax, long bits, int step) {
        long separated = deinterleave(bits);
        double latScale = latMax - latMin;
        double longScale = longMax - longMin;
        long latCell = separated & 0xFFFFFFFFL;
        long longCell = separated >>> 32;
        double cells = (double) (1L << step);
        // The C code adds 1 in uint32_t arithmetic, which wraps.
        return new double[] {
                longMin + (longCell * 1.0 / cells) * longScale,
                longMin + (((longCell + 1) & 0xFFFFFFFFL) * 1.0 / cells) * longScale,
                latMin + (latCell * 1.0 / cells) * latScale,
                latMin + (((latCell + 1) & 0xFFFFFFFFL) * 1.0 / cells) * latScale};
    }

    private static double[] wgs84Area(long bits, int step) {
        return area(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, bits, step);
    }

    /** x's bits to the even positions, y's to the odd (x and y below 2^32). */
    private static long interleave(long x, long y) {
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        y = (y | (y << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
        y = (y | (y << 8)) & 0x00FF00FF00FF00FFL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y << 4)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x << 2)) & 0x3333333333333333L;
        y = (y | (y << 2)) & 0x3333333333333333L;
        x = (x | (x << 1)) & EVEN_BITS;
        y = (y | (y << 1)) & EVEN_BITS;
        return x | (y << 1);
    }

    /** The even bits to the low 32, the odd bits to the high 32. */
    private static long deinterleave(long interleaved) {
        long x = interleaved;
        long y = interleaved >>> 1;
        x = x & EVEN_BITS;
        y = y & EVEN_BITS;
        x = (x | (x >>> 1)) & 0x3333333333333333L;
        y = (y | (y >>> 1)) & 0x3333333333333333L;
        x = (x | (x >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x >>> 4)) & 0x00FF00FF00FF00FFL;
        y = (y | (y >>> 4)) & 0x00FF00FF00FF00FFL;
        x = (x | (x >>> 8)) & 0x0000FFFF0000FFFFL;
        y = (y | (y >>> 8)) & 0x0000FFFF0000FFFFL;
        x = (x | (x >>> 16)) & 0x00000000FFFFFFFFL;
        y = (y | (y >>> 16)) & 0x00000000FFFFFFFFL;
        return x | (y << 32);
    }

    /** geohash_move_x: one cell east ({@code d > 0}) or west, wrapping around. */
    private static long moveX(long bits, int step, int d) {
        long x = bits & ODD_BITS;
        long y = bits & EVEN_BITS;
        long zz = EVEN_BITS >>> (64 - step * 2);
        if (d > 0) {
            x = x + (zz + 1);
        } else {
            x = x | zz;
            x = x - (zz + 1);
        }
        x &= ODD_BITS >>> (64 - step * 2);
        return x | y;
    }

    /** geohash_move_y: one cell north ({@code d > 0}) or south, wrapping around. */
    private static long moveY(long bits, int step, int d) {
        long x = bits & ODD_BITS;
        long y = bits & EVEN_BITS;
        long zz = ODD_BITS >>> (64 - step * 2);
        if (d > 0) {
            y = y + (zz + 1);
        } else {
            y = y | zz;
            y = y - (zz + 1);
        }
        y &= EVEN_BITS >>> (64 - step * 2);
        return x | y;
    }

    /** The cell and its neighbours in Redis's order: centre, N, S, E, W, NE, NW, SE, SW. */
    private static Long[] withNeighbours(long hash, int step) {
        return new Long[] {hash,
                moveY(hash, step, 1), moveY(hash, step, -1), moveX(hash, step, 1), moveX(hash, step, -1),
                moveY(moveX(hash, step, 1), step, 1), moveY(moveX(hash, step, -1), step, 1),
                moveY(moveX(hash, step, 1), step, -1), moveY(moveX(hash, step, -1), step, -1)};
    }

    /** geohashEstimateStepsByRadius: the bits per coordinate of cells about the search's size. */
    private static int estimateSteps(double rangeMeters, double latitude) {
        if (rangeMeters == 0) {
            return 26;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2;
        // Meridians converge towards the poles: wider cells there.
        if (latitude > 66 || latitude < -66) {
            step--;
            if (latitude > 80 || latitude < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(26, step));
    }

    /**
     * geohashBoundingBox: {min longitude, min latitude, max longitude, max latitude} of the
     * shape; the longitudes taken at the edge farther from the equator.
     */
    private static double[] boundingBox(Shape shape) {
        double longitude = shape.longitude();
        double latitude = shape.latitude();
        double height = shape.conversion() * (shape.box() ? shape.height() / 2 : shape.radius());
        double width = shape.conversion() * (shape.box() ? shape.width() / 2 : shape.radius());
        double latDelta = radDeg(height / EARTH_RADIUS_IN_METERS);
        double longDeltaTop =
                radDeg(width / EARTH_RADIUS_IN_METERS / CorrectlyRoundedMath.cos(degRad(latitude + latDelta)));
        double longDeltaBottom =
                radDeg(width / EARTH_RADIUS_IN_METERS / CorrectlyRoundedMath.cos(degRad(latitude - latDelta)));
        boolean southern = latitude < 0;
        return new double[] {
                southern ? longitude - longDeltaBottom : longitude - longDeltaTop,
                latitude - latDelta,
                southern ? longitude + longDeltaBottom : longitude + longDeltaTop,
                latitude + latDelta};
    }

    /** geohashCalculateAreasByShapeWGS84: the nine cells covering the shape, those outside its bounding box left out. */
    public static Cells cells(Shape shape) {
        double[] bounds = boundingBox(shape);
        double minLon = bounds[0];
        double minLat = bounds[1];
        double maxLon = bounds[2];
        double maxLat = bounds[3];
        double longitude = shape.longitude();
        double latitude = shape.latitude();
        // A box is covered by the circle through its corners.
        double radiusMeters = shape.box()
                ? Math.sqrt((shape.width() / 2) * (shape.width() / 2) + (shape.height() / 2) * (shape.height() / 2))
                : shape.radius();
        radiusMeters *= shape.conversion();
        int steps = estimateSteps(radiusMeters, latitude);
        long hash = encode(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, longitude, latitude, steps);
        Long[] cells = withNeighbours(hash, steps);
        // Cells too small to reach the bounding box's edges: one step coarser.
        boolean decrease = wgs84Area(cells[1], steps)[3] < maxLat
                || wgs84Area(cells[2], steps)[2] > minLat
                || wgs84Area(cells[3], steps)[1] < maxLon
                || wgs84Area(cells[4], steps)[0] > minLon;
        if (steps > 1 && decrease) {
            steps--;
            hash = encode(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, longitude, latitude, steps);
            cells = withNeighbours(hash, steps);
        }
        if (steps >= 2) {
            double[] area = wgs84Area(hash, steps);
            if (area[2] < minLat) {
                cells[2] = cells[8] = cells[7] = null;
            }
            if (area[3] > maxLat) {
                cells[1] = cells[5] = cells[6] = null;
            }
            if (area[0] < minLon) {
                cells[4] = cells[8] = cells[6] = null;
            }
            if (area[1] > maxLon) {
                cells[3] = cells[7] = cells[5] = null;
            }
        }
        return new Cells(steps, cells);
    }

    /**
     * The haversine great-circle distance in meters (geohashGetDistance), its sin, cos and asin
     * rounded correctly as glibc's nearly always are (see {@link CorrectlyRoundedMath}).
     */
    public static double distance(double lon1d, double lat1d, double lon2d, double lat2d) {
        return meters(haversine(lon1d, lat1d, CorrectlyRoundedMath.cos(degRad(lat1d)), lon2d, lat2d));
    }

    /**
     * The haversine's {@code a}, the square of half the chord between two points, as Redis computes
     * it, with the first point's latitude's cosine given: a search computes its centre's once.
     */
    private static double haversine(double lon1d, double lat1d, double cosLat1, double lon2d, double lat2d) {
        double lat1r = degRad(lat1d);
        double lon1r = degRad(lon1d);
        double lat2r = degRad(lat2d);
        double lon2r = degRad(lon2d);
        double u = CorrectlyRoundedMath.sin((lat2r - lat1r) / 2);
        double v = CorrectlyRoundedMath.sin((lon2r - lon1r) / 2);
        return u * u + cosLat1 * CorrectlyRoundedMath.cos(lat2r) * v * v;
    }

    /** The same for two points of one latitude: u is sin(0), both cosines are one. */
    private static double haversineAlongParallel(double lon1d, double lon2d, double latd) {
        double cos = CorrectlyRoundedMath.cos(degRad(latd));
        double v = CorrectlyRoundedMath.sin((degRad(lon2d) - degRad(lon1d)) / 2);
        return 0.0 + cos * cos * v * v;
    }

    /** The same for two points of one longitude: v is sin(0), so the cosines' term is +0. */
    private static double haversineAlongMeridian(double lat1d, double lat2d) {
        double u = CorrectlyRoundedMath.sin((degRad(lat2d) - degRad(lat1d)) / 2);
        return u * u;
    }

    /**
     * A lower bound of {@link #haversine}'s a in a few multiplications, where its sines and cosine
     * take tens of nanoseconds: enough to tell most points of a search's cells outside.
     */
    private static double haversineAtLeast(double lon1d, double lat1d, double cosLat1, double lon2d, double lat2d) {
        double halfLatitudes = (degRad(lat2d) - degRad(lat1d)) / 2;
        double u = sinAtLeast(halfLatitudes);
        double v = sinAtLeast((degRad(lon2d) - degRad(lon1d)) / 2);
        return u * u + cosLat1 * cosAtLeast(cosLat1, halfLatitudes) * v * v;
    }

    /** The same for {@link #haversineAlongParallel}, the centre's latitude's cosine given. */
    private static double alongParallelAtLeast(double lon1d, double lon2d, double latd, double centreLatd,
                                               double cosCentreLat) {
        double cos = cosAtLeast(cosCentreLat, (degRad(latd) - degRad(centreLatd)) / 2);
        double v = sinAtLeast((degRad(lon2d) - degRad(lon1d)) / 2);
        return cos * cos * v * v;
    }

    /** The same for {@link #haversineAlongMeridian}. */
    private static double alongMeridianAtLeast(double lat1d, double lat2d) {
        double u = sinAtLeast((degRad(lat2d) - degRad(lat1d)) / 2);
        return u * u;
    }

    /**
     * At most |sin x|: |x| - |x|^3/6, Taylor's remainder being positive; 0 past 1, where the
     * subtraction would start to lose digits (only the widest searches read points that far).
     */
    private static double sinAtLeast(double x) {
        double y = Math.abs(x);
        return y <= 1 ? y - y * y * y / 6 : 0;
    }

    /**
     * At most the cosine of a latitude {@code 2 halfStep} from one whose cosine is {@code cos}:
     * cosine changes no faster than its angle; 2^-50 covers the roundings of both angles and of the
     * subtraction. A latitude's cosine is never negative.
     */
    private static double cosAtLeast(double cos, double halfStep) {
        return Math.max(0, cos - 2 * Math.abs(halfStep) - 0x1p-50);
    }

    /** The distance of a haversine's {@code a}: the step that costs most (asin), and that never decreases with a. */
    private static double meters(double a) {
        return 2.0 * EARTH_RADIUS_IN_METERS * CorrectlyRoundedMath.asin(Math.sqrt(a));
    }

    /**
     * An {@code a} whose distance is past {@code meters}. Since sqrt, asin and the product never
     * decrease, every point at or beyond it is past too and needs no asin; a point below it gets
     * its distance as before, so searches answer exactly the same, faster (most points read from
     * the nine cells are outside). Infinite when no distance on earth is past {@code meters}.
     */
    static double beyond(double meters) {
        if (!(meters < meters(1.0))) {
            return Double.POSITIVE_INFINITY;
        }
        double half = CorrectlyRoundedMath.sin(meters / (2.0 * EARTH_RADIUS_IN_METERS));
        double a = half * half;
        while (meters(a) <= meters) {
            a = Math.nextUp(a * (1 + 0x1p-40));
        }
        return a;
    }

    /**
     * The lower bound of {@code a} from which on the exact {@code a} is surely at or past {@code
     * beyond}. The bound and {@code a} each take a few roundings of non-negative terms (correctly
     * rounded sines and cosine for {@code a}), so each is within some 2^-48 of its exact value:
     * 2^-30 leaves room to spare. Below 2^-900 (some 10^-128 m) the terms may underflow, so there
     * points always get the exact {@code a}.
     */
    private static double boundBeyond(double beyond) {
        return Math.max(beyond * (1 + 0x1p-30), 0x1p-900);
    }

    /**
     * The distance from the shape's centre to a position within the shape, or NaN outside it
     * (geoWithinShape). In a box, the east-west distance is measured along the position's latitude.
     */
    public static double distanceIfWithin(Shape shape, double longitude, double latitude) {
        if (!shape.box()) {
            if (haversineAtLeast(shape.longitude(), shape.latitude(), shape.cosLatitude(), longitude, latitude)
                    >= shape.boundBeyondRadius()) {
                return Double.NaN;
            }
            double a = haversine(shape.longitude(), shape.latitude(), shape.cosLatitude(), longitude, latitude);
            if (a >= shape.beyondRadius()) {
                return Double.NaN;
            }
            double distance = meters(a);
            return distance > shape.radius() * shape.conversion() ? Double.NaN : distance;
        }
        if (alongParallelAtLeast(longitude, shape.longitude(), latitude, shape.latitude(), shape.cosLatitude())
                    >= shape.boundBeyondHalfWidth()
                || alongMeridianAtLeast(latitude, shape.latitude()) >= shape.boundBeyondHalfHeight()) {
            return Double.NaN;
        }
        double lonA = haversineAlongParallel(longitude, shape.longitude(), latitude);
        if (lonA >= shape.beyondHalfWidth()) {
            return Double.NaN;
        }
        double latA = haversineAlongMeridian(latitude, shape.latitude());
        if (latA >= shape.beyondHalfHeight()
                || meters(lonA) > shape.width() * shape.conversion() / 2
                || meters(latA) > shape.height() * shape.conversion() / 2) {
            return Double.NaN;
        }
        return meters(haversine(shape.longitude(), shape.latitude(), shape.cosLatitude(), longitude, latitude));
    }

    private static double degRad(double angle) {
        return angle * D_R;
    }

    private static double radDeg(double angle) {
        return angle / D_R;
    }
}
