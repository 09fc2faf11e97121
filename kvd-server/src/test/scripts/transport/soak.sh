#!/usr/bin/env bash
# Soaks a transport of kvd with native checks on. Test runs died in native code twice under
# io_uring (glibc heap corruption, exit 134; docs/reliability.md). Starts kvd (config/kvd.conf, AOF on) with Netty's paranoid leak detection, -Xcheck:jni
# and glibc's heap checks (MALLOC_CHECK_=3, with libc_malloc_debug.so preloaded where glibc wants
# it); runs `kvbench soak` against it for DURATION: mixed pipelined load, connection churn up to
# ~1,000 open, clients killed mid-reply and mid-request, BGREWRITEAOF every few seconds, values
# read back. Then checks that kvd still answers PING, that its logs hold no leak report (LEAK:) or
# fatal error, that SHUTDOWN ends it with exit code 0 and that the AOF it leaves passes
# --check-aof. Prints one paragraph with the result and exits 0 if all of that held, else 1,
# keeping the logs in the temp directory it names.
#
#   kvd-server/src/test/scripts/transport/soak.sh [DURATION=30m] [TRANSPORT=io_uring]
#
# TRANSPORT is a value of the transport directive: io_uring, epoll, nio, auto. Builds nothing:
# run `mvn -B -q install -DskipTests` first. Needs redis-cli, python3 and jcmd.
set -euo pipefail

DURATION=${1:-30m}
TRANSPORT=${2:-io_uring}
ROOT=$(cd "$(dirname "$0")/../../../../.." && pwd)
cd "$ROOT"
DIR=$(mktemp -d)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
KVD_PID=
PASSED=no
cleanup() {
    if [ -n "$KVD_PID" ] && kill -0 "$KVD_PID" 2>/dev/null; then
        kill -9 "$KVD_PID"
    fi
    if [ "$PASSED" = yes ]; then
        rm -rf "$DIR"
    else
        echo "logs kept in $DIR" >&2
    fi
}
trap cleanup EXIT
# The churn holds up to ~1,000 connections; kvd and kvbench each need a descriptor per connection.
[ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s; fails once SECONDS have passed.
wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}
answers_ping() { [ "$(timeout 5 redis-cli -p "$PORT" ping 2>/dev/null)" = PONG ]; }
kvd_gone() { ! kill -0 "$KVD_PID" 2>/dev/null; }
ready_or_gone() { answers_ping || kvd_gone; }

# Since glibc 2.34, MALLOC_CHECK_ is ignored unless libc_malloc_debug.so is preloaded (glibc's NEWS
# for 2.34); older glibc has the checks built in. Without either, only malloc's own checks run.
LIBC=$(ldd /bin/sh | awk '/libc\.so\.6/ {print $3}')
MALLOC_DEBUG=$(dirname "$LIBC")/libc_malloc_debug.so.0
if [ -e "$MALLOC_DEBUG" ]; then
    HEAP_CHECKS="MALLOC_CHECK_=3 with $(basename "$MALLOC_DEBUG") preloaded"
else
    MALLOC_DEBUG=
    HEAP_CHECKS="MALLOC_CHECK_=3 (no libc_malloc_debug.so: built into glibc before 2.34, else inactive)"
fi

echo "soak: $DURATION on transport $TRANSPORT, port $PORT, dir $DIR; load: $(cut -d' ' -f1-3 /proc/loadavg)"
LD_PRELOAD=$MALLOC_DEBUG MALLOC_CHECK_=3 java @config/jvm.options -Dio.netty.leakDetection.level=paranoid -Xcheck:jni \
    -XX:ErrorFile="$DIR/hs_err_pid%p.log" -jar kvd-server/target/kvd.jar config/kvd.conf \
    --port "$PORT" --dir "$DIR" --appendonly yes --transport "$TRANSPORT" --logfile "$DIR/kvd.log" \
    > "$DIR/kvd.out" 2>&1 &
KVD_PID=$!
if ! wait_until 60 ready_or_gone || kvd_gone; then
    echo "kvd did not become ready (60 s):" >&2
    tail -20 "$DIR/kvd.out" "$DIR/kvd.log" 2>/dev/null >&2
    exit 1
