#!/usr/bin/env bash
# Largest single-command latency while the keyspace grows to millions of keys: kvbench SETs
# random keys of [0, R) (R = 5,000,000; 10,000,000 requests leave ~4.3 M distinct keys, so the
# table doubles up to 8 M buckets) with 16-byte values, 50 connections, pipeline 1.
# Usage: insert_latency.sh [JAVA_HOME] [JVM flags...]   (from the repository root after `mvn package`)
set -euo pipefail
JAVA_BIN=${1:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}/bin/java
shift || true
PORT=$((20000 + RANDOM % 20000))
"$JAVA_BIN" "$@" -jar kvd-server/target/kvd.jar --port $PORT --appendonly no --loglevel warning 2>/dev/null &
KVD_PID=$!
trap 'kill $KVD_PID 2>/dev/null || true' EXIT
until redis-cli -p $PORT ping >/dev/null 2>&1; do sleep 0.2; done
java -jar kvd-bench/target/kvbench.jar -p $PORT -w set -r 5000000 -n ${REQUESTS:-10000000} -c 50 -d 16
echo "keys: $(redis-cli -p $PORT dbsize)"
