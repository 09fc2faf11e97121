package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.Redisson;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RBucket;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RDeque;
import org.redisson.api.RLock;
import org.redisson.api.RMapCache;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RSemaphore;
import org.redisson.api.RTopic;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redisson 3.52 through kvd: its locks, semaphores, latches, rate limiter and map cache are Lua
 * scripts sent with EVAL/EVALSHA, and its waiters wake on pub/sub messages. Every scenario runs
 * against kvd and against redis-server, so the expectations are Redis's own.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedissonTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /**
     * Leases and TTLs that the tests wait out by polling, never by sleeping; long enough that a
     * busy machine does not let them expire before the assertions that they are still there.
     */
    private static final long SHORT_MS = 1_000;

    enum Server { KVD, REDIS_SERVER }

    private static final Map<Server, AutoCloseable> PROCESSES = new EnumMap<>(Server.class);
    private static final Map<Server, RedissonClient> CLIENTS = new EnumMap<>(Server.class);
    /** Another application: its own connections, its own pub/sub connection, its own client id. */
    private static final Map<Server, RedissonClient> SECOND_CLIENTS = new EnumMap<>(Server.class);
    private static final Map<Server, Integer> PORTS = new EnumMap<>(Server.class);
    /** Lock owners are (client, thread): a second thread plays the competing client. */
    private static final ExecutorService OTHER_THREAD = Executors.newSingleThreadExecutor();

    /** The server's client, started on first use; redis-server's run is skipped where it is not installed. */
    private static synchronized RedissonClient redisson(Server server) {
        RedissonClient client = CLIENTS.get(server);
        if (client != null) {
            return client;
        }
        int port;
        if (server == Server.KVD) {
            KvdProcess kvd = KvdProcess.start();
            PROCESSES.put(server, kvd);
            port = kvd.port();
        } else {
            RedisServerProcess redis = RedisServerProcess.start();
            PROCESSES.put(server, redis);
            port = redis.port();
        }
        PORTS.put(server, port);
        client = connect(port);
        CLIENTS.put(server, client);
        return client;
    }

    private static synchronized RedissonClient secondRedisson(Server server) {
        int port = PORTS.get(server);
        return SECOND_CLIENTS.computeIfAbsent(server, s -> connect(port));
    }

    private static RedissonClient connect(int port) {
        Config config = new Config().setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port)
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2);
        return Redisson.create(config);
    }

    @AfterAll
    static void shutdown() throws Exception {
        OTHER_THREAD.shutdownNow();
        try {
            SECOND_CLIENTS.values().forEach(RedissonClient::shutdown);
            CLIENTS.values().forEach(RedissonClient::shutdown);
        } finally {
            for (AutoCloseable process : PROCESSES.values()) {
                process.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void lockIsReentrantAndCountsHolds(Server server) {
        RLock lock = redisson(server).getLock("lock:reentrant");
        lock.lock();
        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(onOtherThread(lock::isHeldByCurrentThread)).isFalse();

        lock.unlock();
        assertThat(lock.getHoldCount()).isEqualTo(1);
        assertThat(lock.isLocked()).isTrue();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void tryLockWithLeaseIsReleasedWhenTheLeaseExpires(Server server) throws InterruptedException {
        RLock lock = redisson(server).getLock("lock:lease");
        assertThat(lock.tryLock(1, SHORT_MS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lock.remainTimeToLive()).isBetween(1L, SHORT_MS);
        assertThat(onOtherThread(() -> tryLock(lock, 0))).isFalse();

        Poll.until(TIMEOUT, "the lease to expire", () -> lock.isLocked() ? null : true);
        assertThat(onOtherThread(() -> tryLock(lock, 0) && unlock(lock))).isTrue();
    }

    /** The waiter subscribes to the lock's channel and wakes on the message unlock publishes. */
    @ParameterizedTest
    @EnumSource(Server.class)
    void waiterInAnotherClientGetsTheLockWhenItIsUnlocked(Server server) {
        RLock lock = redisson(server).getLock("lock:contended");
        RLock otherClientsLock = secondRedisson(server).getLock("lock:contended");
        lock.lock();
        assertThat(onOtherThread(() -> tryLock(otherClientsLock, 0))).isFalse();
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> tryLock(otherClientsLock, TIMEOUT.toMillis())
                && otherClientsLock.isHeldByCurrentThread() && unlock(otherClientsLock), OTHER_THREAD);

        Poll.until(TIMEOUT, "the waiter to subscribe", () ->
                subscribers(server, "redisson_lock__channel:{lock:contended}") == 1 ? true : null);
        assertThat(waiter).isNotDone();
        lock.unlock();
        assertThat(waiter.orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join()).isTrue();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void forceUnlockReleasesALockHeldByAnotherThread(Server server) {
        RLock lock = redisson(server).getLock("lock:forced");
        assertThat(onOtherThread(() -> tryLock(lock, 0))).isTrue();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);

        assertThat(lock.forceUnlock()).isTrue();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.forceUnlock()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void fairLockHandsOverToTheQueuedWaiter(Server server) {
        RLock lock = redisson(server).getFairLock("lock:fair");
        lock.lock();
        assertThat(onOtherThread(() -> tryLock(lock, 0))).isFalse();
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(
                () -> tryLock(lock, TIMEOUT.toMillis()) && unlock(lock), OTHER_THREAD);

        Poll.until(TIMEOUT, "the waiter to queue", () ->
                zcard(redisson(server), "redisson_lock_timeout:{lock:fair}") == 1 ? true : null);
        assertThat(waiter).isNotDone();
        lock.unlock();
        assertThat(waiter.orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join()).isTrue();
        assertThat(lock.isLocked()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void readLocksAreSharedAndExcludeTheWriteLock(Server server) {
        RReadWriteLock readWrite = redisson(server).getReadWriteLock("lock:rw");
        readWrite.readLock().lock();
        assertThat(onOtherThread(() -> tryLock(readWrite.readLock(), 0) && unlock(readWrite.readLock()))).isTrue();
        assertThat(onOtherThread(() -> tryLock(readWrite.writeLock(), 0))).isFalse();
        readWrite.readLock().unlock();

        assertThat(onOtherThread(() -> tryLock(readWrite.writeLock(), 0))).isTrue();
        assertThat(readWrite.writeLock().isLocked()).isTrue();
        assertThat(tryLock(readWrite.readLock(), 0)).isFalse();
        assertThat(onOtherThread(() -> unlock(readWrite.writeLock()))).isTrue();
        assertThat(tryLock(readWrite.writeLock(), 0)).isTrue();
        readWrite.writeLock().unlock();
        assertThat(readWrite.writeLock().isLocked()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void semaphoreCountsPermits(Server server) throws InterruptedException {
        RSemaphore semaphore = redisson(server).getSemaphore("semaphore:plain");
        assertThat(semaphore.trySetPermits(2)).isTrue();
        assertThat(semaphore.trySetPermits(5)).isFalse();
        semaphore.acquire();
        assertThat(semaphore.tryAcquire()).isTrue();
        assertThat(semaphore.tryAcquire()).isFalse();
        assertThat(semaphore.availablePermits()).isZero();
        semaphore.release();
        assertThat(semaphore.availablePermits()).isEqualTo(1);
        assertThat(semaphore.tryAcquire(2)).isFalse();
        semaphore.release(3);
        assertThat(semaphore.tryAcquire(4, Duration.ofMillis(1))).isTrue();
        assertThat(semaphore.availablePermits()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void permitExpirableSemaphoreReclaimsAnExpiredPermit(Server server) throws InterruptedException {
        RPermitExpirableSemaphore semaphore = redisson(server).getPermitExpirableSemaphore("semaphore:expirable");
        assertThat(semaphore.trySetPermits(1)).isTrue();
        String permit = semaphore.acquire();
        assertThat(permit).isNotBlank();
        assertThat(semaphore.tryAcquire()).isNull();
        assertThat(semaphore.availablePermits()).isZero();
        semaphore.release(permit);
        assertThat(semaphore.availablePermits()).isEqualTo(1);

        String leased = semaphore.tryAcquire(0, SHORT_MS, TimeUnit.MILLISECONDS);
        assertThat(leased).isNotNull();
        assertThat(semaphore.tryAcquire()).isNull();
        String reclaimed = Poll.until(TIMEOUT, "the leased permit to expire", semaphore::tryAcquire);
        assertThat(reclaimed).isNotEqualTo(leased);
        assertThatThrownBy(() -> semaphore.release(leased)).rootCause()
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(leased);
        semaphore.release(reclaimed);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void countDownLatchOpensAtZero(Server server) throws InterruptedException {
        RCountDownLatch latch = redisson(server).getCountDownLatch("latch");
        assertThat(latch.trySetCount(2)).isTrue();
        assertThat(latch.trySetCount(3)).isFalse();
        assertThat(latch.await(1, TimeUnit.MILLISECONDS)).isFalse();
        latch.countDown();
        assertThat(latch.getCount()).isEqualTo(1);
        CompletableFuture.runAsync(latch::countDown, OTHER_THREAD);
        assertThat(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(latch.getCount()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void rateLimiterGrantsTheRateWithinTheWindow(Server server) {
        RRateLimiter limiter = redisson(server).getRateLimiter("limiter");
        assertThat(limiter.trySetRate(RateType.OVERALL, 3, Duration.ofMinutes(1))).isTrue();
        assertThat(limiter.trySetRate(RateType.OVERALL, 10, Duration.ofMinutes(1))).isFalse();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire(2)).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        assertThat(limiter.availablePermits()).isZero();
        assertThat(limiter.getConfig().getRate()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void rateLimiterGrantsPermitsAgainInTheNextWindow(Server server) {
        RRateLimiter limiter = redisson(server).getRateLimiter("limiter:short");
        assertThat(limiter.trySetRate(RateType.OVERALL, 2, Duration.ofMillis(SHORT_MS))).isTrue();
        assertThat(limiter.tryAcquire(2)).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        Poll.until(TIMEOUT, "the next window", () -> limiter.tryAcquire(2) ? true : null);
        assertThat(limiter.tryAcquire()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void mapCacheEntryExpiresAfterItsTtl(Server server) {
        RMapCache<String, String> cache = redisson(server).getMapCache("mapcache");
        assertThat(cache.put("short", "1", SHORT_MS, TimeUnit.MILLISECONDS)).isNull();
        assertThat(cache.put("forever", "2")).isNull();
        assertThat(cache.put("forever", "3")).isEqualTo("2");
        assertThat(cache.putIfAbsent("forever", "4")).isEqualTo("3");
        assertThat(cache.get("short")).isEqualTo("1");
        assertThat(cache.remainTimeToLive("short")).isBetween(1L, SHORT_MS);
        assertThat(cache.remainTimeToLive("forever")).isEqualTo(-1);

        Poll.until(TIMEOUT, "the entry to expire", () -> cache.get("short") == null ? true : null);
        assertThat(cache.containsKey("short")).isFalse();
        assertThat(cache.get("forever")).isEqualTo("3");
        assertThat(cache.fastRemove("forever")).isEqualTo(1);
        assertThat(cache.readAllKeySet()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void bucketCompareAndSetAndGetAndSet(Server server) {
        RBucket<String> bucket = redisson(server).getBucket("bucket");
        assertThat(bucket.compareAndSet(null, "a")).isTrue();
        assertThat(bucket.compareAndSet(null, "b")).isFalse();
        assertThat(bucket.compareAndSet("a", "b")).isTrue();
        assertThat(bucket.compareAndSet("a", "c")).isFalse();
        assertThat(bucket.getAndSet("d")).isEqualTo("b");
        assertThat(bucket.get()).isEqualTo("d");
        assertThat(bucket.compareAndSet("d", null)).isTrue();
        assertThat(bucket.isExists()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void atomicLongIncrementsAndComparesAndSets(Server server) {
        RAtomicLong counter = redisson(server).getAtomicLong("counter");
        assertThat(counter.incrementAndGet()).isEqualTo(1);
        assertThat(counter.addAndGet(41)).isEqualTo(42);
        assertThat(counter.compareAndSet(41, 0)).isFalse();
        assertThat(counter.compareAndSet(42, 7)).isTrue();
        assertThat(counter.getAndDelete()).isEqualTo(7);
        assertThat(counter.get()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void scoredSortedSetPollsByScoreAndBlocks(Server server) {
        RScoredSortedSet<String> set = redisson(server).getScoredSortedSet("zset");
        assertThat(set.add(2, "b")).isTrue();
        assertThat(set.add(1, "a")).isTrue();
        assertThat(set.addScore("b", 0.5)).isEqualTo(2.5);
        assertThat(set.rank("b")).isEqualTo(1);
        assertThat(set.pollFirst(1, TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(set.pollLast(1, TimeUnit.SECONDS)).isEqualTo("b");
        assertThat(set.pollFirst(50, TimeUnit.MILLISECONDS)).isNull();

        CompletableFuture<String> popped = CompletableFuture.supplyAsync(
                () -> set.pollFirst(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), OTHER_THREAD);
        assertThat(set.add(3, "c")).isTrue();
        assertThat(popped.orTimeout(TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS).join()).isEqualTo("c");
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void dequeAndBlockingQueuePop(Server server) throws InterruptedException {
        RDeque<String> deque = redisson(server).getDeque("deque");
        deque.addFirst("b");
        deque.addFirst("a");
        deque.addLast("c");
        assertThat(deque.peekFirst()).isEqualTo("a");
        assertThat(deque.pollLast()).isEqualTo("c");
        assertThat(deque.readAll()).containsExactly("a", "b");

        RBlockingQueue<String> queue = redisson(server).getBlockingQueue("queue");
        assertThat(queue.poll(50, TimeUnit.MILLISECONDS)).isNull();
        CompletableFuture<String> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return queue.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, OTHER_THREAD);
        assertThat(queue.offer("x")).isTrue();
        assertThat(taken.orTimeout(TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS).join()).isEqualTo("x");
        assertThat(queue.pollLastAndOfferFirstTo("deque")).isNull();
        assertThat(queue.offer("y")).isTrue();
        assertThat(queue.pollLastAndOfferFirstTo("deque")).isEqualTo("y");
        assertThat(deque.readAll()).containsExactly("y", "a", "b");
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void topicDeliversToItsListener(Server server) throws InterruptedException {
        RTopic topic = redisson(server).getTopic("topic");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        int listener = topic.addListener(String.class, (channel, message) -> received.add(channel + ":" + message));
        try {
            assertThat(topic.countSubscribers()).isEqualTo(1);
            assertThat(topic.publish("hello")).isEqualTo(1);
            assertThat(received.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("topic:hello");
        } finally {
            topic.removeListener(listener);
        }
        assertThat(topic.publish("unheard")).isZero();
    }

    private static <T> T onOtherThread(Supplier<T> action) {
        return CompletableFuture.supplyAsync(action, OTHER_THREAD).orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    private static boolean tryLock(RLock lock, long waitMs) {
        try {
            return lock.tryLock(waitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean unlock(RLock lock) {
        lock.unlock();
        return true;
    }

    private static long zcard(RedissonClient client, String key) {
        return client.getScoredSortedSet(key).size();
    }

    /** PUBSUB NUMSUB on a connection of its own, outside Redisson's pools. */
    private static long subscribers(Server server, String channel) {
        try (RespConnection connection = RespConnection.open(PORTS.get(server))) {
            String reply = connection.call("PUBSUB", "NUMSUB", channel);
            return Long.parseLong(reply.substring(reply.lastIndexOf(':') + 1).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
