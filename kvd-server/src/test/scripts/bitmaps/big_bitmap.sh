#!/usr/bin/env bash
# SETBIT and BITCOUNT on a 128 MB bitmap (SETBIT big 1073741823 1 first), kvd started with the
# README's command against redis-server, a fresh server each, in alternating rounds: SETBITs at
# random offsets within the bitmap from 50 connections, 200,000 at pipeline 1 and 1,000,000 at 16
# (RandomSetbit.java: redis-benchmark's __rand_int__ is zero-padded, which both servers refuse as
# an offset), then 20 BITCOUNTs of the whole bitmap from one connection (redis-benchmark). kvd
# first gets one unmeasured run of each pipeline depth (the JIT's warm-up).
# Prints each round, then the medians. Usage: big_bitmap.sh [rounds]   (from the repository root
# after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
SETBITS=kvd-server/src/test/scripts/bitmaps/RandomSetbit.java

# Requests per second of one redis-benchmark run (its -q line).
rps() {
    redis-benchmark -p $port -q "$@" | tr '\r' '\n' | awk '/requests per second/ { print $(NF-5) }' | tail -1
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        redis-cli -p $port SETBIT big 1073741823 1 >/dev/null
        if [ $server = kvd ]; then
            java $SETBITS $port big 1073741824 50 200000 1 >/dev/null
            java $SETBITS $port big 1073741824 50 1000000 16 >/dev/null
        fi
        p1=$(java $SETBITS $port big 1073741824 50 200000 1)
        p16=$(java $SETBITS $port big 1073741824 50 1000000 16)
        bitcount=$(rps -c 1 -n 20 BITCOUNT big)
        echo "round $round $server: SETBIT P1 $p1 ops/s, SETBIT P16 $p16 ops/s, BITCOUNT $bitcount ops/s"
        echo "$server $p1 $p16 $bitcount" >>"$WORK/results"
        stop_server $server
    done
done
for server in kvd redis; do
    echo "median $server: SETBIT P1 $(awk -v s=$server '$1 == s { print $2 }' "$WORK/results" | median)," \
        "SETBIT P16 $(awk -v s=$server '$1 == s { print $3 }' "$WORK/results" | median)," \
        "BITCOUNT $(awk -v s=$server '$1 == s { print $4 }' "$WORK/results" | median) ops/s"
done
