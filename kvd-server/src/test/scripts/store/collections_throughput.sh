#!/usr/bin/env bash
# HSET, SADD and SPOP throughput (redis-benchmark -t hset,sadd,spop -c 50 -r 100000, pipeline 1
# and 16; TESTS=zadd,zpopmin for sorted sets), kvd started with the README's command against redis-server, a fresh server each, in
# alternating rounds. With WARM=1 each server first runs the same benchmark once unmeasured (the
# JIT's warm-up; Redis needs none).
# Usage: [WARM=1] [TESTS=a,b] collections_throughput.sh [rounds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT

bench() {
    redis-benchmark -p "$1" -t "${TESTS:-hset,sadd,spop}" -c 50 -P "$2" -r 100000 -n "$3" --csv 2>/dev/null \
        | grep -v '^"test' | tr -d '"' | cut -d, -f1,2 | tr '\n' ' '
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        port=$((25000 + RANDOM % 10000))
        if [ $server = kvd ]; then
            java @config/jvm.options -jar kvd-server/target/kvd.jar config/kvd.conf --port $port --appendonly no \
                --dir "$WORK" --loglevel warning >/dev/null 2>&1 &
            pid=$!
        else
            redis-server --port $port --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log"
        fi
        until redis-cli -p $port ping >/dev/null 2>&1; do sleep 0.2; done
        if [ "${WARM:-0}" = 1 ]; then
            bench $port 1 300000 >/dev/null
            bench $port 16 3000000 >/dev/null
        fi
        for pipe in 1 16; do
            redis-cli -p $port flushall >/dev/null
            echo "round $round $server pipeline $pipe: $(bench $port $pipe $(( pipe == 1 ? 300000 : 3000000 )))"
        done
        if [ $server = kvd ]; then
            kill $pid
            wait $pid 2>/dev/null || true
        else
            redis-cli -p $port shutdown nosave >/dev/null
        fi
    done
done
