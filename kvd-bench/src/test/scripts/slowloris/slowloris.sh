#!/usr/bin/env bash
# Do slowloris clients slow the others down? kvbench's 50 busy clients run SET (16-byte values,
# pipeline 1) for DURATION, alone and then with SLOW connections trickling one byte every 100 ms
# (kvbench slowloris), alternated RUNS times, against kvd and against redis-server in the same run.
# Prints each run's p99 (and p50, throughput) and, per server, the median p99 with over without.
# Usage: slowloris.sh [RUNS=3] [DURATION=20s] [SLOW=1000]
#        (from the repository root, after `mvn -B -q package -DskipTests`)
set -euo pipefail
RUNS=${1:-3}
DURATION=${2:-20s}
SLOW=${3:-1000}
PORT_KVD=$((20000 + RANDOM % 20000))
PORT_REDIS=$((PORT_KVD + 1))
WORK=$(mktemp -d)
KVD_PID=
SLOW_PID=
cleanup() {
    [ -n "$SLOW_PID" ] && kill "$SLOW_PID" 2>/dev/null || true
    redis-cli -p $PORT_REDIS shutdown nosave >/dev/null 2>&1 || true
    [ -n "$KVD_PID" ] && kill "$KVD_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
ulimit -n $((SLOW + 4096))
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

java @config/jvm.options -jar kvd-server/target/kvd.jar --port $PORT_KVD --appendonly no --loglevel warning &
KVD_PID=$!
redis-server --port $PORT_REDIS --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log"
for port in $PORT_KVD $PORT_REDIS; do
    until redis-cli -p $port ping >/dev/null 2>&1; do sleep 0.2; done
done

# bench SERVER PORT MODE RUN: one kvbench run, its JSON line tagged and appended to results.jsonl.
bench() {
    local json="$WORK/run.json"
    rm -f "$json"
    java -jar kvd-bench/target/kvbench.jar -p "$2" -c 50 -P 1 -w set -d 16 --duration "$DURATION" --warmup 2s \
        --json "$json" >/dev/null
    python3 - "$json" "$1" "$3" "$4" >> "$WORK/results.jsonl" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
r.update(server=sys.argv[2], mode=sys.argv[3], run=int(sys.argv[4]))
print(json.dumps(r))
PY
    tail -1 "$WORK/results.jsonl" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("%-5s run %d %-7s p50 %7.0f us  p99 %7.0f us  %8.0f ops/s" % (r["server"], r["run"], r["mode"], r["p50_us"], r["p99_us"], r["ops_per_sec"]))'
}

for run in $(seq "$RUNS"); do
    for server in kvd redis; do
        port=$PORT_KVD
        [ $server = redis ] && port=$PORT_REDIS
        bench $server $port without "$run"
        rm -f "$WORK/slowloris.out"
        java -jar kvd-bench/target/kvbench.jar slowloris -p "$port" -c "$SLOW" --interval 100ms --duration 1h \
            > "$WORK/slowloris.out" &
        SLOW_PID=$!
        until [ -f "$WORK/slowloris.out" ] && grep -q "^open" "$WORK/slowloris.out"; do
            kill -0 "$SLOW_PID" 2>/dev/null || { echo "slowloris failed" >&2; exit 1; }
            sleep 0.2
        done
        bench $server $port "with" "$run"
        kill -TERM "$SLOW_PID"
        wait "$SLOW_PID" || { echo "slowloris failed: $(cat "$WORK/slowloris.out")" >&2; exit 1; }
        SLOW_PID=
        done_line=$(tail -1 "$WORK/slowloris.out")
        echo "      slowloris $done_line"
    done
done

python3 - "$WORK/results.jsonl" "$SLOW" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
for server in ("kvd", "redis"):
    p99 = {mode: statistics.median(r["p99_us"] for r in runs if r["server"] == server and r["mode"] == mode)
           for mode in ("without", "with")}
    print("%-5s median p99: %.0f us without, %.0f us with %s slowloris connections: %.2fx"
          % (server, p99["without"], p99["with"], sys.argv[2], p99["with"] / p99["without"]))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
