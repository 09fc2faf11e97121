#!/usr/bin/env python3
"""Active expiry on an idle server: 200,000 keys share one deadline 15 s ahead (time to load them on a slow machine) and are never touched
again; DBSIZE is polled every 5 ms and the script prints how long after the deadline the last
key went. Usage: active_expiry.py PORT [KEYS]"""
import socket
import sys
import time

port = int(sys.argv[1])
keys = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
sock = socket.create_connection(("127.0.0.1", port))
reader = sock.makefile("rb")


def command(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def read_reply():
    line = reader.readline()
    return line[1:-2]


deadline_ms = int(time.time() * 1000) + 15_000
batch = 10_000
for start in range(0, keys, batch):
    sock.sendall(b"".join(command("SET", "exp:%012d" % i, "v" * 16, "PXAT", deadline_ms)
                          for i in range(start, min(keys, start + batch))))
    for _ in range(start, min(keys, start + batch)):
        read_reply()
sock.sendall(command("DBSIZE"))
print("keys before the deadline:", int(read_reply()))
while True:
    sock.sendall(command("DBSIZE"))
    size = int(read_reply())
    now_ms = time.time() * 1000
    if size == 0:
        print("all %d keys gone %.0f ms after the deadline" % (keys, now_ms - deadline_ms))
        break
    time.sleep(0.005)
