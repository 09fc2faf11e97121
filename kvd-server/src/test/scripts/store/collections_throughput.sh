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
. kvd-server/src/test/scripts/lib/servers.sh

bench() {
    redis-benchmark -p "$1" -t "${TESTS:-hset,sadd,spop}" -c 50 -P "$2" -r 100000 -n "$3" --csv 2>/dev/null \
        | grep -v '^"test' | tr -d '"' | cut -d, -f1,2 | tr '\n' ' '
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        if [ "${WARM:-0}" = 1 ]; then
            bench $port 1 300000 >/dev/null
            bench $port 16 3000000 >/dev/null
        fi
        for pipe in 1 16; do
            redis-cli -p $port flushall >/dev/null
            echo "round $round $server pipeline $pipe: $(bench $port $pipe $(( pipe == 1 ? 300000 : 3000000 )))"
        done
        stop_server $server
    done
done
