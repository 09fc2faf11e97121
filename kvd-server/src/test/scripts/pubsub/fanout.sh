#!/usr/bin/env bash
# Pub/sub fan-out and pattern matching, kvd (started with the README's command) against
# redis-server, a fresh server each, in alternating rounds:
#   fanout:   one publisher, 1,000 subscribers of one channel, 64-byte messages: messages delivered per second
#   patterns: 10,000 patterns subscribed, PUBLISH to a channel none matches: one PUBLISH's round trip
# Usage: fanout.sh [rounds] [messages]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
MESSAGES=${2:-5000}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
FANOUT=kvd-server/src/test/scripts/pubsub/FanOut.java

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
        # One unmeasured run each (the JIT's warm-up; Redis needs none, and gets the same).
        java $FANOUT fanout $port 1000 $((MESSAGES / 5)) >/dev/null
        echo "round $round $server $(java $FANOUT fanout $port 1000 "$MESSAGES")"
        echo "round $round $server $(java $FANOUT patterns $port 10000 4000)"
        if [ $server = kvd ]; then
            kill $pid
            wait $pid 2>/dev/null || true
        else
            redis-cli -p $port shutdown nosave >/dev/null
        fi
    done
done
