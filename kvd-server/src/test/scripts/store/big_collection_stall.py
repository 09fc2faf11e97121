#!/usr/bin/python3
"""The longest stall a client sees while a 1,000,000-member set is deleted.

For each way of deleting (DEL, UNLINK, FLUSHALL ASYNC, expiry), fills one set of 1 M 16-byte
members, then deletes it while another connection sends PINGs back to back; reports the deleting
command's own latency and the longest PING round trip from just before it until the key is gone
(for expiry: from its PEXPIRE until active expiry removed it). Run against any server:

    /usr/bin/python3 big_collection_stall.py PORT [rounds]   (Debian's python3-redis)
"""
import random
import sys
import threading
import time

import redis

PORT = int(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
MEMBERS = 1_000_000


def fill(client):
    rng = random.Random(20261203)
    pipe = client.pipeline(transaction=False)
    for i in range(0, MEMBERS, 1000):
        pipe.sadd("big", *[b"%016x" % rng.getrandbits(64) for _ in range(1000)])
        if i % 100_000 == 0:
            pipe.execute()
    pipe.execute()


def probe(stop, worst):
    client = redis.Redis(port=PORT)
    while not stop.is_set():
        start = time.perf_counter()
        client.ping()
        worst[0] = max(worst[0], time.perf_counter() - start)


def measure(way):
    client = redis.Redis(port=PORT)
    client.flushall()
    fill(client)
    stop = threading.Event()
    worst = [0.0]
    prober = threading.Thread(target=probe, args=(stop, worst))
    prober.start()
    time.sleep(0.2)
    worst[0] = 0.0
    start = time.perf_counter()
    if way == "SMEMBERS":
        client.smembers("big")
    elif way == "DEL":
        client.delete("big")
    elif way == "UNLINK":
        client.unlink("big")
    elif way == "FLUSHALL ASYNC":
        client.flushall(asynchronous=True)
    else:
        client.pexpire("big", 1)
    command = time.perf_counter() - start
    while way != "SMEMBERS" and (client.exists("big") if way != "expiry" else client.dbsize() > 0):
        time.sleep(0.01)
    time.sleep(0.2)
    stop.set()
    prober.join()
    return command, worst[0]


for way in ("SMEMBERS", "DEL", "UNLINK", "FLUSHALL ASYNC", "expiry"):
    results = [measure(way) for _ in range(ROUNDS)]
    commands = sorted(r[0] * 1000 for r in results)
    pings = sorted(r[1] * 1000 for r in results)
    print(f"{way:15} command ms {' '.join(f'{c:.2f}' for c in commands)};"
          f" longest PING ms {' '.join(f'{p:.2f}' for p in pings)}")
