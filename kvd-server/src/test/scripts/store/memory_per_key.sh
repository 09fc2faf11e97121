#!/usr/bin/env bash
# Memory per key: N keys of 16 bytes ("key:%012d") with 16-byte values, loaded with redis-cli --pipe
# into kvd and into redis-server in the same run. kvd: marginal resident set (VmRSS after a full GC
# minus after a full GC before the fill, the server fresh; also without the GC after the fill, as top shows it) over N, plus the live heap after the GC. Redis: INFO used_memory and RSS delta.
# Usage: memory_per_key.sh [N] [extra JVM flags...]   (run from the repository root after `mvn package`)
set -euo pipefail
N=${1:-1000000}
shift || true
JVM_FLAGS=("$@")
PORT_KVD=$((20000 + RANDOM % 12000))
PORT_REDIS=$((PORT_KVD + 1))
WORK=$(mktemp -d)
trap 'redis-cli -p $PORT_REDIS shutdown nosave >/dev/null 2>&1 || true; kill $KVD_PID 2>/dev/null || true; rm -rf $WORK' EXIT

python3 - "$N" > "$WORK/fill.resp" <<'PY'
import sys
out = sys.stdout.buffer
for i in range(int(sys.argv[1])):
    key = b"key:%012d" % i
    out.write(b"*3\r\n$3\r\nSET\r\n$16\r\n" + key + b"\r\n$16\r\n" + b"v" * 16 + b"\r\n")
PY

rss_kb() { awk '/VmRSS/ {print $2}' /proc/$1/status; }

java "${JVM_FLAGS[@]}" -jar kvd-server/target/kvd.jar --port $PORT_KVD --appendonly no --dir "$WORK" --loglevel warning &
KVD_PID=$!
until redis-cli -p $PORT_KVD ping >/dev/null 2>&1; do sleep 0.2; done
jcmd $KVD_PID GC.run >/dev/null; sleep 1
before=$(rss_kb $KVD_PID)
redis-cli -p $PORT_KVD --pipe < "$WORK/fill.resp" >/dev/null
sleep 1
after_no_gc=$(rss_kb $KVD_PID)
jcmd $KVD_PID GC.run >/dev/null; sleep 1
after=$(rss_kb $KVD_PID)
heap=$(jcmd $KVD_PID GC.heap_info | head -3)
echo "kvd: dbsize $(redis-cli -p $PORT_KVD dbsize), rss before ${before} kB, after ${after} kB, marginal $(( (after - before) * 1024 / N )) B/key; without the GC after the fill (what top shows) rss ${after_no_gc} kB, $(( (after_no_gc - before) * 1024 / N )) B/key"
echo "$heap"

redis-server --port $PORT_REDIS --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log"
until redis-cli -p $PORT_REDIS ping >/dev/null 2>&1; do sleep 0.2; done
used0=$(redis-cli -p $PORT_REDIS info memory | awk -F: '/^used_memory:/ {print $2+0}')
rss0=$(redis-cli -p $PORT_REDIS info memory | awk -F: '/^used_memory_rss:/ {print $2+0}')
redis-cli -p $PORT_REDIS --pipe < "$WORK/fill.resp" >/dev/null
used1=$(redis-cli -p $PORT_REDIS info memory | awk -F: '/^used_memory:/ {print $2+0}')
rss1=$(redis-cli -p $PORT_REDIS info memory | awk -F: '/^used_memory_rss:/ {print $2+0}')
echo "redis: dbsize $(redis-cli -p $PORT_REDIS dbsize), used_memory $(( (used1 - used0) / N )) B/key, rss $(( (rss1 - rss0) / N )) B/key"
