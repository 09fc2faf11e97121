#!/usr/bin/env bash
# Memory per collection element, kvd against redis-server in the same run. Shapes:
#   hashes  100,000 hashes ("hash:%08d") of 10 fields ("field:N", 8-byte values): per field
#   set16   one set of 1,000,000 random 16-byte members: per member
#   setint  one set of the integers 0..999,999: per member
#   list16  one list of 1,000,000 random 16-byte elements: per element
#   zset    one sorted set of 1,000,000 members ("member:%07d") with distinct random scores: per member
#   zsets10 100,000 sorted sets ("zset:%08d") of 10 members ("m:N", scores 0..9): per member
#   stream  one stream of 1,000,000 entries (ids N-1) of two fields, 8-byte names and values: per entry
# Each is loaded with redis-cli --pipe in two halves (SADD of 100 members per command for the big
# sets and lists, ZADD of 100 pairs for the big sorted set). kvd: resident set (VmRSS after a full GC) per element over the whole fill, and marginal:
# over the second half only, which leaves out what the first fill costs once (buffers, code, the
# allocator's arrays kept ready); the live heap at the end. Redis: INFO used_memory and RSS, the same two ways.
# Usage: memory_per_element.sh SHAPE [extra JVM flags...]   (from the repository root after `mvn package`)
set -euo pipefail
SHAPE=${1:?hashes, set16, setint, list16, zset, zsets10 or stream}
shift
JVM_FLAGS=("$@")
PORT_KVD=$((20000 + RANDOM % 12000))
PORT_REDIS=$((PORT_KVD + 1))
WORK=$(mktemp -d)
trap 'redis-cli -p $PORT_REDIS shutdown nosave >/dev/null 2>&1 || true; kill $KVD_PID 2>/dev/null || true; rm -rf $WORK' EXIT

ELEMENTS=$(python3 - "$SHAPE" "$WORK/fill.resp" <<'PY'
import random, sys
shape, path = sys.argv[1], sys.argv[2]
rng = random.Random(20261203)

def command(out, *args):
    out.write(b"*%d\r\n" % len(args))
    for a in args:
        out.write(b"$%d\r\n%s\r\n" % (len(a), a))

halves = [open(path + ".1", "wb"), open(path + ".2", "wb")]
with halves[0], halves[1]:
    if shape == "hashes":
        for h in range(100_000):
            fields = []
            for f in range(10):
                fields += [b"field:%d" % f, b"v%07d" % rng.randrange(10_000_000)]
            command(halves[h % 2], b"HSET", b"hash:%08d" % h, *fields)
        print(1_000_000)
    elif shape in ("set16", "setint"):
        members = ([b"%016x" % rng.getrandbits(64) for _ in range(1_000_000)] if shape == "set16"
                   else [b"%d" % i for i in range(1_000_000)])
        for i in range(0, len(members), 100):
            command(halves[i * 2 // len(members)], b"SADD", b"set", *members[i:i + 100])
        print(len(set(members)))
    elif shape == "list16":
        elements = [b"%016x" % rng.getrandbits(64) for _ in range(1_000_000)]
        for i in range(0, len(elements), 100):
            command(halves[i * 2 // len(elements)], b"RPUSH", b"list", *elements[i:i + 100])
        print(len(elements))
    elif shape == "zset":
        scores = rng.sample(range(1 << 40), 1_000_000)
        for i in range(0, 1_000_000, 100):
            pairs = []
            for j in range(i, i + 100):
                pairs += [b"%d" % scores[j], b"member:%07d" % j]
            command(halves[i * 2 // 1_000_000], b"ZADD", b"zset", *pairs)
        print(1_000_000)
    elif shape == "zsets10":
        for z in range(100_000):
            pairs = []
            for m in range(10):
                pairs += [b"%d" % m, b"m:%d" % m]
            command(halves[z % 2], b"ZADD", b"zset:%08d" % z, *pairs)
        print(1_000_000)
    elif shape == "stream":
        for i in range(1, 1_000_001):
            command(halves[i * 2 // 1_000_001], b"XADD", b"stream", b"%d-1" % i,
                    b"fieldone", b"%08d" % rng.randrange(100_000_000), b"fieldtwo", b"%08d" % rng.randrange(100_000_000))
        print(1_000_000)
    else:
        sys.exit("unknown shape " + shape)
PY
)

rss_kb() { awk '/VmRSS/ {print $2}' /proc/$1/status; }

java "${JVM_FLAGS[@]}" -jar kvd-server/target/kvd.jar --port $PORT_KVD --appendonly no --dir "$WORK" --loglevel warning &
KVD_PID=$!
until redis-cli -p $PORT_KVD ping >/dev/null 2>&1; do sleep 0.2; done
heap_kb() { jcmd $KVD_PID GC.heap_info | awk '/garbage-first heap/ {sub("K", "", $NF); for (i = 1; i <= NF; i++) if ($i == "used") {v = $(i + 1); sub("K,?", "", v); print v}}'; }
jcmd $KVD_PID GC.run >/dev/null; sleep 1
before=$(rss_kb $KVD_PID)
heap_before=$(heap_kb)
redis-cli -p $PORT_KVD --pipe < "$WORK/fill.resp.1" >/dev/null
jcmd $KVD_PID GC.run >/dev/null; sleep 1
half=$(rss_kb $KVD_PID)
redis-cli -p $PORT_KVD --pipe < "$WORK/fill.resp.2" >/dev/null
jcmd $KVD_PID GC.run >/dev/null; sleep 1
after=$(rss_kb $KVD_PID)
heap_after=$(heap_kb)
echo "kvd $SHAPE: $ELEMENTS elements, dbsize $(redis-cli -p $PORT_KVD dbsize), rss $(( (after - before) * 1024 / ELEMENTS )) B/element over the fill, marginal $(( (after - half) * 2048 / ELEMENTS )) B/element; live heap $(( (heap_after - heap_before) * 1024 / ELEMENTS )) B/element"

redis-server --port $PORT_REDIS --save '' --appendonly no --daemonize yes --logfile "$WORK/redis.log"
until redis-cli -p $PORT_REDIS ping >/dev/null 2>&1; do sleep 0.2; done
used() { redis-cli -p $PORT_REDIS info memory | awk -F: "/^$1:/ {print \$2+0}"; }
used0=$(used used_memory); rss0=$(used used_memory_rss)
redis-cli -p $PORT_REDIS --pipe < "$WORK/fill.resp.1" >/dev/null
usedh=$(used used_memory); rssh=$(used used_memory_rss)
redis-cli -p $PORT_REDIS --pipe < "$WORK/fill.resp.2" >/dev/null
used1=$(used used_memory); rss1=$(used used_memory_rss)
echo "redis $SHAPE: dbsize $(redis-cli -p $PORT_REDIS dbsize), used_memory $(( (used1 - used0) / ELEMENTS )) B/element over the fill, marginal $(( (used1 - usedh) * 2 / ELEMENTS )); rss $(( (rss1 - rss0) / ELEMENTS )), marginal $(( (rss1 - rssh) * 2 / ELEMENTS ))"
