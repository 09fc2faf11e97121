#!/usr/bin/env bash
# Largest single-command latency while the keyspace grows to millions of keys, kvd against
# redis-server in the same run. redis-benchmark (a C client, so no client GC in the figures) SETs
# random keys of [0, RANGE) with 16-byte values, 50 connections, pipeline 1: 10,000,000 requests
# over 5,000,000 keys leave ~4.3 M distinct keys, so the table doubles up to 8 M buckets.
# kvd runs with the given JVM options (default: config/jvm.options); its longest collector pauses
# while the benchmark ran come from -Xlog:gc.
# Usage: insert_latency.sh [REQUESTS=10000000] [RANGE=5000000] [JVM options...]
#        (from the repository root after `mvn -B -q package -DskipTests`)
set -euo pipefail
REQUESTS=${1:-10000000}
RANGE=${2:-5000000}
shift 2 || shift $#
JVM_OPTIONS=("$@")
[ ${#JVM_OPTIONS[@]} -eq 0 ] && JVM_OPTIONS=(@config/jvm.options)
WORK=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KVD_PID=
cleanup() {
    [ -n "$KVD_PID" ] && kill "$KVD_PID" 2>/dev/null || true
    redis-cli -p $PORT shutdown nosave >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

bench() {
    echo "$1 (load average $(cut -d' ' -f1 /proc/loadavg))"
    redis-benchmark -p $PORT -t set -r "$RANGE" -n "$REQUESTS" -c 50 -d 16 2>&1 | tr '\r' '\n' > "$WORK/bench.txt"
    # The first line of the percentile distribution at or past 99.9 %.
    local p999
    p999=$(awk '/^ *[0-9.]+% <=/ { if ($1 + 0 >= 99.9) { print $3; exit } }' "$WORK/bench.txt")
    grep -o 'throughput summary: .*' "$WORK/bench.txt"
    grep -A2 'latency summary' "$WORK/bench.txt" | tail -2 | sed 's/max$/max    p99.9/; 2s/$/    '"$p999"'/'
    echo "keys: $(redis-cli -p $PORT dbsize)"
}

java "${JVM_OPTIONS[@]}" -Xlog:gc:file="$WORK/gc.log" -jar kvd-server/target/kvd.jar --port $PORT \
    --appendonly no --dir "$WORK" --loglevel warning >/dev/null 2>&1 &
KVD_PID=$!
until redis-cli -p $PORT ping >/dev/null 2>&1; do sleep 0.2; done
LOGGED_BEFORE=$(wc -l < "$WORK/gc.log")
bench "kvd ${JVM_OPTIONS[*]}"
echo "longest collector pauses during the benchmark: $(tail -n +$((LOGGED_BEFORE + 1)) "$WORK/gc.log" \
    | grep Pause | grep -o '[0-9.]*ms$' | sort -n | tail -3 | tr '\n' ' ')"
kill $KVD_PID
wait $KVD_PID 2>/dev/null || true
KVD_PID=

redis-server --port $PORT --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log"
until redis-cli -p $PORT ping >/dev/null 2>&1; do sleep 0.2; done
bench redis-server
