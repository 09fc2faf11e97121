#!/usr/bin/python3
"""BGSAVE of N string keys (DEBUG POPULATE, 10-byte values) on kvd and redis-server, alternated:
the time to finish, the longest PING another client waited while it ran, the server's extra
resident memory (Redis: its child's copy-on-write as INFO's rdb_last_cow_size; kvd: the JVM's
resident set above where it started), then the time from exec to "Ready to accept connections"
with that dump.rdb to load.
usage: bgsave.py KVD_JAR KEYS ROUNDS"""
import os, sys, tempfile, threading, time

import redis

from servers import free_port, start as start_server

JAR, KEYS, ROUNDS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def start(kind, port, workdir):
    return start_server(kind, JAR, ["--port", str(port), "--dir", workdir, "--appendonly", "no", "--save", "",
                                    "--enable-debug-command", "yes", "--dbfilename", "dump.rdb"])


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])


def shutdown(port, proc):
    try:
        redis.Redis(port=port).execute_command("SHUTDOWN", "NOSAVE")
    except redis.exceptions.ConnectionError:
        pass  # the server closes the connection as it stops
    proc.wait()


def one(kind):
    workdir = tempfile.mkdtemp(prefix=f"bgsave-{kind}-")
    port = free_port()
    proc, _ = start(kind, port, workdir)
    r = redis.Redis(port=port)
    r.execute_command("DEBUG", "POPULATE", KEYS, "key", 10)
    r.execute_command("SAVE")  # a first pass, so both run the measured one warm
    before = rss_kb(proc.pid)
    longest, peak, done = [0.0], [before], [False]

    def ping():
        p = redis.Redis(port=port)
        while not done[0]:
            t = time.monotonic()
            p.ping()
            longest[0] = max(longest[0], time.monotonic() - t)
            peak[0] = max(peak[0], rss_kb(proc.pid))
            time.sleep(0.001)

    pinger = threading.Thread(target=ping)
    pinger.start()
    began = time.monotonic()
    r.execute_command("BGSAVE")
    while r.info("persistence")["rdb_bgsave_in_progress"] == 1 or r.info("persistence")["rdb_last_bgsave_status"] != "ok":
        time.sleep(0.005)
    took = time.monotonic() - began
    done[0] = True
    pinger.join()
    extra_mb = (r.info("persistence").get("rdb_last_cow_size", 0) / 2**20 if kind == "redis"
                else (peak[0] - before) / 1024)
    size_mb = os.path.getsize(os.path.join(workdir, "dump.rdb")) / 2**20
    shutdown(port, proc)
    proc, load = start(kind, port, workdir)
    loaded = redis.Redis(port=port).dbsize()
    shutdown(port, proc)
    print(f"{kind:5} bgsave {took:6.2f} s  longest PING {longest[0] * 1000:7.1f} ms  extra memory {extra_mb:7.1f} MB"
          f"  rdb {size_mb:6.1f} MB  start with it {load:6.2f} s ({loaded} keys)", flush=True)


for round_ in range(ROUNDS):
    for kind in (["kvd", "redis"] if round_ % 2 == 0 else ["redis", "kvd"]):
        one(kind)
