package io.kvd.server.rdb;

import io.kvd.server.store.Databases;
import io.kvd.server.store.EncodingLimits;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StreamGroup;
import io.kvd.server.store.StreamId;
import io.kvd.server.store.StreamValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RdbFormatTest {
    private static final EncodingLimits LIMITS = new EncodingLimits();
    @TempDir
    Path dir;

    @Test
    void crc64IsRedisJonesChecksum() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc64.of(check, check.length)).isEqualTo(0xe9c6d914c4b8d9caL);
    }

    @Test
    void lzfRoundTripsSeededRandomTextAndRefusesWhatWouldNotShrink() {
        long seed = 7L;
        System.out.println("seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 500; round++) {
            byte[] text = new byte[1 + random.nextInt(3000)];
            for (int i = 0; i < text.length; i++) {
                text[i] = (byte) ('a' + random.nextInt(1 + round % 26));
            }
            byte[] compressed = Lzf.compress(text, text.length + 64);
            assertThat(Lzf.decompress(compressed, text.length)).isEqualTo(text);
        }
        byte[] noise = new byte[100];
        random.nextBytes(noise);
        assertThat(Lzf.compress(noise, noise.length - 4)).isNull();
    }

    /** DUMP payloads redis-server 7.0.15 gave for these values: kvd reads each and writes the same bytes. */
    @Test
    void dumpPayloadsAreRedisBytesForEachSmallEncoding() {
        String[] payloads = {
                "00036261720a00e6be4960ee66fd17", // SET s bar
                "00c139300a009d94ea2793fc08b9", // SET n 12345
                "1201021111000000040081610281620201010201ff0a006d72713e9b43482b", // RPUSH l a b 1 2
                "0b100200000004000000fbff0100020003000a00c8e4dfb66f7396f0", // SADD si 1 2 3 -5
                "1013130000000400816602817602826632036401ff0a00a646a7e52fa38e4e", // HSET h f v f2 100
                "111a1a0000000600816302dffd0281610283312e35048162020201ff0a0088c4c030f0ae8276", // ZADD z 1.5 a 2 b -3 c
                // XADD x 1-1 f v, 1-2 f w; XGROUP CREATE x g 0; XREADGROUP GROUP g c COUNT 1 STREAMS x >
                "1301100000000000000001000000000000000128280000000f00020100010101816602000102010001000181760204010201"
                        + "000101018177020401ff02010201010000020101670101010100000000000000010000000000000001a1f3d643a20100"
                        + "0001010163a1f3d643a201000001000000000000000100000000000000010a00e6f119255a5dbb66",
        };
        for (String hex : payloads) {
            byte[] payload = HexFormat.of().parseHex(hex);
            RdbValue value = RdbLoader.readPayload(payload);
            assertThat(HexFormat.of().formatHex(RdbWriter.dumpPayload(value, LIMITS, true))).isEqualTo(hex);
        }
    }

    @Test
    void aPayloadWithAWrongChecksumOrNewerVersionIsNotRead() {
        byte[] payload = HexFormat.of().parseHex("00036261720a00e6be4960ee66fd17");
        payload[payload.length - 1] ^= 1;
        assertThat(RdbLoader.readPayload(payload)).isNull();
        byte[] newer = HexFormat.of().parseHex("00036261720b00e6be4960ee66fd17");
        assertThat(RdbLoader.readPayload(newer)).isNull();
        assertThat(RdbLoader.readPayload(new byte[9])).isNull();
    }

    @Test
    void aStreamedRdbEndingInItsMarkLoadsAsItArrivesInSmallPieces() throws Exception {
        Databases databases = filled(new SplittableRandom(11));
        byte[] mark = "0123456789abcdef0123456789abcdef01234567".getBytes(StandardCharsets.US_ASCII);
        CompletableFuture<Object> end = streamedLoad(Files.readAllBytes(save(databases)), mark, mark);
        assertThat(end.get(30, TimeUnit.SECONDS)).isInstanceOf(Databases.class);
        assertSameData((Databases) end.get(), databases);
    }

    @Test
    void aStreamedRdbWhoseMarkDiffersFailsItsLoad() throws Exception {
        Databases databases = filled(new SplittableRandom(11));
        byte[] mark = "0123456789abcdef0123456789abcdef01234567".getBytes(StandardCharsets.US_ASCII);
        byte[] other = "x123456789abcdef0123456789abcdef01234567".getBytes(StandardCharsets.US_ASCII);
        CompletableFuture<Object> end = streamedLoad(Files.readAllBytes(save(databases)), mark, other);
        assertThat(end.get(30, TimeUnit.SECONDS)).isEqualTo("Replication stream EOF marker is broken");
    }

    /** Feeds {@code rdb} then {@code sentMark} in 1000-byte pieces; ends with the databases loaded or the failure. */
    private static CompletableFuture<Object> streamedLoad(byte[] rdb, byte[] expectedMark, byte[] sentMark) {
        ExecutorService loop = Executors.newSingleThreadExecutor();
        CompletableFuture<Object> end = new CompletableFuture<>();
        Databases into = new Databases(16, 1, LIMITS);
        StreamedLoad load = new StreamedLoad(into, into.access(), 0, -1, expectedMark, loop, () -> { },
                new StreamedLoad.Listener() {
                    @Override
                    public void loaded(RdbLoader.Result result) {
                        end.complete(into);
                    }

                    @Override
                    public void failed(String reason) {
                        end.complete(reason);
                    }
                });
        byte[] sent = Arrays.copyOf(rdb, rdb.length + sentMark.length);
        System.arraycopy(sentMark, 0, sent, rdb.length, sentMark.length);
        for (int at = 0; at < sent.length; at += 1000) {
            ByteBuf piece = Unpooled.wrappedBuffer(sent, at, Math.min(1000, sent.length - at));
            loop.execute(() -> load.feed(piece));
        }
        end.whenComplete((r, e) -> loop.shutdown());
        return end;
    }

    @Test
    void everyTypeAndEncodingRoundTripsThroughAFile() throws Exception {
        Databases databases = filled(new SplittableRandom(11));
        Databases loaded = saveAndLoad(databases);
        assertSameData(loaded, databases);
        for (int db = 0; db < databases.count(); db++) {
            assertThat(loaded.get(db).size()).isEqualTo(databases.get(db).size());
        }
        Keyspace zero = loaded.get(0);
        assertThat(zero.objectEncoding(bytes("hash-small"))).isEqualTo("listpack");
        assertThat(zero.objectEncoding(bytes("hash-large"))).isEqualTo("hashtable");
        assertThat(zero.objectEncoding(bytes("set-ints"))).isEqualTo("intset");
        assertThat(zero.objectEncoding(bytes("zset-small"))).isEqualTo("listpack");
        assertThat(zero.objectEncoding(bytes("zset-large"))).isEqualTo("skiplist");
        assertThat(zero.deadline(bytes("string-ttl"))).isEqualTo(databases.get(0).deadline(bytes("string-ttl")));
        assertThat(zero.deadline(bytes("list-large"))).isEqualTo(databases.get(0).deadline(bytes("list-large")));
        StreamValue stream = zero.stream(bytes("stream"));
        StreamGroup group = stream.group(bytes("g"));
        assertThat(group.pending()).hasSize(3);
        assertThat(group.consumer(bytes("alice")).pending()).hasSize(3);
        assertThat(group.entriesRead())
                .isEqualTo(databases.get(0).stream(bytes("stream")).group(bytes("g")).entriesRead());
        assertThat(group.consumer(bytes("bob")).seenTime()).isEqualTo(654_321);
    }

    @Test
    void seededRandomDatasetsRoundTrip() throws Exception {
        long seed = System.nanoTime();
        System.out.println("seed " + seed);
        for (int round = 0; round < 5; round++) {
            Databases databases = filled(new SplittableRandom(seed + round));
            assertSameData(saveAndLoad(databases), databases);
        }
    }

    @Test
    void aKeyAlreadyExpiredIsNotLoaded() throws Exception {
        Databases databases = new Databases(16, 1, LIMITS);
        databases.setTime(1_000);
        databases.get(0).put(bytes("old"), bytes("v"), 5_000);
        databases.get(0).put(bytes("new"), bytes("v"), Keyspace.PERSISTENT);
        Path file = save(databases);
        Databases loaded = new Databases(16, 1, LIMITS);
        RdbLoader.Result result = new RdbLoader(loaded, code -> { }, 10_000).load(file);
        assertThat(result.keys()).isEqualTo(1);
        assertThat(result.expired()).isEqualTo(1);
        assertThat(loaded.get(0).exists(bytes("old"))).isFalse();
    }

    @Test
    void everyTruncationIsRefusedWithAnError() throws Exception {
        byte[] file = Files.readAllBytes(save(filled(new SplittableRandom(3))));
        for (int length = 0; length < file.length; length += Math.max(1, file.length / 500)) {
            int cut = length;
            assertThatThrownBy(() -> load(file, cut)).as("cut at %d", cut).isInstanceOf(RdbFormatException.class);
        }
    }

    @Test
    void bitFlipsAreRefusedByTheChecksumOrTheParser() throws Exception {
        byte[] file = Files.readAllBytes(save(filled(new SplittableRandom(5))));
        long seed = System.nanoTime();
        System.out.println("seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 300; round++) {
            byte[] flipped = file.clone();
            int at = 9 + random.nextInt(file.length - 9);
            flipped[at] ^= (byte) (1 << random.nextInt(8));
            assertThatThrownBy(() -> load(flipped, flipped.length)).as("flip at %d", at)
                    .isInstanceOf(RdbFormatException.class);
        }
    }

    @Test
    void aCountLargerThanTheDataIsRefusedBeforeAnyAllocation() {
        // A set claiming 2^32-1 members in a 10-byte payload.
        byte[] body = {Rdb.TYPE_SET, (byte) 0x80, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1, 'a'};
        byte[] payload = new byte[body.length + 10];
        System.arraycopy(body, 0, payload, 0, body.length);
        payload[body.length] = Rdb.VERSION;
        RedisListpack.putLe(payload, body.length + 2, Crc64.of(payload, body.length + 2), 8);
        assertThatThrownBy(() -> RdbLoader.readPayload(payload)).isInstanceOf(RdbFormatException.class)
                .hasMessageContaining("exceeds the data left");
    }

    @Test
    void olderEncodingsLoad() {
        // Ziplist hash {a: 1}, as Redis 6 wrote RDB_TYPE_HASH_ZIPLIST: zlbytes 17, tail 13, 2 entries.
        byte[] ziplist = HexFormat.of().parseHex("100000000d000000020000016103f1ff");
        List<byte[]> elements = LegacyEncodings.ziplist(ziplist);
        assertThat(elements).containsExactly(bytes("a"), bytes("0"));
        // Zipmap {f: vv}: zmlen 1, "f", value length 2 with 0 free, "vv", end.
        byte[] zipmap = HexFormat.of().parseHex("01016602007676ff");
        assertThat(LegacyEncodings.zipmap(zipmap)).containsExactly(bytes("f"), bytes("vv"));
    }

    /** Same keys, deadlines and values (a set's members and a hash's fields in any order). */
    private static void assertSameData(Databases actual, Databases expected) {
        for (int db = 0; db < expected.count(); db++) {
            Keyspace want = expected.get(db);
            Keyspace got = actual.get(db);
            assertThat(got.size()).isEqualTo(want.size());
            List<byte[]> keys = new ArrayList<>();
            want.forEachKey(key -> keys.add(key.clone()));
            for (byte[] key : keys) {
                assertThat(got.deadline(key)).as("deadline of %s", new String(key)).isEqualTo(want.deadline(key));
                assertThat(canonical(StoredValues.read(got, key))).as("value of %s", new String(key))
                        .isEqualTo(canonical(StoredValues.read(want, key)));
            }
        }
    }

    private static String canonical(RdbValue value) {
        if (value instanceof RdbValue.SetOf set) {
            return "set" + set.members().stream().map(HexFormat.of()::formatHex).sorted().toList();
        }
        if (value instanceof RdbValue.HashOf hash) {
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < hash.fieldsAndValues().size(); i += 2) {
                pairs.add(HexFormat.of().formatHex(hash.fieldsAndValues().get(i)) + "="
                        + HexFormat.of().formatHex(hash.fieldsAndValues().get(i + 1)));
            }
            return "hash" + pairs.stream().sorted().toList();
        }
        return HexFormat.of().formatHex(RdbWriter.dumpPayload(value, LIMITS, false));
    }

    private Databases filled(SplittableRandom random) {
        Databases databases = new Databases(16, 1, LIMITS);
        databases.setTime(System.currentTimeMillis());
        Keyspace zero = databases.get(0);
        zero.put(bytes("string"), bytes("plain"), Keyspace.PERSISTENT);
        zero.put(bytes("string-int"), bytes("-123456789"), Keyspace.PERSISTENT);
        zero.put(bytes("string-long"), bytes("12345678901234567890"), Keyspace.PERSISTENT);
        zero.put(bytes("string-lzf"), bytes("x".repeat(500)), Keyspace.PERSISTENT);
        zero.put(bytes("string-ttl"), bytes("t"), System.currentTimeMillis() + 100_000);
        zero.put(bytes("string-empty"), new byte[0], Keyspace.PERSISTENT);
        zero.hashForWrite(bytes("hash-small")).putAll(new byte[][] {bytes("f"), bytes("v"), bytes("n"), bytes("-7")}, 0);
        for (int i = 0; i < 600; i++) {
            zero.hashForWrite(bytes("hash-large")).put(bytes("field" + i), randomBytes(random, 30));
        }
        zero.setForWrite(bytes("set-ints")).addAll(new byte[][] {bytes("1"), bytes("-40000"), bytes("9000000000")}, 0);
        for (int i = 0; i < 700; i++) {
            zero.setForWrite(bytes("set-large")).add(randomBytes(random, 12));
        }
        zero.setForWrite(bytes("set-text")).addAll(new byte[][] {bytes("a"), bytes("b")}, 0);
        zero.listForWrite(bytes("list-small")).pushAll(new byte[][] {bytes("a"), bytes("1"), bytes("-1")}, 0, false);
        byte[][] many = new byte[3000][];
        for (int i = 0; i < many.length; i++) {
            many[i] = random.nextBoolean() ? bytes(Long.toString(random.nextLong())) : randomBytes(random, 40);
        }
        zero.listForWrite(bytes("list-large")).pushAll(many, 0, false);
        zero.setDeadline(bytes("list-large"), System.currentTimeMillis() + 200_000);
        zero.zsetForWrite(bytes("zset-small")).put(bytes("a"), 1.5);
        zero.zsetForWrite(bytes("zset-small")).put(bytes("b"), Double.NEGATIVE_INFINITY);
        zero.zsetForWrite(bytes("zset-small")).put(bytes("c"), 1e300);
        for (int i = 0; i < 300; i++) {
            zero.zsetForWrite(bytes("zset-large")).put(randomBytes(random, 10), random.nextDouble() * 1e6);
        }
        StreamValue stream = zero.streamForWrite(bytes("stream"));
        for (int i = 1; i <= 250; i++) {
            byte[][] fields = i % 3 == 0 ? new byte[][] {bytes("other"), bytes("x" + i)}
                    : new byte[][] {bytes("f"), bytes("v" + i), bytes("g"), bytes(Integer.toString(i))};
            stream.add(new StreamId(1000 + i / 2, i), fields, 0);
        }
        stream.delete(new StreamId[] {new StreamId(1001, 2)});
        stream.createGroup(bytes("g"), StreamId.MIN, 0);
        StreamGroup group = stream.group(bytes("g"));
        StreamGroup.Consumer alice = stream.createConsumer(group, bytes("alice"), 123_456);
        stream.deliverNew(group, alice, 3, false);
        stream.createConsumer(group, bytes("bob"), 654_321);
        StreamValue empty = zero.streamForWrite(bytes("stream-empty"));
        empty.setId(new StreamId(5, 5), 3, new StreamId(4, 4));
        Keyspace seven = databases.get(7);
        for (int i = 0; i < 1000; i++) {
            seven.put(bytes("k" + i), randomBytes(random, random.nextInt(100)), random.nextBoolean()
                    ? Keyspace.PERSISTENT : System.currentTimeMillis() + 1_000_000 + i);
        }
        return databases;
    }

    private Path save(Databases databases) throws Exception {
        Path file = dir.resolve("dump.rdb");
        RdbSave.foreground(new RdbSave.Options(file, false, LIMITS, true, true, 0, List.of(), 0, null), databases);
        return file;
    }

    private Databases saveAndLoad(Databases databases) throws Exception {
        Path file = save(databases);
        Databases loaded = new Databases(16, 1, LIMITS);
        loaded.setTime(databases.now());
        new RdbLoader(loaded, code -> { }, System.currentTimeMillis()).load(file);
        return loaded;
    }

    private static void load(byte[] file, int length) {
        Databases loaded = new Databases(16, 1, LIMITS);
        new RdbLoader(loaded, code -> { }, 0).load(new ByteArrayInputStream(file, 0, length), length);
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
