#!/usr/bin/env bash
# PFADD and PFCOUNT throughput: redis-benchmark -c 50 -r 100000000 PFADD on one key at pipeline 1
# and 16 (the key turns dense early on, as a real counter does), then PFCOUNT of the union of 10
# dense keys (never cached, so each call merges and estimates). kvd started with the README's
# command against redis-server, a fresh server each, in alternating rounds. Each run prints its
# ops/s and the server's CPU time per request from INFO cpu (the process, and its main thread:
# Redis's only busy one, kvd's event loop), which load on the machine disturbs less than ops/s.
# With WARM=1 each server first runs the same sequence once unmeasured, the DELs included: the
# JIT's warm-up (Redis needs none). A path first taken in a measured run (a DEL, a missing key, a
# sparse HLL) makes the JIT recompile the code around it while that run is timed.
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

# The server's CPU seconds so far: the process's, then its main thread's.
cpu_seconds() {
    redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '
        $1 == "used_cpu_sys" || $1 == "used_cpu_user" { process += $2 }
        $1 == "used_cpu_sys_main_thread" || $1 == "used_cpu_user_main_thread" { main += $2 }
        END { print process, main }'
}

# One benchmark of N requests: its ops/s and the server's CPU microseconds per request.
measure() {
    local requests=$1 before after ops
    shift
    before=$(cpu_seconds)
    ops=$(rps -n "$requests" "$@")
    after=$(cpu_seconds)
    echo "$before $after" | awk -v ops="$ops" -v n="$requests" \
        '{ printf "%s ops/s, %.3f us CPU/request (main thread %.3f)\n", ops, ($3 - $1) * 1e6 / n, ($4 - $2) * 1e6 / n }'
}

# Ten keys of 5000 distinct elements each: dense, with overlapping elements.
fill() {
    for i in $(seq 0 9); do
        echo "PFADD hll:$i $(seq -s ' ' $((i * 1000)) $((i * 1000 + 4999)))"
    done | redis-cli -p "$port" >/dev/null
}

# The measured sequence; "echo" prints each run's figures, "true" discards them (the warm-up).
runs() {
    local report=$1 pipe
    for pipe in 1 16; do
        redis-cli -p $port del hll >/dev/null
        $report "round $round $server PFADD pipeline $pipe: $(measure "$REQUESTS" -P $pipe -r 100000000 PFADD hll __rand_int__)"
    done
    redis-cli -p $port del hll:0 hll:1 hll:2 hll:3 hll:4 hll:5 hll:6 hll:7 hll:8 hll:9 >/dev/null
    fill
    $report "round $round $server PFCOUNT 10 keys pipeline 1: $(measure $((REQUESTS / 100)) PFCOUNT hll:0 hll:1 hll:2 hll:3 hll:4 hll:5 hll:6 hll:7 hll:8 hll:9)"
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        if [ "${WARM:-0}" = 1 ]; then
            runs true
        fi
        runs echo
        stop_server $server
    done
done
