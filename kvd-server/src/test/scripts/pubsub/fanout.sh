#!/usr/bin/env bash
# Pub/sub fan-out and pattern matching, kvd (started with the README's command) against
# redis-server, a fresh server each, in alternating rounds:
#   fanout:   one publisher, 1,000 subscribers of one channel, 64-byte messages: messages delivered per
#             second, and the server's CPU time per delivered message (user + system, from /proc: steadier
#             than the rate when something else shares the machine)
#   patterns: 10,000 patterns subscribed, PUBLISH to a channel none matches: one PUBLISH's round trip
# Usage: fanout.sh [rounds] [messages]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
MESSAGES=${2:-5000}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
FANOUT=kvd-server/src/test/scripts/pubsub/FanOut.java

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        pid=$(redis-cli -p $port info server | tr -d '\r' | sed -n 's/^process_id://p')
        # One unmeasured run each (the JIT's warm-up; Redis needs none, and gets the same).
        java $FANOUT fanout $port 1000 $((MESSAGES / 5)) >/dev/null
        ticks=$(awk '{print $14 + $15}' /proc/$pid/stat)
        result=$(java $FANOUT fanout $port 1000 "$MESSAGES")
        ticks=$(( $(awk '{print $14 + $15}' /proc/$pid/stat) - ticks ))
        # A clock tick is 10 ms (USER_HZ 100).
        echo "round $round $server $result server_cpu_ns_per_delivery=$(( ticks * 10000000 / (MESSAGES * 1000) ))"
        echo "round $round $server $(java $FANOUT patterns $port 10000 4000)"
        stop_server $server
    done
done
