package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.geo.GeoHash;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ZSetValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.ZSET;

/**
 * Geo commands (Redis 7.0's geo.c) on sorted sets whose scores are {@link GeoHash} positions.
 * GEOADD is ZADD with the positions turned into scores, and is logged as that ZADD; a search
 * reads the score ranges of the nine cells around its centre, keeps the positions inside its
 * shape, and sorts them by distance as Redis does (a stable sort, or Redis's partial quicksort
 * when COUNT keeps fewer than it found).
 */
final class GeoCommands {
    private static final byte[] ZADD = Args.bytes("zadd");
    private static final String NOT_A_MEMBER = "ERR could not decode requested zset member";

    /** What georadiusGeneric serves: a search around coordinates or a member, GEOSEARCH's forms, and whether STORE is refused. */
    private static final int COORDS = 1;
    private static final int MEMBER = 1 << 1;
    private static final int NO_STORE = 1 << 2;
    private static final int SEARCH = 1 << 3;
    private static final int SEARCH_STORE = 1 << 4;

    private enum Sort { NONE, ASC, DESC }

    /** A position found by a search: its member, score, decoded coordinates and distance from the centre in meters. */
    private record Point(byte[] member, double score, double longitude, double latitude, double distance) {
    }

    private GeoCommands() {
    }

    /** GEOADD key [NX|XX] [CH] longitude latitude member [longitude latitude member ...] */
    static void geoadd(Client client, byte[][] argv) {
        boolean nx = false, xx = false;
        int longAt = 2;
        for (; longAt < argv.length; longAt++) {
            if (Args.is(argv[longAt], "nx")) {
                nx = true;
            } else if (Args.is(argv[longAt], "xx")) {
                xx = true;
            } else if (!Args.is(argv[longAt], "ch")) {
                break;
            }
        }
        if ((argv.length - longAt) % 3 != 0 || xx && nx) {
            throw new CommandError(Errors.SYNTAX);
        }
        int elements = (argv.length - longAt) / 3;
        // ZADD key [options as given] score member ..., as Redis rewrites the command and propagates it.
        byte[][] zadd = new byte[longAt + elements * 2][];
        zadd[0] = ZADD;
        System.arraycopy(argv, 1, zadd, 1, longAt - 1);
        for (int i = 0; i < elements; i++) {
            double[] position = longLat(argv, longAt + i * 3);
            zadd[longAt + i * 2] = Args.bytes(Long.toString(GeoHash.score(position[0], position[1])));
            zadd[longAt + i * 2 + 1] = argv[longAt + i * 3 + 2];
        }
        SortedSetCommands.zadd(client, zadd);
        client.logAs(zadd);
    }

