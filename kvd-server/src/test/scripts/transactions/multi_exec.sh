#!/usr/bin/env bash
# Pipelined MULTI / SET x 10 / EXEC at 50 connections (MultiExec.java), kvd started with the
# README's command against redis-server, a fresh server each, in alternating rounds; each server
# first gets one unmeasured run (the JIT's warm-up; Redis needs none, and gets the same).
# Usage: multi_exec.sh [rounds] [seconds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
SECONDS_EACH=${2:-10}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
PROGRAM=kvd-server/src/test/scripts/transactions/MultiExec.java

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        java $PROGRAM $port 50 16 5 >/dev/null
        echo "round $round $server: $(java $PROGRAM $port 50 16 "$SECONDS_EACH")"
        stop_server $server
    done
done
