#!/usr/bin/env bash
# GEOSEARCH by radius over a sorted set of 1,000,000 points: kvd started with the README's command
# against redis-server, a fresh server each, in alternating rounds. The points (seeded, uniform
# over Europe, lon -10..30, lat 35..60, about 0.1 a square km) are loaded with pipelined GEOADDs of
# 100 points; then redis-benchmark -c 50 runs GEOSEARCH ... BYRADIUS 5 km COUNT 10 ASC around
# Berlin (10 points inside, about 60 in the nine cells read), and GET of a missing key the same
# way: the round trip without the search, what the client and the sockets alone allow. With WARM=1
# each server first runs the benchmark once unmeasured (the JIT's warm-up; Redis needs none).
# Usage: [WARM=1] [PIPELINE=16] geosearch.sh [rounds] [requests]   (from the repository root after `mvn package`)
set -euo pipefail
ROUNDS=${1:-3}
REQUESTS=${2:-100000}
WORK=$(mktemp -d)
trap 'rm -rf $WORK' EXIT
. kvd-server/src/test/scripts/lib/servers.sh

python3 - "$WORK/load.resp" <<'PY'
import random, sys
random.seed(20261203)
with open(sys.argv[1], "wb") as out:
    for command in range(10_000):
        args = [b"GEOADD", b"geo"]
        for i in range(100):
            args += [b"%.6f" % random.uniform(-10, 30), b"%.6f" % random.uniform(35, 60), b"p%d" % (command * 100 + i)]
        out.write(b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args))
PY

rate() {
    redis-benchmark -p "$1" -c 50 -n "$2" -P "${PIPELINE:-1}" -q "${@:3}" 2>/dev/null \
        | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1 | cut -d' ' -f1
}
search() {
    rate "$1" "$2" GEOSEARCH geo FROMLONLAT 13.4 52.5 BYRADIUS 5 km COUNT 10 ASC
}

for round in $(seq 1 "$ROUNDS"); do
    for server in kvd redis; do
        start_server $server "$WORK"
        redis-cli -p $port --pipe < "$WORK/load.resp" >/dev/null
        if [ "${WARM:-0}" = 1 ]; then
            search $port "$REQUESTS" >/dev/null
            rate $port "$REQUESTS" GET missing >/dev/null
        fi
        echo "round $round $server: zcard $(redis-cli -p $port zcard geo), found $(redis-cli -p $port geosearch geo fromlonlat 13.4 52.5 byradius 5 km | wc -l), $(search $port "$REQUESTS") GEOSEARCH/s, $(rate $port "$REQUESTS" GET missing) GET/s"
        stop_server $server
    done
done
