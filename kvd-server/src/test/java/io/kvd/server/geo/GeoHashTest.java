package io.kvd.server.geo;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The shape test's shortcut past a radius, a half width or a half height changes no answer. */
class GeoHashTest {
    private static final long SEED = 20261204L;

    @Test
    void aCircleKeepsExactlyThePointsWithinItsRadiusAtEveryDistance() {
        System.out.println("GeoHashTest seed " + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 200_000; i++) {
            Draw d = Draw.next(random);
            double lon = d.lon(), lat = d.lat(), pointLon = d.pointLon(), pointLat = d.pointLat();
            double distance = GeoHash.distance(lon, lat, pointLon, pointLat);
            // Radii on the point's own distance and a step either side, where a wrong shortcut would show.
            double radius = switch (i % 4) {
                case 0 -> distance;
                case 1 -> Math.nextDown(distance);
                case 2 -> Math.nextUp(distance);
                default -> random.nextDouble(0, 400_000);
            };
            double conversion = i % 8 < 4 ? 1 : 1000;
            GeoHash.Shape circle = GeoHash.Shape.circle(lon, lat, radius / conversion, conversion);
            double expected = distance > radius / conversion * conversion ? Double.NaN : distance;
            assertThat((Double) GeoHash.distanceIfWithin(circle, pointLon, pointLat))
                    .as("seed %d, draw %d: circle at %s,%s radius %s, point %s,%s", SEED, i, lon, lat, radius, pointLon, pointLat)
                    .isEqualTo((Double) expected);
        }
    }

    @Test
    void aBoxKeepsExactlyThePointsWithinHalfItsWidthAndHeight() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 200_000; i++) {
            Draw d = Draw.next(random);
            double lon = d.lon(), lat = d.lat(), pointLon = d.pointLon(), pointLat = d.pointLat();
            double lonDistance = GeoHash.distance(pointLon, pointLat, lon, pointLat);
            double latDistance = GeoHash.distance(pointLon, pointLat, pointLon, lat);
            double width = i % 3 == 0 ? 2 * lonDistance : random.nextDouble(0, 400_000);
            double height = i % 3 == 1 ? 2 * latDistance : random.nextDouble(0, 400_000);
            GeoHash.Shape box = GeoHash.Shape.box(lon, lat, width, height, 1);
            double expected = lonDistance > width / 2 || latDistance > height / 2
                    ? Double.NaN : GeoHash.distance(lon, lat, pointLon, pointLat);
            assertThat((Double) GeoHash.distanceIfWithin(box, pointLon, pointLat))
                    .as("seed %d, draw %d: box at %s,%s %s by %s, point %s,%s", SEED, i, lon, lat, width, height, pointLon, pointLat)
                    .isEqualTo((Double) expected);
        }
    }

    /** A centre anywhere but the poles and a point within two degrees of it. */
    private record Draw(double lon, double lat, double pointLon, double pointLat) {
        static Draw next(SplittableRandom random) {
            double lon = random.nextDouble(-180, 180);
            double lat = random.nextDouble(-85, 85);
            return new Draw(lon, lat, lon + random.nextDouble(-2, 2),
                    Math.max(-85, Math.min(85, lat + random.nextDouble(-2, 2))));
        }
    }

    @Test
    void noDistanceOnEarthIsPastHalfItsCircumference() {
        assertThat(GeoHash.beyond(GeoHash.distance(0, 0, 180, 0))).isInfinite();
        assertThat(GeoHash.beyond(0)).isEqualTo(Double.MIN_VALUE);
    }
}
