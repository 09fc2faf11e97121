#!/usr/bin/env bash
# The Lua libraries in scripts: redis-benchmark -c 50 of EVALSHA of four scripts, each calling one
# library function on a constant the size job-queue scripts handle: cmsgpack.pack and
# cmsgpack.unpack of a job-options table (10 fields, strings and numbers), cjson.encode and
# cjson.decode of a 338-byte job object. At pipeline 1 and 16, kvd started with the README's
# command against redis-server, a fresh server each, in alternating rounds. Each server first
# runs the benchmarks once unmeasured (the JIT's warm-up; Redis needs none). Per benchmark: ops/s
# and the server's CPU time per request in µs (utime + stime from /proc).
# Usage: lua_libraries_throughput.sh [rounds]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh

OPTIONS="{name='send-welcome-email', attempts=3, delay=0, priority=0, jobId='user:48213:welcome',\
 timestamp=1764820800123, backoff=5000, removeOnComplete=1000, removeOnFail=5000, lifo=false}"
PACKED='\138\167\98\97\99\107\111\102\102\205\19\136\164\108\105\102\111\194\172\114\101\109\111\118\101\79\110\70\97\105\108\205\19\136\176\114\101\109\111\118\101\79\110\67\111\109\112\108\101\116\101\205\3\232\164\110\97\109\101\178\115\101\110\100\45\119\101\108\99\111\109\101\45\101\109\97\105\108\169\116\105\109\101\115\116\97\109\112\207\0\0\1\154\231\132\82\123\165\106\111\98\73\100\178\117\115\101\114\58\52\56\50\49\51\58\119\101\108\99\111\109\101\168\112\114\105\111\114\105\116\121\0\165\100\101\108\97\121\0\168\97\116\116\101\109\112\116\115\3'
JOB="{id='job:48213', name='send-welcome-email', queue='mail', attemptsMade=0, priority=2, delay=0,\
 timestamp=1764820800123, data={userId=48213, email='ada.lovelace@example.com', template='welcome-v2',\
 locale='en-GB', tags={'onboarding', 'mail', 'high'}}, opts={attempts=3, backoff=5000,\
 removeOnComplete=true, lifo=false}}"
JSON='{"id":"job:48213","data":{"locale":"en-GB","template":"welcome-v2","tags":["onboarding","mail","high"],"userId":48213,"email":"ada.lovelace@example.com"},"queue":"mail","name":"send-welcome-email","attemptsMade":0,"timestamp":1764820800123,"priority":2,"delay":0,"opts":{"lifo":false,"removeOnComplete":true,"backoff":5000,"attempts":3}}'
NAMES=(pack unpack encode decode)
SCRIPTS=(
    "return #cmsgpack.pack($OPTIONS)"
    "return cmsgpack.unpack('$PACKED').attempts"
    "return #cjson.encode($JOB)"
    "return cjson.decode('$JSON').priority"
)

cpu_ticks() {
    awk '{print $14 + $15}' "/proc/$1/stat"
}

# bench PORT PID PIPELINE REQUESTS: "name ops/s cpu-µs/request" for each script
bench() {
    local port=$1 server_pid=$2 pipe=$3 n=$4 i sha before ops ticks
    for i in "${!SCRIPTS[@]}"; do
        sha=$(redis-cli -p "$port" script load "${SCRIPTS[$i]}")
        before=$(cpu_ticks "$server_pid")
        ops=$(redis-benchmark -p "$port" -c 50 -P "$pipe" -n "$n" --csv EVALSHA "$sha" 0 2>/dev/null \
            | grep -v '^"test' | awk -F'","' '{print $2}')
        ticks=$(( $(cpu_ticks "$server_pid") - before ))
        echo -n "${NAMES[$i]} $ops $(awk -v t="$ticks" -v n="$n" -v hz="$(getconf CLK_TCK)" \
            'BEGIN {printf "%.2f", t / hz * 1e6 / n}') "
    done
    echo
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        [ $server = redis ] && pid=$(redis-cli -p $port info server | awk -F: '/^process_id/ {print $2+0}')
        bench $port $pid 16 300000 >/dev/null
        for pipe in 1 16; do
            echo "round $round $server pipeline $pipe: $(bench $port $pid $pipe $(( pipe == 1 ? 100000 : 300000 )))"
        done
        stop_server $server
    done
done
