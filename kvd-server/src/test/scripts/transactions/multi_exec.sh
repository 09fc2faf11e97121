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
PROGRAM=kvd-server/src/test/scripts/transactions/MultiExec.java

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
        java $PROGRAM $port 50 16 5 >/dev/null
        echo "round $round $server: $(java $PROGRAM $port 50 16 "$SECONDS_EACH")"
        if [ $server = kvd ]; then
            kill $pid
            wait $pid 2>/dev/null || true
        else
            redis-cli -p $port shutdown nosave >/dev/null
        fi
    done
done
