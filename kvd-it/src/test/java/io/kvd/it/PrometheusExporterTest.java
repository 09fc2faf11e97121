package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisExporterProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Monitoring works unchanged: Debian's prometheus-redis-exporter (redis_exporter 1.45) scraping
 * kvd reports the metric families it reports for redis-server 7.0.15 after the same workload,
 * but for those named in {@link #ABSENT_FROM_KVD}, each with why (docs/compatibility.md says the
 * same). Each server gets its own exporter; each is scraped once.
 */
@ExtendWith(ServerLogsOnFailure.class)
class PrometheusExporterTest {
    private static final String MEMORY_ELSEWHERE = "INFO memory has no used_memory_scripts, and kvd no active defragmentation";
    private static final String NO_DEFRAG = "kvd has no active defragmentation: the store compacts its pages as "
            + "entries are freed and the collector moves the rest";
    private static final String NO_FORK = "kvd never forks: its AOF rewrite takes its snapshot in a thread";
    private static final String NO_MODULES = "kvd loads no modules and never forks";

    /** The families redis-server yields that kvd may lack, and why. */
    private static final Map<String, String> ABSENT_FROM_KVD = new LinkedHashMap<>();

    static {
        for (String family : List.of("redis_memory_used_scripts_bytes", "redis_active_defrag_running")) {
            ABSENT_FROM_KVD.put(family, MEMORY_ELSEWHERE);
        }
        for (String family : List.of("redis_defrag_hits", "redis_defrag_misses", "redis_defrag_key_hits",
                "redis_defrag_key_misses")) {
            ABSENT_FROM_KVD.put(family, NO_DEFRAG);
        }
        ABSENT_FROM_KVD.put("redis_aof_last_cow_size_bytes", NO_FORK);
        for (String family : List.of("redis_module_fork_in_progress", "redis_module_fork_last_cow_size")) {
            ABSENT_FROM_KVD.put(family, NO_MODULES);
        }
        ABSENT_FROM_KVD.put("redis_slave_expires_tracked_keys", "kvd's replicas track no keys they expired themselves");
        ABSENT_FROM_KVD.put("redis_dump_payload_sanitizations", "kvd checks every DUMP payload fully as it reads it; "
                + "there is no sanitize-dump-payload mode to count");
    }

    private static RedisServerProcess redis;
    private static KvdProcess kvd;
    private static Map<String, String> redisMetrics;
    private static Map<String, String> kvdMetrics;

    @BeforeAll
    static void runTheWorkloadOnBothAndScrapeEach() {
        Tools.require(RedisExporterProcess.PROGRAM, "apt-get install prometheus-redis-exporter");
        redis = RedisServerProcess.start();
        kvd = KvdProcess.start();
        workload(redis.port());
        workload(kvd.port());
        redisMetrics = scrape(redis.port());
        kvdMetrics = scrape(kvd.port());
    }

    @AfterAll
    static void stopServers() {
        if (kvd != null) {
            kvd.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void kvdYieldsEveryFamilyRedisServerDoesButThoseThatCannotApply() {
        Set<String> missing = families(redisMetrics);
        missing.removeAll(families(kvdMetrics));
        missing.removeAll(ABSENT_FROM_KVD.keySet());
        assertThat(missing).as("families redis-server yields and kvd does not").isEmpty();
    }

    @Test
    void everyFamilyExcusedIsOneRedisServerYields() {
        assertThat(families(redisMetrics)).containsAll(ABSENT_FROM_KVD.keySet());
    }

    @Test
    void everyFamilyExcusedIsStillAbsentFromKvd() {
        assertThat(families(kvdMetrics)).as("families excused that kvd now yields")
                .doesNotContainAnyElementsOf(ABSENT_FROM_KVD.keySet());
    }

    @Test
    void theExporterReachesKvdWithoutAScrapeError() {
        assertThat(kvdMetrics).containsEntry("redis_up", "1").containsEntry("redis_exporter_last_scrape_error{err=\"\"}", "0");
    }

    @Test
    void keyCountsAgreeWithRedisServers() {
        for (String series : List.of("redis_db_keys{db=\"db0\"}", "redis_db_keys{db=\"db1\"}",
                "redis_db_keys_expiring{db=\"db0\"}", "redis_db_keys_expiring{db=\"db1\"}")) {
            assertThat(kvdMetrics.get(series)).as(series).isNotNull().isEqualTo(redisMetrics.get(series));
        }
        assertThat(kvdMetrics).containsEntry("redis_db_keys{db=\"db0\"}", "7").containsEntry("redis_db_keys{db=\"db1\"}", "2");
    }

    @Test
    void countersOfTheWorkloadAgreeWithRedisServers() {
        for (String series : List.of("redis_commands_total{cmd=\"set\"}", "redis_commands_total{cmd=\"get\"}",
                "redis_keyspace_hits_total", "redis_keyspace_misses_total", "redis_errors_total{err=\"WRONGTYPE\"}")) {
            assertThat(kvdMetrics.get(series)).as(series).isNotNull().isEqualTo(redisMetrics.get(series));
        }
        assertThat(Long.parseLong(kvdMetrics.get("redis_slowlog_length"))).isPositive();
    }

    @Test
    void kvdCountsItsClientsAndTraffic() {
        assertThat(Double.parseDouble(kvdMetrics.get("redis_connected_clients"))).isPositive();
        assertThat(Double.parseDouble(kvdMetrics.get("redis_net_input_bytes_total"))).isPositive();
        assertThat(Double.parseDouble(kvdMetrics.get("redis_net_output_bytes_total"))).isPositive();
    }

    /**
     * Keys of each type in databases 0 and 1, some with a TTL; reads that hit and miss, an error
     * (WRONGTYPE), and every command logged as slow (a threshold of 0 makes that certain).
     */
    private static void workload(int port) {
        try (RespConnection connection = RespConnection.open(port)) {
            connection.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
            connection.call("SET", "string", "v");
            connection.call("SET", "expiring", "v", "EX", "1000");
            connection.call("HSET", "hash", "f", "v");
            connection.call("RPUSH", "list", "a", "b");
            connection.call("SADD", "set", "a");
            connection.call("ZADD", "zset", "1", "a");
            connection.call("XADD", "stream", "*", "f", "v");
            connection.call("GET", "string");
            connection.call("GET", "missing");
            connection.call("INCR", "hash");
            connection.call("SELECT", "1");
            connection.call("SET", "other", "v", "PX", "1000000");
            connection.call("SADD", "set", "b");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> scrape(int serverPort) {
        try (RedisExporterProcess exporter = RedisExporterProcess.start(serverPort)) {
            return samples(exporter.metrics());
        }
    }

    /** Prometheus's text format: each sample line's series (name and labels) and value. */
    private static Map<String, String> samples(String text) {
        Map<String, String> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), line.substring(space + 1));
        }
        return samples;
    }

    /** The redis_ families among the samples: the exporter's go_, process_ and promhttp_ ones say nothing of the server. */
    private static Set<String> families(Map<String, String> samples) {
        Set<String> families = new TreeSet<>();
        for (String series : samples.keySet()) {
            if (series.startsWith("redis_")) {
                int labels = series.indexOf('{');
                families.add(labels < 0 ? series : series.substring(0, labels));
            }
        }
        return families;
    }
}
