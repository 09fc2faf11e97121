#!/usr/bin/env bash
# What stamping each key's access (the LRU clock or LFU counter every lookup writes) costs on the
# hot path with no maxmemory: redis-benchmark SET and GET, 50 connections, pipeline 16, 16-byte
# values, against kvd without it (BASE_JAR, built from the commit before), kvd with it (NEW_JAR)
# and redis-server, in rounds that alternate the order; each server gets a warm-up pass first.
# usage: BASE_JAR=... NEW_JAR=... access_tracking_cost.sh [rounds]
set -eu
rounds=${1:-3}
port=32190
run() {  # name, command...
  local name=$1; shift
  "$@" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do redis-cli -p $port ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-benchmark -p $port -t set,get -n 1000000 -r 1000000 -d 16 -c 50 -P 16 -q >/dev/null 2>&1
  redis-benchmark -p $port -t set,get -n 4000000 -r 1000000 -d 16 -c 50 -P 16 -q 2>/dev/null \
    | tr '\r' '\n' | grep 'per second' | sed "s/^/$name /"
  kill $pid; wait $pid 2>/dev/null || true
}
for r in $(seq 1 "$rounds"); do
  order="base new redis"; [ $((r % 2)) -eq 0 ] && order="redis new base"
  for s in $order; do
    case $s in
      base) run "round $r base " java @config/jvm.options -jar "$BASE_JAR" --port $port --appendonly no ;;
      new) run "round $r new  " java @config/jvm.options -jar "$NEW_JAR" --port $port --appendonly no ;;
      redis) run "round $r redis" redis-server --port $port --save "" --appendonly no ;;
    esac
  done
done
