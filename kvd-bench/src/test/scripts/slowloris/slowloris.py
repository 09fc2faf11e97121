#!/usr/bin/env python3
"""Slowloris clients: N connections each send a valid command one byte at a time, one byte per
connection every INTERVAL ms (a 40-byte SET takes 4 s at 100 ms), read its reply, and start over.

    slowloris.py PORT [N=1000] [INTERVAL_MS=100] [DURATION_S=60]

Prints "open N" once every connection is up, then at the end the commands completed and the
bytes sent; exits early, with an error, if the server closes a connection. Stops at DURATION_S
or on SIGTERM/SIGINT.
"""
import signal
import socket
import sys
import time


def command(i):
    key = b"slowloris:%d" % i
    return b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$1\r\nx\r\n" % (len(key), key)


def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    interval = (int(sys.argv[3]) if len(sys.argv) > 3 else 100) / 1000
    duration = float(sys.argv[4]) if len(sys.argv) > 4 else 60
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))

    conns = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.setblocking(False)
        # [socket, request, bytes of it sent, reply bytes received]
        conns.append([s, command(i), 0, b""])
    print("open", n, flush=True)

    completed = sent = 0
    end = time.monotonic() + duration
    tick = time.monotonic()
    while not stop and time.monotonic() < end:
        for c in conns:
            s, request, offset, reply = c
            if offset < len(request):
                s.send(request[offset:offset + 1])
                c[2] = offset + 1
                sent += 1
                continue
            try:
                chunk = s.recv(64)
            except BlockingIOError:
                continue
            if not chunk:
                sys.exit("the server closed a slowloris connection")
            reply += chunk
            if reply.endswith(b"\r\n"):
                if reply != b"+OK\r\n":
                    sys.exit("unexpected reply %r" % reply)
                completed += 1
                c[2], c[3] = 0, b""
            else:
                c[3] = reply
        tick += interval
        time.sleep(max(0.0, tick - time.monotonic()))
    print("done: %d commands completed, %d bytes sent by %d connections" % (completed, sent, n), flush=True)


if __name__ == "__main__":
    main()
