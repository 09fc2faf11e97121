#!/usr/bin/env bash
# A consumer group's round trip: a stream of 100,000 entries (two 8-byte fields each), one group,
# 10 consumers (a connection and a thread each) looping XREADGROUP GROUP g cN COUNT k STREAMS s >
# then XACK of the ids read until the stream is drained (GroupRoundTrip.java), for COUNT 1 and 100.
# kvd is the plain jar (java -jar kvd-server/target/kvd.jar, no JVM flags) against redis-server, a
# fresh server each, in alternating rounds; each server first does one unmeasured run of both
# counts (the JIT's warm-up; Redis needs none, and gets the same). Prints entries/s end to end and
# the server's CPU time per entry (user + system from /proc, around the consume phase only:
# steadier than the rate when something else shares the machine), then the medians.
# Usage: group_round_trip.sh [rounds] [entries]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
ENTRIES=${2:-100000}
CONSUMERS=10
WORK=$(mktemp -d)
running=
# A failed run stops the server it started.
trap '[ -n "$running" ] && stop_server $running; rm -rf $WORK' EXIT
KVD_JVM_OPTIONS=
. kvd-server/src/test/scripts/lib/servers.sh
CLIENT=kvd-server/src/test/scripts/store/GroupRoundTrip.java

# Fills a new stream and drains it with COUNT $1; sets $rate (entries/s) and $cpu (server ns/entry).
round_trip() {
    redis-cli -p $port del s >/dev/null
    java $CLIENT fill $port $ENTRIES
    local ticks result
    ticks=$(awk '{print $14 + $15}' /proc/$server_pid/stat)
    result=$(java $CLIENT consume $port $CONSUMERS "$1")
    ticks=$(( $(awk '{print $14 + $15}' /proc/$server_pid/stat) - ticks ))
    rate=${result##*entries_per_s=}
    # A clock tick is 10 ms (USER_HZ 100).
    cpu=$(( ticks * 10000000 / ENTRIES ))
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        running=$server
        server_pid=$(redis-cli -p $port info server | tr -d '\r' | sed -n 's/^process_id://p')
        round_trip 100
        round_trip 1
        for count in 1 100; do
            round_trip $count
            echo "round $round $server COUNT $count: $rate entries/s, server CPU $cpu ns/entry"
            echo "$server $count $rate $cpu" >>"$WORK/results"
        done
        stop_server $server
        running=
    done
done
for count in 1 100; do
    for server in kvd redis; do
        echo "median $server COUNT $count:" \
            "$(awk -v s=$server -v c=$count '$1 == s && $2 == c { print $3 }' "$WORK/results" | median) entries/s," \
            "server CPU $(awk -v s=$server -v c=$count '$1 == s && $2 == c { print $4 }' "$WORK/results" | median) ns/entry"
    done
done
