#!/usr/bin/env bash
# Calibration: kvbench and redis-benchmark against the same redis-server in the same run, SET with
# 16-byte values over 100 K keys at 50 connections, pipeline 1 and 16, the tools alternating,
# REPS rounds. Each kvbench run warms up for 3 s first (its JIT); redis-benchmark needs none.
# Usage: calibrate.sh [REPS]   (from the repository root after `mvn package`; redis-server on the PATH)
set -euo pipefail
REPS=${1:-3}
PORT=$((20000 + RANDOM % 20000))
redis-server --port $PORT --save '' --appendonly no --daemonize no --loglevel warning >/dev/null &
REDIS_PID=$!
trap 'redis-cli -p $PORT shutdown nosave >/dev/null 2>&1 || kill $REDIS_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do redis-cli -p $PORT ping >/dev/null 2>&1 && break; sleep 0.1; done

redis_benchmark() { # pipeline requests -> ops/s
    redis-benchmark -p $PORT -c 50 -P "$1" -n "$2" -t set -d 16 -r 100000 -q 2>/dev/null \
        | tr '\r' '\n' | awk '/requests per second/ {print int($2)}' | tail -1
}
kvbench() { # pipeline requests -> ops/s
    java -jar kvd-bench/target/kvbench.jar -p $PORT -c 50 -P "$1" -n "$2" -w set -d 16 -r 100000 --warmup 3s 2>/dev/null \
        | awk '/ ops\/s,/ {for (i = 1; i < NF; i++) if ($(i + 1) == "ops/s,") print $i}'
}

echo "load average before: $(cut -d' ' -f1 /proc/loadavg)"
printf '%-8s %-4s %15s %15s %8s\n' pipeline rep redis-benchmark kvbench ratio
for pipeline in 1 16; do
    requests=$((pipeline == 1 ? 300000 : 2000000))
    for rep in $(seq "$REPS"); do
        rb=$(redis_benchmark $pipeline $requests)
        kb=$(kvbench $pipeline $requests)
        printf '%-8s %-4s %15s %15s %8s\n' "$pipeline" "$rep" "$rb" "$kb" "$(awk -v a="$kb" -v b="$rb" 'BEGIN {printf "%.2f", a / b}')"
    done
done
echo "load average after: $(cut -d' ' -f1 /proc/loadavg)"
