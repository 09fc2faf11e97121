package io.kvd.server.command;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/** Geo commands as Redis 7.0 answers them; each expected reply was checked against redis-server 7.0.15. */
class GeoCommandsTest {
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String PALERMO_SCORE = "3479099956230698";
    private static final String CATANIA_SCORE = "3479447370796909";

    private final CommandFixture kvd = new CommandFixture();

    @BeforeEach
    void sicily() {
        kvd.call("GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania");
    }

    private static String coordinates(String longitude, String latitude) {
        return "*2\r\n" + bulk(longitude) + bulk(latitude);
    }

    @Test
    void geoaddStoresThe52BitGeohashAsTheScore() {
        assertThat(kvd.call("ZSCORE", "Sicily", "Palermo")).isEqualTo(bulk(PALERMO_SCORE));
        assertThat(kvd.call("ZSCORE", "Sicily", "Catania")).isEqualTo(bulk(CATANIA_SCORE));
    }

    @Test
    void geoaddIsLoggedAsTheZaddItRan() {
        kvd.server.commandLog().setEnabled(true);
        assertThat(kvd.call("GEOADD", "Sicily", "CH", "xx", "13.361389", "38.115556", "Palermo")).isEqualTo(integer(0));
        assertThat(kvd.call("GEOADD", "Sicily", "ch", "13.361389", "38.2", "Palermo")).isEqualTo(integer(1));
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("zadd", "Sicily", "ch", "3479101030759983", "Palermo"));
    }

    @Test
    void geoaddRefusesPositionsOutsideTheMercatorLimitsPrintingThemWithSixDecimals() {
        assertThat(kvd.call("GEOADD", "k", "200", "10", "x")).isEqualTo("-ERR invalid longitude,latitude pair 200.000000,10.000000\r\n");
        assertThat(kvd.call("GEOADD", "k", "-0.0000001", "100", "x"))
                .isEqualTo("-ERR invalid longitude,latitude pair -0.000000,100.000000\r\n");
        assertThat(kvd.call("GEOADD", "k", "inf", "0", "x")).isEqualTo("-ERR invalid longitude,latitude pair inf,0.000000\r\n");
        assertThat(kvd.call("GEOADD", "k", "1", "2", "a", "x", "2", "b")).isEqualTo("-ERR value is not a valid float\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void geoaddRefusesIncompleteTriplesAndNxWithXx() {
        assertThat(kvd.call("GEOADD", "k", "ch", "1", "2", "x", "y")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("GEOADD", "k", "nx", "xx", "1", "2", "x")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void geoposAnswersTheCellCentreWithSeventeenDecimalsAndNullForMissingMembers() {
        assertThat(kvd.call("GEOPOS", "Sicily", "Palermo", "nope")).isEqualTo("*2\r\n"
                + coordinates("13.36138933897018433", "38.11555639549629859") + "*-1\r\n");
        assertThat(kvd.call("GEOPOS", "missing", "a")).isEqualTo("*1\r\n*-1\r\n");
    }

    @Test
    void geoposClampsScoresThatAreNoPositionToTheLimits() {
        kvd.call("ZADD", "z", "1e30", "far", "-5", "negative");
        assertThat(kvd.call("GEOPOS", "z", "far", "negative")).isEqualTo("*2\r\n"
                + coordinates("-179.99999731779098511", "-85.05112751263942528")
                + coordinates("180", "85.0511287799999991"));
    }

    @Test
    void geohashIsTheStandardElevenCharacterString() {
        assertThat(kvd.call("GEOHASH", "Sicily", "Palermo", "nope")).isEqualTo("*2\r\n" + bulk("sqc8b49rny0") + "$-1\r\n");
    }

    @Test
    void geodistIsTheHaversineDistanceWithFourDecimals() {
        assertThat(kvd.call("GEODIST", "Sicily", "Palermo", "Catania")).isEqualTo(bulk("166274.1516"));
        assertThat(kvd.call("GEODIST", "Sicily", "Palermo", "Catania", "KM")).isEqualTo(bulk("166.2742"));
        assertThat(kvd.call("GEODIST", "Sicily", "Palermo", "nope")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("GEODIST", "missing", "a", "b")).isEqualTo("$-1\r\n");
    }

    @Test
    void geodistReadsTheUnitBeforeTheKey() {
        kvd.call("SET", "s", "x");
        assertThat(kvd.call("GEODIST", "s", "a", "b", "yd")).isEqualTo("-ERR unsupported unit provided. please use M, KM, FT, MI\r\n");
        assertThat(kvd.call("GEODIST", "s", "a", "b", "m", "x")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("GEODIST", "s", "a", "b")).isEqualTo(WRONGTYPE);
    }

    @Test
    void geosearchByRadiusRepliesWithTheOptionsInRedisOrder() {
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km",
                "WITHDIST", "WITHHASH", "WITHCOORD", "ASC")).isEqualTo("*2\r\n"
                + "*4\r\n" + bulk("Catania") + bulk("56.4413") + integer(3479447370796909L)
                + coordinates("15.08726745843887329", "37.50266842333162032")
                + "*4\r\n" + bulk("Palermo") + bulk("190.4424") + integer(3479099956230698L)
                + coordinates("13.36138933897018433", "38.11555639549629859"));
    }

    @Test
    void geosearchByBoxFromAMemberSortsDescending() {
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "500", "500", "km", "DESC", "WITHDIST"))
                .isEqualTo("*2\r\n*2\r\n" + bulk("Catania") + bulk("166.2742") + "*2\r\n" + bulk("Palermo") + bulk("0.0000"));
    }

    @Test
    void countKeepsTheNearest() {
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "5000", "km", "COUNT", "1"))
                .isEqualTo(array("Catania"));
    }

    @Test
    void geosearchChecksItsOptionsInRedisOrder() {
        assertThat(kvd.call("GEOSEARCH", "Sicily", "BYBOX", "1", "1", "km", "WITHDIST")).isEqualTo(
                "-ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH\r\n");
        assertThat(kvd.call("geosearch", "Sicily", "fromlonlat", "1", "1", "withdist", "asc")).isEqualTo(
                "-ERR exactly one of BYRADIUS and BYBOX can be specified for geosearch\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "ANY")).isEqualTo(
                "-ERR the ANY argument requires COUNT argument\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "COUNT", "0")).isEqualTo(
                "-ERR COUNT must be > 0\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMMEMBER", "nope", "BYRADIUS", "1", "km")).isEqualTo(
                "-ERR could not decode requested zset member\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "-1", "km")).isEqualTo(
                "-ERR radius cannot be negative\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYBOX", "x", "y", "km")).isEqualTo(
                "-ERR need numeric width\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "STORE", "d")).isEqualTo(
                "-ERR syntax error\r\n");
        assertThat(kvd.call("GEOSEARCH", "Sicily", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "BYBOX", "1", "1", "km"))
                .isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void aMissingSourceAnswersEmptyAfterTheOptionsAreChecked() {
        assertThat(kvd.call("GEORADIUSBYMEMBER", "missing", "m", "notanumber", "km")).isEqualTo("*0\r\n");
        assertThat(kvd.call("GEOSEARCH", "missing", "FROMLONLAT", "1", "1", "BYRADIUS", "1", "km", "ANY"))
                .isEqualTo("-ERR the ANY argument requires COUNT argument\r\n");
    }

    @Test
    void geosearchstoreStoresDistancesAndIsLoggedAsSent() {
        kvd.server.commandLog().setEnabled(true);
        assertThat(kvd.call("GEOSEARCHSTORE", "d", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "300", "km", "STOREDIST"))
                .isEqualTo(integer(2));
        assertThat(kvd.call("ZRANGE", "d", "0", "-1", "WITHSCORES"))
                .isEqualTo(array("Palermo", "0", "Catania", "166.27415156960032"));
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("GEOSEARCHSTORE", "d", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "300", "km", "STOREDIST"));
    }

    @Test
    void storingNothingDeletesTheDestination() {
        kvd.call("SET", "d", "x");
        assertThat(kvd.call("GEORADIUS", "Sicily", "0", "0", "1", "m", "STORE", "d")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
        kvd.call("SET", "d", "x");
        assertThat(kvd.call("GEOSEARCHSTORE", "d", "missing", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "m"))
                .isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void storeRefusesTheWithOptions() {
        assertThat(kvd.call("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "STORE", "d")).isEqualTo(
                "-ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options\r\n");
        assertThat(kvd.call("GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "WITHCOORD"))
                .isEqualTo("-ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options\r\n");
        assertThat(kvd.call("GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "STORE", "d")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void everyGeoCommandRefusesOtherTypes() {
        kvd.call("SET", "s", "x");
        assertThat(kvd.call("GEOADD", "s", "1", "2", "m")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GEOPOS", "s", "m")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GEOHASH", "s", "m")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GEOSEARCH", "s", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GEORADIUSBYMEMBER", "s", "m", "x", "km")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GEOSEARCHSTORE", "d", "s", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km")).isEqualTo(WRONGTYPE);
    }

    @Test
    void partialQuicksortPutsTheSortedElementsInTheRangeAsked() {
        long seed = 20261203L;
        System.out.println("partial quicksort seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 500; round++) {
            List<Integer> values = new ArrayList<>();
            int size = 1 + random.nextInt(200);
            for (int i = 0; i < size; i++) {
                values.add(random.nextInt(50));
            }
            List<Integer> sorted = new ArrayList<>(values);
            sorted.sort(Comparator.naturalOrder());
            int last = random.nextInt(size);
            PartialQuicksort.sort(values, Comparator.naturalOrder(), 0, last);
            assertThat(values.subList(0, last + 1)).isEqualTo(sorted.subList(0, last + 1));
        }
    }
}
