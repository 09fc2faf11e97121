package io.kvd.server.client;

import io.kvd.server.command.CommandFixture;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class ClientEvictionTest {
    private final CommandFixture fixture = new CommandFixture();
    private final ClientEviction eviction = fixture.server.clientEviction();

    /** A client's connection whose query buffer holds as many bytes as the test says. */
    private static final class SizedConnection extends SocketlessConnection {
        long queryBytes;
        boolean closed;

        @Override
        public String remoteAddress() {
            return "127.0.0.1:50000";
        }

        @Override
        public int queryBufferBytes() {
            return (int) queryBytes;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private record Sized(Client client, SizedConnection connection) {
    }

    /** A connected client whose memory is {@code bytes} beside the fixed overhead, measured. */
    private Sized client(long bytes) {
        SizedConnection connection = new SizedConnection();
        connection.queryBytes = bytes;
        Client client = new Client(fixture.server, UnpooledByteBufAllocator.DEFAULT, connection);
        fixture.server.clients().put(client.id(), client);
        eviction.measure(client);
        return new Sized(client, connection);
    }

    /** CLIENT NO-EVICT ON from {@code client}, measured after it as the connection measures it. */
    private void protect(Client client) {
        fixture.callAs(client, "CLIENT", "NO-EVICT", "on");
        eviction.measure(client);
    }

    /** CONFIG SET maxmemory-clients, and the eviction its connection runs after it. */
    private void limit(long bytes) {
        config("maxmemory-clients", String.valueOf(bytes));
    }

    private void config(String name, String value) {
        fixture.call("CONFIG", "SET", name, value);
        eviction.evict();
    }

    @Test
    void theLimitIsBytesOrAPercentageOfMaxmemoryAndAtLeast128Kb() {
        assertThat(ClientEviction.limit("0", 0)).isZero();
        assertThat(ClientEviction.limit("3000000", 0)).isEqualTo(3_000_000);
        assertThat(ClientEviction.limit("1", 0)).isEqualTo(128 * 1024);
        assertThat(ClientEviction.limit("7%", 6 << 20)).isEqualTo(440_401);
        assertThat(ClientEviction.limit("7%", 0)).isZero();
        assertThat(ClientEviction.limit("0%", 6 << 20)).isZero();
    }

    @Test
    void bucketsArePowersOfTwoFrom32KbTo8Gb() {
        assertThat(ClientEviction.bucket(0)).isZero();
        assertThat(ClientEviction.bucket(32 * 1024 - 1)).isZero();
        assertThat(ClientEviction.bucket(32 * 1024)).isEqualTo(1);
        assertThat(ClientEviction.bucket(64 * 1024 - 1)).isEqualTo(1);
        assertThat(ClientEviction.bucket(64 * 1024)).isEqualTo(2);
        assertThat(ClientEviction.bucket(1L << 40)).isEqualTo(18);
    }

    @Test
    void memoryIsTheOverheadBuffersQueuedCommandsWatchesAndSubscriptions() {
        Client client = fixture.client;
        fixture.call("WATCH", "a", "b");
        fixture.call("MULTI");
        fixture.call("SET", "k", "x".repeat(1000));
        // The queued SET: its record and each argument's array with its bytes.
        long queued = 32 + (24 + 3) + (24 + 1) + (24 + 1000);
        assertThat(client.multiMemory()).isEqualTo(queued + 2 * Client.ENTRY_OVERHEAD);
        fixture.call("DISCARD");
        fixture.call("SUBSCRIBE", "c", "d");
        client.reply().clear();
        assertThat(client.memoryUsage()).isEqualTo(Client.CLIENT_OVERHEAD + 2 * Client.ENTRY_OVERHEAD);
    }

    @Test
    void nothingIsMeasuredWhileOff() {
        client(1 << 20);
        assertThat(eviction.enabled()).isFalse();
        assertThat(eviction.total()).isZero();
    }

    @Test
    void lowerLimitEvictsTheLargestClientsFirstUntilBelowIt() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        limit(1L << 30);
        protect(fixture.client);
        // Three clients of each size, created in random order; each size at least twice the last.
        long[] sizes = {100_000, 1_000_000, 3_000_000};
        List<Sized> clients = new ArrayList<>();
        List<Long> order = new ArrayList<>();
        for (long size : sizes) {
            order.addAll(List.of(size, size, size));
        }
        while (!order.isEmpty()) {
            clients.add(client(order.remove(random.nextInt(order.size()))));
        }
        long total = eviction.total();
        long perBiggest = 3_000_000 + Client.CLIENT_OVERHEAD;

        limit(total - 3 * perBiggest + 1);

        for (Sized sized : clients) {
            assertThat(sized.connection.closed).as("evicted: " + sized.connection.queryBytes)
                    .isEqualTo(sized.connection.queryBytes == 3_000_000);
        }
        assertThat(eviction.total()).isEqualTo(total - 3 * perBiggest);
        assertThat(eviction.evictedClients()).isEqualTo(3);
        assertThat(fixture.call("INFO", "stats")).contains("evicted_clients:3\r\n");
    }

    @Test
    void withinABucketTheClientThatEnteredItFirstGoesFirst() {
        limit(1L << 30);
        Sized first = client(200_000);
        Sized second = client(210_000);

        limit(eviction.total() - 1);

        assertThat(first.connection.closed).isTrue();
        assertThat(second.connection.closed).isFalse();
    }

    @Test
    void aClientWithNoEvictCountsButStaysWhileOthersGo() {
        limit(1_000_000);
        protect(fixture.client);
        Sized protectedOne = client(0);
        protect(protectedOne.client);
        protectedOne.connection.queryBytes = 900_000;
        eviction.measure(protectedOne.client);
        Sized other = client(150_000);

        eviction.evict();

        assertThat(other.connection.closed).isTrue();
        assertThat(protectedOne.connection.closed).isFalse();
        assertThat(eviction.total()).isGreaterThan(900_000);

        protectedOne.connection.queryBytes = 2_000_000;
        eviction.measure(protectedOne.client);
        eviction.evict();
        assertThat(protectedOne.connection.closed).isFalse();

        fixture.callAs(protectedOne.client, "CLIENT", "NO-EVICT", "off");
        eviction.measure(protectedOne.client);
        eviction.evict();
        assertThat(protectedOne.connection.closed).isTrue();
        assertThat(eviction.evictedClients()).isEqualTo(2);
    }

    @Test
    void aClientThatGrowsPastTheLimitIsEvictedWhenMeasured() {
        limit(1_000_000);
        Sized growing = client(10_000);
        eviction.evict();
        assertThat(growing.connection.closed).isFalse();

        growing.connection.queryBytes = 1_000_000;
        eviction.measure(growing.client);
        eviction.evict();

        assertThat(growing.connection.closed).isTrue();
        assertThat(eviction.total()).isLessThan(1_000_000);
    }

    @Test
    void aPercentageFollowsMaxmemory() {
        config("maxmemory-clients", "10%");
        assertThat(eviction.enabled()).isFalse();
        Sized client = client(300_000);
        config("maxmemory", "4mb");
        assertThat(eviction.enabled()).isTrue();
        assertThat(client.connection.closed).isFalse();

        config("maxmemory", "2mb");

        assertThat(client.connection.closed).isTrue();
    }

    @Test
    void turnedOffEveryClientIsForgotten() {
        limit(10_000_000);
        client(500_000);
        assertThat(eviction.total()).isGreaterThan(500_000);

        limit(0);

        assertThat(eviction.total()).isZero();
    }
}
