#!/usr/bin/env bash
# BullMQ jobs per second, kvd (started with the README's command) against redis-server, a fresh
# server each, in alternating rounds: JOBS trivial jobs added with addBulk, then processed by one
# Worker with concurrency 50 (kvd-it/src/test/node/bullmq/throughput.js), each phase's jobs per
# second and the server's CPU seconds per 1,000 jobs (user + system of all its threads, from /proc:
# steadier than the rate when something else shares the machine).
# Usage: bullmq_throughput.sh [rounds] [jobs]   (from the repository root after `mvn package` and
# `npm ci` in kvd-it/src/test/node/bullmq)
set -euo pipefail
ROUNDS=${1:-3}
JOBS=${2:-20000}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
THROUGHPUT=kvd-it/src/test/node/bullmq/throughput.js

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        pid=$(redis-cli -p $port info server | tr -d '\r' | sed -n 's/^process_id://p')
        # One unmeasured run each (the JIT's warm-up; Redis needs none, and gets the same).
        node $THROUGHPUT 127.0.0.1:$port "$JOBS" 50 >/dev/null
        echo "round $round $server $(node $THROUGHPUT 127.0.0.1:$port "$JOBS" 50 "$pid")"
        stop_server $server
    done
done
