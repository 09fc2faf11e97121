#!/usr/bin/env bash
# XADD throughput: redis-benchmark -c 50 -n 1000000 "XADD mystream * myfield myvalue" (7.0's
# redis-benchmark has no xadd test) at pipeline 1 and 16, kvd started with the README's command
# against redis-server, a fresh server each round, in alternating rounds. With WARM=1 each server
# first runs the same benchmark once unmeasured (the JIT's warm-up; Redis needs none).
# Usage: [WARM=1] stream_throughput.sh [rounds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh

bench() {
    redis-benchmark -p "$1" -c 50 -P "$2" -n "$3" --csv XADD mystream '*' myfield myvalue 2>/dev/null \
        | grep -v '^"test' | tr -d '"' | cut -d, -f2
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        if [ "${WARM:-0}" = 1 ]; then
            bench $port 16 1000000 >/dev/null
        fi
        for pipe in 1 16; do
            redis-cli -p $port flushall >/dev/null
            echo "round $round $server pipeline $pipe: $(bench $port $pipe 1000000) XADD/s"
        done
        stop_server $server
    done
done