fi
grep -h "ready:" "$DIR/kvd.log" | sed 's/.* - /kvd: /'

SOAK_EXIT=0
java -jar kvd-bench/target/kvbench.jar soak -p "$PORT" --duration "$DURATION" 2>&1 | tee "$DIR/soak.out" \
    || SOAK_EXIT=${PIPESTATUS[0]}

ALIVE=no
if answers_ping; then
    ALIVE=yes
    # Netty reports a leaked buffer once the collector found it unreachable and a later allocation
    # looks: a full GC, then a few requests, so that buffers leaked near the end are reported too.
    jcmd "$KVD_PID" GC.run > /dev/null
    for _ in 1 2 3 4 5; do redis-cli -p "$PORT" ping > /dev/null; done
    redis-cli -p "$PORT" shutdown > /dev/null 2>&1 || true
fi
if ! wait_until 60 kvd_gone; then
    echo "kvd still running 60 s after SHUTDOWN: killed" >&2
    kill -9 "$KVD_PID"
fi
KVD_EXIT=0
wait "$KVD_PID" || KVD_EXIT=$?
KVD_PID=

LOGS=("$DIR/kvd.log" "$DIR/kvd.out")
count() { cat "${LOGS[@]}" 2>/dev/null | grep -cE "$1" || true; }
LEAKS=$(count 'LEAK:')
# glibc's heap checks (malloc(): ..., free(): ..., double free or corruption), the JVM's fatal error
# report, -Xcheck:jni's fatal errors, exceptions that reached the top of a thread.
FATAL_PATTERN='malloc\(\)|free\(\)|fastbin|double free|corrupted|A fatal error has been detected'
FATAL_PATTERN+='|FATAL ERROR in native method|Exception in thread|OutOfMemoryError'
FATAL=$(count "$FATAL_PATTERN")
JNI_WARNINGS=$(count 'WARNING in native method')
CRASH_REPORT=$(ls "$DIR"/hs_err_pid*.log 2>/dev/null | head -1 || true)
AOF_CHECK=failed
if java -jar kvd-server/target/kvd.jar --check-aof "$DIR/appendonly.aof" > "$DIR/check-aof.out" 2>&1; then
    AOF_CHECK=ok
fi

field() { sed -n "s/$1/\\1/p" "$DIR/soak.out" | head -1; }
OPS=$(field '^  ops: \([0-9]*\).*')
CONNECTIONS=$(field '^  connections: \([0-9]* opened\),.*')
KILLED=$(field '^  connections: .*, \([0-9]* killed ([^)]*)\),.*')
REWRITES=$(field '^  rewrites: \([0-9]*\) started.*')
VERIFIED=$(field '^  verified: \(.*\)')
ERRORS=$(field '^  errors: \([0-9]*\)')

if [ "$SOAK_EXIT" = 0 ] && [ "$ALIVE" = yes ] && [ "$LEAKS" = 0 ] && [ "$FATAL" = 0 ] && [ -z "$CRASH_REPORT" ] \
        && [ "$KVD_EXIT" = 0 ] && [ "$AOF_CHECK" = ok ]; then
    PASSED=yes
fi
echo
echo "Soak of $DURATION on transport $TRANSPORT (paranoid leak detection, -Xcheck:jni, $HEAP_CHECKS):" \
    "${OPS:-?} ops; connections ${CONNECTIONS:-? opened}, ${KILLED:-? killed};" \
    "${REWRITES:-?} AOF rewrites started, ${VERIFIED:-? values verified}, ${ERRORS:-?} errors;" \
    "kvbench soak exit $SOAK_EXIT; kvd answered PING after the soak: $ALIVE; $LEAKS LEAK reports," \
    "$FATAL fatal errors, $JNI_WARNINGS JNI warnings in its logs${CRASH_REPORT:+, JVM crash report $CRASH_REPORT};" \
    "kvd exit code $KVD_EXIT; AOF check $AOF_CHECK." \
    "$([ "$PASSED" = yes ] && echo PASSED || echo FAILED)"
[ "$PASSED" = yes ]