    /** GEOPOS key [member ...] */
    static void geopos(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        Reply reply = client.reply();
        reply.arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            double score = zset == null ? Double.NaN : zset.score(argv[i]);
            if (Double.isNaN(score)) {
                reply.nullArray();
            } else {
                double[] position = GeoHash.decode(score);
                reply.arrayHeader(2);
                reply.doubleText(human(position[0]));
                reply.doubleText(human(position[1]));
            }
        }
    }

    /** GEOHASH key [member ...] */
    static void geohash(Client client, byte[][] argv) {
        ZSetValue zset = client.keyspace().zset(argv[1]);
        Reply reply = client.reply();
        reply.arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            double score = zset == null ? Double.NaN : zset.score(argv[i]);
            if (Double.isNaN(score)) {
                reply.nullBulk();
            } else {
                double[] position = GeoHash.decode(score);
                reply.bulk(GeoHash.standard(position[0], position[1]));
            }
        }
    }

    /** GEODIST key member1 member2 [M|KM|FT|MI]: the unit is read before the key. */
    static void geodist(Client client, byte[][] argv) {
        double toMeters = 1;
        if (argv.length == 5) {
            toMeters = unit(argv[4]);
        } else if (argv.length > 5) {
            throw new CommandError(Errors.SYNTAX);
        }
        ZSetValue zset = client.keyspace().zset(argv[1]);
        double first = zset == null ? Double.NaN : zset.score(argv[2]);
        double second = zset == null || Double.isNaN(first) ? Double.NaN : zset.score(argv[3]);
        if (Double.isNaN(second)) {
            client.reply().nullBulk();
            return;
        }
        double[] a = GeoHash.decode(first);
        double[] b = GeoHash.decode(second);
        client.reply().bulk(distance(GeoHash.distance(a[0], a[1], b[0], b[1]) / toMeters));
    }

    /** GEORADIUS key longitude latitude radius M|KM|FT|MI [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC|DESC] [STORE key|STOREDIST key] */
    static void georadius(Client client, byte[][] argv) {
        search(client, argv, 1, COORDS);
    }

    /** GEORADIUSBYMEMBER key member radius M|KM|FT|MI [options as GEORADIUS] */
    static void georadiusbymember(Client client, byte[][] argv) {
        search(client, argv, 1, MEMBER);
    }

    /** GEORADIUS_RO: GEORADIUS without STORE. */
    static void georadiusRo(Client client, byte[][] argv) {
        search(client, argv, 1, COORDS | NO_STORE);
    }

    /** GEORADIUSBYMEMBER_RO: GEORADIUSBYMEMBER without STORE. */
    static void georadiusbymemberRo(Client client, byte[][] argv) {
        search(client, argv, 1, MEMBER | NO_STORE);
    }

    /** GEOSEARCH key FROMMEMBER member|FROMLONLAT longitude latitude BYRADIUS radius unit|BYBOX width height unit [ASC|DESC] [COUNT count [ANY]] [WITHCOORD] [WITHDIST] [WITHHASH] */
    static void geosearch(Client client, byte[][] argv) {
        search(client, argv, 1, SEARCH);
    }

    /** GEOSEARCHSTORE destination source [GEOSEARCH's options but WITH*] [STOREDIST] */
    static void geosearchstore(Client client, byte[][] argv) {
        search(client, argv, 2, SEARCH | SEARCH_STORE);
    }

    /**
     * Redis's georadiusGeneric: the source's type, the centre and shape of the GEORADIUS forms,
     * then the options in order (GEOSEARCH's centre and shape among them), then the checks of
     * their combination; a missing source answers empty (or deletes the destination) only then.
     */
    private static void search(Client client, byte[][] argv, int sourceAt, int flags) {
        Keyspace keyspace = client.keyspace();
        ZSetValue zset = keyspace.zset(argv[sourceAt]);
        byte[] storeKey = null;
        boolean storeDist = false;
        double longitude = 0, latitude = 0;
        double[] radius = null;
        double[] box = null;
        int baseArgs;
        if ((flags & COORDS) != 0) {
            baseArgs = 6;
            double[] position = longLat(argv, 2);
            longitude = position[0];
            latitude = position[1];
            radius = distanceArgument(argv, 4);
        } else if ((flags & MEMBER) != 0 && zset == null) {
            // Without a source the member and radius go unread: only the options decide the reply.
            baseArgs = 5;
        } else if ((flags & MEMBER) != 0) {
            baseArgs = 5;
            double[] position = memberPosition(zset, argv[2]);
            longitude = position[0];
            latitude = position[1];
            radius = distanceArgument(argv, 3);
        } else {
            baseArgs = 2;
            if ((flags & SEARCH_STORE) != 0) {
                baseArgs = 3;
                storeKey = argv[1];
            }
        }
        boolean search = (flags & SEARCH) != 0;
        boolean storeAllowed = (flags & NO_STORE) == 0 && !search;
        boolean withDist = false, withHash = false, withCoord = false, any = false;
        boolean fromMember = false, fromLonLat = false;
        Sort sort = Sort.NONE;
        long count = 0;
        int remaining = argv.length - baseArgs;
        for (int i = 0; i < remaining; i++) {
            byte[] arg = argv[baseArgs + i];
            if (Args.is(arg, "withdist")) {
                withDist = true;
            } else if (Args.is(arg, "withhash")) {
                withHash = true;
            } else if (Args.is(arg, "withcoord")) {
                withCoord = true;
            } else if (Args.is(arg, "any")) {
                any = true;
            } else if (Args.is(arg, "asc")) {
                sort = Sort.ASC;
            } else if (Args.is(arg, "desc")) {
                sort = Sort.DESC;
            } else if (Args.is(arg, "count") && i + 1 < remaining) {
                count = Args.parseLong(argv[baseArgs + i + 1]);
                if (count <= 0) {
                    throw new CommandError("ERR COUNT must be > 0");
                }
                i++;
            } else if (Args.is(arg, "store") && i + 1 < remaining && storeAllowed) {
                storeKey = argv[baseArgs + i + 1];
                storeDist = false;
                i++;
            } else if (Args.is(arg, "storedist") && i + 1 < remaining && storeAllowed) {
                storeKey = argv[baseArgs + i + 1];
                storeDist = true;
                i++;
            } else if (Args.is(arg, "storedist") && (flags & SEARCH_STORE) != 0) {
                storeDist = true;
            } else if (Args.is(arg, "frommember") && i + 1 < remaining && search && !fromLonLat) {
                if (zset != null) {
                    double[] position = memberPosition(zset, argv[baseArgs + i + 1]);
                    longitude = position[0];
                    latitude = position[1];
                }
                fromMember = true;
                i++;
            } else if (Args.is(arg, "fromlonlat") && i + 2 < remaining && search && !fromMember) {
                double[] position = longLat(argv, baseArgs + i + 1);
                longitude = position[0];
                latitude = position[1];
                fromLonLat = true;
                i += 2;
            } else if (Args.is(arg, "byradius") && i + 2 < remaining && search && box == null) {
                radius = distanceArgument(argv, baseArgs + i + 1);
                i += 2;
            } else if (Args.is(arg, "bybox") && i + 3 < remaining && search && radius == null) {
                box = boxArgument(argv, baseArgs + i + 1);
                i += 3;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        if (storeKey != null && (withDist || withHash || withCoord)) {
            throw new CommandError("ERR " + ((flags & SEARCH_STORE) != 0 ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS")
                    + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
        }
        if (search && !(fromMember || fromLonLat)) {
            throw new CommandError("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + Args.utf8(argv[0]));
        }
        if (search && radius == null && box == null) {
            throw new CommandError("ERR exactly one of BYRADIUS and BYBOX can be specified for " + Args.utf8(argv[0]));
        }
        if (any && count == 0) {
            throw new CommandError("ERR the ANY argument requires COUNT argument");
        }
        if (zset == null) {
            if (storeKey != null) {
                if (keyspace.remove(storeKey)) {
                    client.events().notify(GENERIC, "del", storeKey, client.db());
                }
                client.reply().integer(0);
            } else {
                client.reply().arrayHeader(0);
            }
            return;
        }
        // COUNT without an order keeps the nearest, unless ANY asked for whichever come first.
        if (count != 0 && sort == Sort.NONE && !any) {
            sort = Sort.ASC;
        }
        GeoHash.Shape shape = box != null
                ? GeoHash.Shape.box(longitude, latitude, box[0], box[1], box[2])
                : GeoHash.Shape.circle(longitude, latitude, radius[0], radius[1]);
        List<Point> points = pointsInCells(zset, shape, any ? count : 0);
        if (points.isEmpty() && storeKey == null) {
            client.reply().arrayHeader(0);
            return;
        }
        int returned = count == 0 || points.size() < count ? points.size() : (int) count;
        if (sort != Sort.NONE) {
            // Redis's sort_gp_asc and sort_gp_desc.
            Comparator<Point> ascending = (a, b) -> a.distance() > b.distance() ? 1 : a.distance() == b.distance() ? 0 : -1;
            Comparator<Point> order = sort == Sort.ASC ? ascending : (a, b) -> -ascending.compare(a, b);
            if (returned == points.size()) {
                // glibc's qsort is a stable merge sort, as List.sort is.
                points.sort(order);
            } else {
                PartialQuicksort.sort(points, order, 0, returned - 1);
            }
        }
        double conversion = shape.conversion();
        if (storeKey == null) {
            replyPoints(client, points, returned, conversion, withDist, withHash, withCoord);
        } else {
            store(client, storeKey, points, returned, conversion, storeDist, search);
        }
    }

    private static void replyPoints(Client client, List<Point> points, int returned, double conversion,
                                    boolean withDist, boolean withHash, boolean withCoord) {
        Reply reply = client.reply();
        int options = (withDist ? 1 : 0) + (withHash ? 1 : 0) + (withCoord ? 1 : 0);
        reply.arrayHeader(returned);
        for (int i = 0; i < returned; i++) {
            Point point = points.get(i);
            if (options > 0) {
                reply.arrayHeader(options + 1);
            }
            reply.bulk(point.member());
            if (withDist) {
                reply.bulk(distance(point.distance() / conversion));
            }
            if (withHash) {
                reply.integer((long) point.score());
            }
            if (withCoord) {
                reply.arrayHeader(2);
                reply.doubleText(human(point.longitude()));
                reply.doubleText(human(point.latitude()));
            }
        }
    }

    /** The STORE forms' end: the points found replace the destination (none deletes it); replies how many. */
    private static void store(Client client, byte[] storeKey, List<Point> points, int returned, double conversion,
                              boolean storeDist, boolean search) {
        Keyspace keyspace = client.keyspace();
        int longest = 0;
        for (int i = 0; i < returned; i++) {
            longest = Math.max(longest, points.get(i).member().length);
        }
        int maxMemberLength = longest;
        if (returned > 0) {
            keyspace.rebuild(storeKey, () -> {
                ZSetValue stored = keyspace.zsetForWrite(storeKey);
                // Redis builds a skip list and makes it a listpack if small enough.
                stored.expect(returned, maxMemberLength);
                for (int i = 0; i < returned; i++) {
                    Point point = points.get(i);
                    stored.put(point.member(), storeDist ? point.distance() / conversion : point.score());
                }
            });
            client.events().notify(ZSET, search ? "geosearchstore" : "georadiusstore", storeKey, client.db());
        } else if (keyspace.remove(storeKey)) {
            client.events().notify(GENERIC, "del", storeKey, client.db());
        }
        client.reply().integer(returned);
    }

    /**
     * membersOfAllNeighbors: the positions inside the shape from each cell's score range, the
     * cells in Redis's order, a cell equal to the last one read skipped; with a {@code limit}
     * (ANY), reading stops once that many were found.
     */
    private static List<Point> pointsInCells(ZSetValue zset, GeoHash.Shape shape, long limit) {
        GeoHash.Cells cells = GeoHash.cells(shape);
        Long[] cell = cells.cells();
        List<Point> points = new ArrayList<>();
        int lastRead = 0;
        for (int i = 0; i < cell.length; i++) {
            if (cell[i] == null) {
                continue;
            }
            // As Redis, the centre (index 0) is never compared with: lastRead 0 means none yet.
            if (lastRead != 0 && cell[i].equals(cell[lastRead])) {
                continue;
            }
            if (reachedLimit(points, limit)) {
                break;
            }
            long[] range = GeoHash.scoreRange(cell[i], cells.step());
            pointsInRange(zset, range[0], range[1], shape, points, limit);
            lastRead = i;
        }
        return points;
    }

    /** geoGetPointsInRange: the members scoring {@code [min, max)} whose position is inside the shape. */
    private static void pointsInRange(ZSetValue zset, double min, double max, GeoHash.Shape shape, List<Point> points,
                                      long limit) {
        zset.walkFrom(min, visit -> {
            double score = visit.score();
            if (!(score < max)) {
                return false;
            }
            double[] position = GeoHash.decode(score);
            double distance = GeoHash.distanceIfWithin(shape, position[0], position[1]);
            if (!Double.isNaN(distance)) {
                points.add(new Point(visit.member(), score, position[0], position[1], distance));
            }
            return !reachedLimit(points, limit);
        });
    }

    private static boolean reachedLimit(List<Point> points, long limit) {
        return limit != 0 && !points.isEmpty() && points.size() >= limit;
    }

    /** extractLongLatOrReply: two floats from {@code at}, inside the geohash limits. */
    private static double[] longLat(byte[][] argv, int at) {
        double longitude = Scores.parse(argv[at]);
        double latitude = Scores.parse(argv[at + 1]);
        if (longitude < GeoHash.LONG_MIN || longitude > GeoHash.LONG_MAX
                || latitude < GeoHash.LAT_MIN || latitude > GeoHash.LAT_MAX) {
            throw new CommandError("ERR invalid longitude,latitude pair " + fixed(longitude, 6) + "," + fixed(latitude, 6));
        }
        return new double[] {longitude, latitude};
    }

    private static double[] memberPosition(ZSetValue zset, byte[] member) {
        double score = zset.score(member);
        if (Double.isNaN(score)) {
            throw new CommandError(NOT_A_MEMBER);
        }
        return GeoHash.decode(score);
    }

    /** extractDistanceOrReply: {radius, meters per unit}. */
    private static double[] distanceArgument(byte[][] argv, int at) {
        double radius = parseFloat(argv[at], "ERR need numeric radius");
        if (radius < 0) {
            throw new CommandError("ERR radius cannot be negative");
        }
        return new double[] {radius, unit(argv[at + 1])};
    }

    /** extractBoxOrReply: {width, height, meters per unit}. */
    private static double[] boxArgument(byte[][] argv, int at) {
        double width = parseFloat(argv[at], "ERR need numeric width");
        double height = parseFloat(argv[at + 1], "ERR need numeric height");
        if (height < 0 || width < 0) {
            throw new CommandError("ERR height or width cannot be negative");
        }
        return new double[] {width, height, unit(argv[at + 2])};
    }

    private static double parseFloat(byte[] arg, String error) {
        try {
            return Scores.parse(arg);
        } catch (CommandError e) {
            throw new CommandError(error);
        }
    }

    /** extractUnitOrReply: meters per unit. */
    private static double unit(byte[] arg) {
        if (Args.is(arg, "m")) {
            return 1;
        } else if (Args.is(arg, "km")) {
            return 1000;
        } else if (Args.is(arg, "ft")) {
            return 0.3048;
        } else if (Args.is(arg, "mi")) {
            return 1609.34;
        }
        throw new CommandError("ERR unsupported unit provided. please use M, KM, FT, MI");
    }

    /** addReplyDoubleDistance: "%.4f". */
    private static String distance(double meters) {
        return fixed(meters, 4);
    }

    /**
     * addReplyHumanLongDouble of a coordinate: "%.17Lf" of the exact value, trailing zeros and
     * a trailing point dropped, "-0" printed as "0".
     */
    static String human(double value) {
        String text = fixed(value, 17);
        if (text.indexOf('.') >= 0) {
            int end = text.length();
            while (text.charAt(end - 1) == '0') {
                end--;
            }
            if (text.charAt(end - 1) == '.') {
                end--;
            }
            text = text.substring(0, end);
        }
        return text.equals("-0") ? "0" : text;
    }

    /** C's "%.Nf": the exact binary value rounded half-even to N decimals, keeping the sign of a negative that rounds to zero. */
    private static String fixed(double value, int decimals) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String text = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = value < 0 || value == 0 && 1 / value < 0;
        return negative && text.charAt(0) != '-' ? "-" + text : text;
    }
}
