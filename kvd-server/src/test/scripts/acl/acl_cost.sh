#!/usr/bin/env bash
# What ACL checks cost: redis-benchmark SET and GET of app:<random> keys, 50 connections,
# pipeline 16, 16-byte values, as the default user and as a user with key patterns and command
# rules (+@read +@write ~app:*), against kvd (the README's command, JAR) and redis-server, in
# rounds that alternate the order; each server gets a warm-up pass first.
# usage: JAR=kvd-server/target/kvd.jar acl_cost.sh [rounds]
set -eu
rounds=${1:-3}
port=32191
user_rule='app on >apppw resetchannels +@read +@write ~app:*'
bench() {  # name, auth options...
  local name=$1; shift
  for cmd in "SET app:__rand_int__ 0123456789abcdef" "GET app:__rand_int__"; do
    # shellcheck disable=SC2086
    redis-benchmark -p $port "$@" -n 4000000 -r 1000000 -c 50 -P 16 -q $cmd 2>/dev/null \
      | tr '\r' '\n' | grep 'per second' | sed "s/^/$name ${cmd%% *} /"
  done
}
run() {  # name, command...
  local name=$1; shift
  "$@" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do redis-cli -p $port ping >/dev/null 2>&1 && break; sleep 0.1; done
  # shellcheck disable=SC2086
  redis-cli -p $port ACL SETUSER $user_rule >/dev/null
  redis-benchmark -p $port -n 1000000 -r 1000000 -c 50 -P 16 -q SET app:__rand_int__ 0123456789abcdef >/dev/null 2>&1
  bench "$name default" 
  bench "$name app    " --user app -a apppw
  kill $pid; wait $pid 2>/dev/null || true
}
for r in $(seq 1 "$rounds"); do
  order="kvd redis"; [ $((r % 2)) -eq 0 ] && order="redis kvd"
  for s in $order; do
    case $s in
      kvd) run "round $r kvd  " java @config/jvm.options -jar "${JAR:-kvd-server/target/kvd.jar}" --port $port --appendonly no ;;
      redis) run "round $r redis" redis-server --port $port --save "" --appendonly no ;;
    esac
  done
done
