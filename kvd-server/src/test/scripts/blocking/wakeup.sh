#!/usr/bin/env bash
# Blocking pops, kvd (started with the README's command) against redis-server, a fresh server
# each, in alternating rounds:
#   the wake-up round trip of a BLPOP served by another client's LPUSH (wakeup.py latency), and
#   SET/GET throughput (redis-benchmark -t set,get -P 16 -c 50) with no blocked client and with
#   10,000 clients blocked in BLPOP with timeouts (wakeup.py idle).
# Usage: wakeup.sh [rounds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh
SCRIPT=kvd-server/src/test/scripts/blocking/wakeup.py

setget() {
    redis-benchmark -p "$1" -t set,get -c 50 -P 16 -r 100000 -n 2000000 --csv 2>/dev/null \
        | grep -v '^"test' | tr -d '"' | cut -d, -f1,2 | tr '\n' ' '
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK" --maxclients 20000
        # Unmeasured runs first (the JIT's warm-up; Redis needs none, and gets the same).
        /usr/bin/python3 $SCRIPT latency $port 2000 >/dev/null
        setget $port >/dev/null
        echo "round $round $server $(/usr/bin/python3 $SCRIPT latency $port 5000)"
        echo "round $round $server no blocked client: $(setget $port)"
        mkfifo "$WORK/hold"
        /usr/bin/python3 $SCRIPT idle $port 10000 < "$WORK/hold" > "$WORK/idle.out" &
        idler=$!
        exec 3> "$WORK/hold"
        until grep -q blocked_clients "$WORK/idle.out" 2>/dev/null; do sleep 0.2; done
        echo "round $round $server 10,000 blocked clients: $(setget $port)"
        exec 3>&-
        wait $idler
        rm "$WORK/hold"
        stop_server $server
    done
done
