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
SCRIPT=kvd-server/src/test/scripts/blocking/wakeup.py

setget() {
    redis-benchmark -p "$1" -t set,get -c 50 -P 16 -r 100000 -n 2000000 --csv 2>/dev/null \
        | grep -v '^"test' | tr -d '"' | cut -d, -f1,2 | tr '\n' ' '
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        port=$((25000 + RANDOM % 10000))
        if [ $server = kvd ]; then
            java @config/jvm.options -jar kvd-server/target/kvd.jar config/kvd.conf --port $port --appendonly no \
                --dir "$WORK" --loglevel warning --maxclients 20000 >/dev/null 2>&1 &
            pid=$!
        else
            redis-server --port $port --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log" \
                --maxclients 20000
        fi
        until redis-cli -p $port ping >/dev/null 2>&1; do sleep 0.2; done
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
        if [ $server = kvd ]; then
            kill $pid
            wait $pid 2>/dev/null || true
        else
            redis-cli -p $port shutdown nosave >/dev/null
        fi
    done
done
