#!/usr/bin/env bash
# PFADD and PFCOUNT throughput: redis-benchmark -c 50 -r 100000000 PFADD on one key at pipeline 1
# and 16 (the key turns dense early on, as a real counter does), then PFCOUNT of the union of 10
# dense keys (never cached, so each call merges and estimates). kvd started with the README's
# command against redis-server, a fresh server each, in alternating rounds; ops/s printed per run.
# With WARM=1 each server first runs the PFADDs once unmeasured (the JIT's warm-up; Redis needs none).
# Usage: [WARM=1] pf_throughput.sh [rounds] [requests]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
REQUESTS=${2:-1000000}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh

# redis-benchmark's -q summary of a command given on its command line: the requests per second.
rps() {
    redis-benchmark -p "$port" -c 50 -q "$@" 2>/dev/null | tr '\r' '\n' | grep -o '[0-9.]* requests per second' \
        | tail -1 | cut -d' ' -f1
}

# Ten keys of 5000 distinct elements each: dense, with overlapping elements.
fill() {
    for i in $(seq 0 9); do
        echo "PFADD hll:$i $(seq -s ' ' $((i * 1000)) $((i * 1000 + 4999)))"
    done | redis-cli -p "$port" >/dev/null
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        if [ "${WARM:-0}" = 1 ]; then
            rps -P 16 -n "$REQUESTS" -r 100000000 PFADD hll __rand_int__ >/dev/null
            rps -n $((REQUESTS / 5)) -r 100000000 PFADD hll __rand_int__ >/dev/null
        fi
        for pipe in 1 16; do
            redis-cli -p $port del hll >/dev/null
            echo "round $round $server PFADD pipeline $pipe: $(rps -P $pipe -n "$REQUESTS" -r 100000000 PFADD hll __rand_int__)"
        done
        fill
        echo "round $round $server PFCOUNT 10 keys pipeline 1: $(rps -n $((REQUESTS / 100)) PFCOUNT hll:0 hll:1 hll:2 hll:3 hll:4 hll:5 hll:6 hll:7 hll:8 hll:9)"
        stop_server $server
    done
done
