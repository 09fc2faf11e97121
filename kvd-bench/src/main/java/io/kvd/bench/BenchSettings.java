package io.kvd.bench;

import java.time.Duration;
import java.util.List;

/**
 * One run's parameters, validated.
 *
 * @param servers     keys are sharded over these by key number modulo their count; each client connects to all
 * @param cluster     a Redis Cluster node (then also the one element of {@code servers}), or null; the masters of its
 *                    slot map are the servers, and each key goes to the master of its slot
 * @param connections closed-loop clients; each has one connection per server
 * @param pipeline    requests each client keeps in flight, over all its servers
 * @param requests    how many requests in all, {@link #UNLIMITED} when only the duration bounds the run
 * @param duration    how long to keep issuing requests, null when only the count bounds the run
 * @param dataSize    the bytes of each SET value
 * @param keyRange    keys are drawn uniformly from {@code [0, keyRange)}
 * @param verify      SET values carry their key's digits and GET replies are checked against them
 * @param warmup      an untimed run of the same load before the measured one, null for none
 * @param serverPids  the servers' process ids for CPU accounting; empty to ask each server's INFO
 */
record BenchSettings(List<ServerAddress> servers, int connections, int pipeline, long requests, Duration duration,
                     int threads, Workload workload, int dataSize, long keyRange, boolean verify, Duration warmup,
                     List<Long> serverPids, ServerAddress cluster) {
    static final long UNLIMITED = Long.MAX_VALUE;

    BenchSettings {
        servers = List.copyOf(servers);
        serverPids = List.copyOf(serverPids);
    }

    /** A run against {@code servers} themselves, not a cluster. */
    BenchSettings(List<ServerAddress> servers, int connections, int pipeline, long requests, Duration duration,
                  int threads, Workload workload, int dataSize, long keyRange, boolean verify, Duration warmup,
                  List<Long> serverPids) {
        this(servers, connections, pipeline, requests, duration, threads, workload, dataSize, keyRange, verify, warmup,
                serverPids, null);
    }

    /** The requests in flight when every client's window is full. */
    long inFlightLimit() {
        return (long) connections * pipeline;
    }
}
