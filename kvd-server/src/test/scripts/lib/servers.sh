# Sourced by the benchmark scripts: a fresh kvd (the README's command) or redis-server on a random
# port nothing listens on, with no persistence, and its stop.
#   start_server kvd|redis DIR [extra options...]   sets $port (and $pid for kvd); waits for PING
#   stop_server kvd|redis
# KVD_JVM_OPTIONS replaces kvd's JVM flags (default @config/jvm.options; empty for the plain jar).

# True if something listens on the port: a server there would be measured instead, or block the bind.
port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start_server() {
    local server=$1 dir=$2
    shift 2
    # Below Linux's ephemeral ports (32768 on): a benchmark's own client sockets may hold one there.
    port=$((20000 + RANDOM % 12000))
    while port_in_use $port; do port=$((20000 + RANDOM % 12000)); done
    if [ "$server" = kvd ]; then
        java ${KVD_JVM_OPTIONS-@config/jvm.options} -jar kvd-server/target/kvd.jar config/kvd.conf --port $port --appendonly no \
            --dir "$dir" --loglevel warning "$@" >/dev/null 2>&1 &
        pid=$!
    else
        redis-server --port $port --save '' --appendonly no --daemonize yes --logfile "$dir/redis.log" "$@"
    fi
    local deadline=$((SECONDS + 60))
    until redis-cli -p $port ping >/dev/null 2>&1; do
        if [ $SECONDS -ge $deadline ]; then
            echo "$server did not answer on port $port within 60 s" >&2
            return 1
        fi
        sleep 0.2
    done
}

stop_server() {
    if [ "$1" = kvd ]; then
        kill $pid
        wait $pid 2>/dev/null || true
    else
        redis-cli -p $port shutdown nosave >/dev/null
    fi
}
