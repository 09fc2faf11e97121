#!/usr/bin/python3
"""DUMP and RESTORE of one set of N members (`member:<n>`, so both servers hold it as a hash
table, not an intset), on kvd and redis-server, alternated: each command's time and the
longest PING another client waited while it ran.
usage: dump_restore.py KVD_JAR MEMBERS ROUNDS"""
import sys, tempfile, threading, time

import redis

from servers import free_port, start

JAR, MEMBERS, ROUNDS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def timed(port, action):
    """Runs action() while another client PINGs; returns (seconds, longest PING in seconds, result)."""
    longest, done = [0.0], [False]

    def ping():
        p = redis.Redis(port=port)
        while not done[0]:
            t = time.monotonic()
            p.ping()
            longest[0] = max(longest[0], time.monotonic() - t)
            time.sleep(0.0005)

    pinger = threading.Thread(target=ping)
    pinger.start()
    time.sleep(0.05)
    began = time.monotonic()
    result = action()
    took = time.monotonic() - began
    time.sleep(0.05)
    done[0] = True
    pinger.join()
    return took, longest[0], result


def one(kind):
    port = free_port()
    proc, _ = start(kind, JAR, ["--port", str(port), "--dir", tempfile.mkdtemp(prefix=f"dump-{kind}-"),
                                "--appendonly", "no", "--save", ""])
    r = redis.Redis(port=port)
    pipe = r.pipeline(transaction=False)
    for base in range(0, MEMBERS, 1000):
        pipe.sadd("big", *[f"member:{i}" for i in range(base, min(base + 1000, MEMBERS))])
        if base % 100000 == 0:
            pipe.execute()
    pipe.execute()
    dump_s, dump_ping, payload = timed(port, lambda: r.dump("big"))
    r.delete("big")
    restore_s, restore_ping, _ = timed(port, lambda: r.restore("big", 0, payload))
    assert r.scard("big") == MEMBERS
    try:
        r.shutdown(nosave=True)
    except redis.exceptions.ConnectionError:
        pass
    proc.wait()
    print(f"{kind:5} DUMP {dump_s * 1000:7.1f} ms (longest PING {dump_ping * 1000:6.1f} ms)  "
          f"RESTORE {restore_s * 1000:7.1f} ms (longest PING {restore_ping * 1000:6.1f} ms)  "
          f"payload {len(payload) / 2**20:5.1f} MB", flush=True)


for round_ in range(ROUNDS):
    for kind in (["kvd", "redis"] if round_ % 2 == 0 else ["redis", "kvd"]):
        one(kind)
