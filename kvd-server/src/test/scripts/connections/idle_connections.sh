#!/usr/bin/env bash
# Memory per idle connection: N clients (default 10,000) connect, send one PING each, read the PONG
# and then stay idle, against kvd and against redis-server in the same run. For each server: the
# resident set (VmRSS) with the N connections open minus the same without them, over N. kvd is
# measured after a warm-up round of N connections (JIT, Netty's buffer pools) and after a full GC
# (jcmd GC.run) at both points; the live-heap difference and the largest classes are shown too.
# Usage: idle_connections.sh [N] [extra JVM flags...]   (from the repository root, after `mvn package`)
set -euo pipefail
N=${1:-10000}
shift || true
JVM_FLAGS=("$@")
PORT_KVD=$((20000 + RANDOM % 12000))
PORT_REDIS=$((PORT_KVD + 1))
WORK=$(mktemp -d)
KVD_PID=
HOLDER_PID=
cleanup() {
    [ -n "$HOLDER_PID" ] && kill "$HOLDER_PID" 2>/dev/null || true
    redis-cli -p $PORT_REDIS shutdown nosave >/dev/null 2>&1 || true
    [ -n "$KVD_PID" ] && kill "$KVD_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
# Both servers and the client process hold N sockets each.
ulimit -n $((N + 1024))

cat > "$WORK/hold.py" <<'PY'
# Opens N connections to the port, PINGs on each, prints "ready", then holds them until SIGTERM.
import signal, socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
conns = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"*1\r\n$4\r\nPING\r\n")
    conns.append(s)
for s in conns:
    reply = b""
    while not reply.endswith(b"\r\n"):
        chunk = s.recv(64)
        if not chunk:
            sys.exit("connection closed by the server: " + reply.decode())
        reply += chunk
    if reply != b"+PONG\r\n":
        sys.exit("unexpected reply " + repr(reply))
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print("ready", flush=True)
while True:
    signal.pause()
PY

rss_kb() { awk '/VmRSS/ {print $2}' /proc/$1/status; }
clients() { redis-cli -p $1 info clients | awk -F: '/^connected_clients:/ {print $2+0}'; }

# hold PORT: opens the N connections in the background and waits until every one has its PONG.
hold() {
    rm -f "$WORK/hold.out"
    python3 "$WORK/hold.py" "$1" "$N" > "$WORK/hold.out" &
    HOLDER_PID=$!
    until [ -f "$WORK/hold.out" ] && grep -q "^ready" "$WORK/hold.out"; do
        kill -0 "$HOLDER_PID" 2>/dev/null || { echo "holder failed" >&2; exit 1; }
        sleep 0.2
    done
}
release() {
    kill -TERM "$HOLDER_PID"
    wait "$HOLDER_PID" || true
    HOLDER_PID=
}
kvd_gc() { jcmd $KVD_PID GC.run >/dev/null; sleep 1; }
live_heap_kb() { jcmd $KVD_PID GC.heap_info | awk '/garbage-first heap|total/ {for (i = 1; i <= NF; i++) if ($i == "used") {print $(i+1)+0; exit}}'; }

java "${JVM_FLAGS[@]}" -jar kvd-server/target/kvd.jar --port $PORT_KVD --appendonly no --maxclients $((N + 100)) \
    --loglevel warning &
KVD_PID=$!
until redis-cli -p $PORT_KVD ping >/dev/null 2>&1; do sleep 0.2; done
hold $PORT_KVD
release
until [ "$(clients $PORT_KVD)" -le 1 ]; do sleep 0.2; done
kvd_gc
before=$(rss_kb $KVD_PID); heap_before=$(live_heap_kb)
jcmd $KVD_PID GC.class_histogram | head -25 > "$WORK/histo.before"
hold $PORT_KVD
kvd_gc
after=$(rss_kb $KVD_PID); heap_after=$(live_heap_kb)
echo "kvd: $(clients $PORT_KVD) clients; rss ${before} -> ${after} kB: $(( (after - before) * 1024 / N )) B per idle connection;" \
     "heap used ${heap_before} -> ${heap_after} kB: $(( (heap_after - heap_before) * 1024 / N )) B per connection"
echo "kvd: largest classes with the connections open (jcmd GC.class_histogram):"
jcmd $KVD_PID GC.class_histogram | sed -n 1,20p
release

redis-server --port $PORT_REDIS --save '' --appendonly no --maxclients $((N + 100)) --daemonize yes \
    --logfile "$WORK/redis.log"
until redis-cli -p $PORT_REDIS ping >/dev/null 2>&1; do sleep 0.2; done
REDIS_PID=$(redis-cli -p $PORT_REDIS info server | awk -F: '/^process_id:/ {print $2+0}')
before=$(rss_kb $REDIS_PID)
hold $PORT_REDIS
after=$(rss_kb $REDIS_PID)
echo "redis: $(clients $PORT_REDIS) clients; rss ${before} -> ${after} kB: $(( (after - before) * 1024 / N )) B per idle connection"
release
