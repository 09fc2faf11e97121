#!/usr/bin/env bash
# Script throughput: redis-benchmark -c 50 of EVAL "return redis.call('SET', KEYS[1], ARGV[1])"
# over random keys and of EVALSHA of "return redis.call('INCR', KEYS[1])" on one counter, at
# pipeline 1 and 16, kvd started with the README's command against redis-server, a fresh server
# each, in alternating rounds. Each server first runs the benchmarks once unmeasured (the JIT's
# warm-up; Redis needs none).
# Usage: eval_throughput.sh [rounds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
SET_SCRIPT="return redis.call('SET', KEYS[1], ARGV[1])"
INCR_SCRIPT="return redis.call('INCR', KEYS[1])"

rps() {
    redis-benchmark -p "$1" -c 50 -P "$2" -n "$3" -r 100000 --csv "${@:4}" 2>/dev/null \
        | grep -v '^"test' | awk -F'","' '{print $2}'
}

bench() {
    local port=$1 pipe=$2 n=$3 sha
    sha=$(redis-cli -p "$port" script load "$INCR_SCRIPT")
    echo "EVAL-SET $(rps "$port" "$pipe" "$n" EVAL "$SET_SCRIPT" 1 key:__rand_int__ val)" \
        "EVALSHA-INCR $(rps "$port" "$pipe" "$n" EVALSHA "$sha" 1 counter)"
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        bench $port 16 1000000 >/dev/null
        for pipe in 1 16; do
            redis-cli -p $port flushall >/dev/null
            echo "round $round $server pipeline $pipe: $(bench $port $pipe $(( pipe == 1 ? 200000 : 1000000 )))"
        done
        stop_server $server
    done
done
