#!/usr/bin/env bash
# Measures an AOF rewrite without fork under load: loads KEYS keys into kvd, then runs
# redis-benchmark twice with the same settings, once alone and once with BGREWRITEAOF started
# a second in, and reports the rewrite's duration (kvd's log line) and the clients' latencies.
# The question: does any command wait longer while 1 M keys are rewritten than without a rewrite?
#
#   kvd-server/src/test/scripts/aof/rewrite_latency.sh [KEYS] [REQUESTS]
#   SERVER=redis kvd-server/src/test/scripts/aof/rewrite_latency.sh [KEYS] [REQUESTS]
#   SHAPE=set kvd-server/src/test/scripts/aof/rewrite_latency.sh [MEMBERS] [REQUESTS]
#
# SERVER=redis runs the same against redis-server (its rewrite forks), for the machine's floor.
# SHAPE=set loads one set of MEMBERS members instead (SADDs of 1000), and the clients SADD and
# SREM random members of twice that range (two redis-benchmarks of 25 connections, REQUESTS/2
# each), so members are added and removed while the rewrite walks the set.
#
# Defaults: 1000000 keys, 2000000 requests (50 connections, pipeline 1, SET and GET at random
# keys of the loaded range). A short check: rewrite_latency.sh 100000 200000.
# Needs kvd-server/target/kvd.jar (mvn -B -q package -DskipTests -pl kvd-server -am),
# redis-cli, redis-benchmark and python3. Run it on a quiet machine (uptime load < 2): on a busy
# one the event loop is descheduled and the latencies measure the machine, not kvd.
set -euo pipefail

KEYS=${1:-1000000}
REQUESTS=${2:-2000000}
ROOT=$(cd "$(dirname "$0")/../../../../.." && pwd)
JAR=${JAR:-$ROOT/kvd-server/target/kvd.jar}
PORT=$((20000 + RANDOM % 12000))
DIR=$(mktemp -d)
trap 'redis-cli -p $PORT shutdown nosave >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT

echo "load: $(uptime)"
if [ "${SERVER:-kvd}" = redis ]; then
    redis-server --port "$PORT" --dir "$DIR" --save '' --appendonly yes --appendfsync everysec \
        --aof-use-rdb-preamble no --auto-aof-rewrite-percentage 0 --logfile "$DIR/server.log" --daemonize yes
else
    java @"$ROOT/config/jvm.options" -jar "$JAR" --port "$PORT" --dir "$DIR" --appendonly yes --appendfsync everysec \
        --auto-aof-rewrite-percentage 0 > "$DIR/server.log" 2>&1 &
fi
for _ in $(seq 1 300); do
    redis-cli -p "$PORT" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
done

python3 - "$KEYS" "${SHAPE:-keys}" <<'PY' | redis-cli -p "$PORT" --pipe > /dev/null
import sys
out = sys.stdout.buffer
n = int(sys.argv[1])
if sys.argv[2] == "set":
    for batch in range(0, n, 1000):
        members = [b"m:%012d" % i for i in range(batch, min(n, batch + 1000))]
        out.write(b"*%d\r\n$4\r\nSADD\r\n$3\r\nbig\r\n" % (len(members) + 2))
        out.write(b"".join(b"$%d\r\n%s\r\n" % (len(m), m) for m in members))
else:
    for i in range(n):
        k = b"key:%012d" % i
        out.write(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$16\r\n%016d\r\n" % (len(k), k, i))
PY
echo "loaded: $(redis-cli -p "$PORT" dbsize) keys ($(redis-cli -p "$PORT" scard big) set members)," \
    "AOF $(redis-cli -p "$PORT" info persistence | grep -o 'aof_current_size:[0-9]*' | cut -d: -f2) bytes"

bench() {
    # -r draws __rand_int__ and keys as 000000000000..; the loaded names are %012d, so they match.
    if [ "${SHAPE:-keys}" = set ]; then
        redis-benchmark -p "$PORT" -c 25 -P 1 -n $((REQUESTS / 2)) -r $((2 * KEYS)) --csv SADD big 'm:__rand_int__' 2>/dev/null &
        redis-benchmark -p "$PORT" -c 25 -P 1 -n $((REQUESTS / 2)) -r $((2 * KEYS)) --csv SREM big 'm:__rand_int__' 2>/dev/null
        wait $!
    else
        redis-benchmark -p "$PORT" -t set,get -c 50 -P 1 -d 16 -n "$REQUESTS" -r "$KEYS" --csv 2>/dev/null
    fi
}

await_rewrite() {
    until redis-cli -p "$PORT" info persistence | grep -q "aof_rewrite_in_progress:0"; do sleep 0.05; done
}

redis-cli -p "$PORT" bgrewriteaof > /dev/null   # warm-up: the rewrite's code paths get compiled
await_rewrite

echo "--- without a rewrite"
bench
echo "--- with BGREWRITEAOF one second in"
( sleep 1; redis-cli -p "$PORT" bgrewriteaof ) &
STARTER=$!
bench
wait "$STARTER"
await_rewrite
grep -i "rewrite.*finished\|rewrite terminated" "$DIR/server.log" | tail -1 | sed 's/.*AofRewrite - /kvd: /'
redis-cli -p "$PORT" info persistence | grep -E "aof_rewrites|aof_last_bgrewrite_status|aof_current_size|aof_base_size"
