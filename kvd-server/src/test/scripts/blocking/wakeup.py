#!/usr/bin/env python3
"""Blocking pops measured on one server (kvd or redis-server alike).

  wakeup.py latency PORT [rounds]   one client BLPOPs, another LPUSHes: the time from the push's
                                    send to the blocked client's reply, median and p99 in microseconds
  wakeup.py idle PORT [clients]     opens that many clients blocked in BLPOP (on distinct keys, with
                                    timeouts of an hour), prints the server's blocked_clients, and
                                    keeps them blocked until stdin closes

Raw sockets, one request at a time, so both servers are measured through the same client code.
"""
import socket
import sys
import time


def connect(port):
    # A server that has just answered PING may still refuse a burst of connects for a moment.
    deadline = time.time() + 10
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            break
        except ConnectionRefusedError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def command(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def read_reply(s, expect_end):
    data = b""
    while not data.endswith(expect_end):
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def latency(port, rounds):
    waiter, pusher = connect(port), connect(port)
    samples = []
    for i in range(rounds):
        waiter.sendall(command("BLPOP", "wakeup", 0))
        # Wait until the server lists the waiter as blocked, so the push finds it waiting.
        while b"blocked_clients:1" not in info_clients(pusher):
            pass
        start = time.perf_counter_ns()
        pusher.sendall(command("LPUSH", "wakeup", "x"))
        read_reply(waiter, b"$1\r\nx\r\n")
        samples.append((time.perf_counter_ns() - start) / 1000)
        read_reply(pusher, b":1\r\n")
    samples.sort()
    print("wake-up latency over %d pushes: median %.0f us, p99 %.0f us" % (
        rounds, samples[len(samples) // 2], samples[int(len(samples) * 0.99)]))


def info_clients(s):
    s.sendall(command("INFO", "clients"))
    header = b""
    while not header.endswith(b"\r\n"):
        header += s.recv(1)
    length = int(header[1:-2])
    body = b""
    while len(body) < length + 2:
        body += s.recv(length + 2 - len(body))
    return body


def idle(port, clients):
    sockets = []
    for i in range(clients):
        s = connect(port)
        s.sendall(command("BLPOP", "idle:%d" % i, 3600))
        sockets.append(s)
    probe = connect(port)
    deadline = time.time() + 60
    while b"blocked_clients:%d\r\n" % clients not in info_clients(probe):
        if time.time() > deadline:
            sys.exit("the clients did not all block")
    print("blocked_clients:%d" % clients, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "latency":
        latency(port, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    else:
        idle(port, int(sys.argv[3]) if len(sys.argv) > 3 else 10000)
