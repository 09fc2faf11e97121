#!/usr/bin/env python3
"""Full sync of a primary holding N keys to a fresh replica, kvd and redis-server in the same run.

For each server kind: start a primary and a replica of that kind on free ports in temp dirs,
DEBUG POPULATE the primary, then REPLICAOF and time until the replica's link is up and its
offset equals the primary's. Meanwhile a client PINGs the primary back to back and keeps the
longest round trip: the stall the full sync causes the primary's clients.

MODE (the fourth argument) picks the full sync's kind for both servers: "diskless" (the
snapshot streamed to the replica's socket, repl-diskless-sync yes with no delay, and parsed
from it, repl-diskless-load swapdb), "disk" (repl-diskless-sync no, repl-diskless-load
disabled), or "default" (each server's own defaults).

usage: full_sync.py KVD_JAR [keys] [rounds] [diskless|disk|default]   (run from anywhere; needs redis-server)
"""
import os, socket, subprocess, sys, tempfile, threading, time

JAR = sys.argv[1]
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 5_000_000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
MODE = sys.argv[4] if len(sys.argv) > 4 else "default"
PRIMARY_ARGS = {"diskless": ["--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0"],
                "disk": ["--repl-diskless-sync", "no"], "default": []}[MODE]
REPLICA_ARGS = {"diskless": ["--repl-diskless-load", "swapdb"], "disk": ["--repl-diskless-load", "disabled"],
                "default": []}[MODE]


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port)); self.f = self.s.makefile("rb")

    def call(self, *args):
        out = b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in (x.encode() if isinstance(x, str) else x for x in args))
        self.s.sendall(out); return self.read()

    def read(self):
        line = self.f.readline()
        t = line[:1]
        if t == b"$":
            n = int(line[1:]); return None if n < 0 else self.f.read(n + 2)[:-2].decode()
        if t == b"*":
            return [self.read() for _ in range(int(line[1:]))]
        return line[1:-2].decode()


def start(kind, port, d, extra):
    if kind == "kvd":
        cmd = ["java"] + os.environ.get("JOPTS","").split() + ["-jar", JAR, "--port", str(port), "--dir", d, "--appendonly", "no", "--enable-debug-command", "yes"] + extra
    else:
        cmd = ["redis-server", "--port", str(port), "--dir", d, "--save", "", "--appendonly", "no", "--enable-debug-command", "yes"] + extra
    p = subprocess.Popen(cmd, stdout=open(os.path.join(d, "log"), "w"), stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            if Conn(port).call("PING") == "PONG":
                return p
        except OSError:
            time.sleep(0.05)
    raise SystemExit(kind + " did not start")


def info(c, field):
    for line in c.call("INFO", "replication").split("\r\n"):
        if line.startswith(field + ":"):
            return line.split(":", 1)[1]


def one(kind):
    d1, d2 = tempfile.mkdtemp(), tempfile.mkdtemp()
    pp, rp = free_port(), free_port()
    primary, replica = start(kind, pp, d1, PRIMARY_ARGS), start(kind, rp, d2, REPLICA_ARGS)
    try:
        c = Conn(pp)
        c.call("DEBUG", "POPULATE", str(KEYS), "key", "10")
        stall = [0.0]; stop = [False]
        def pinger():
            pc = Conn(pp)
            while not stop[0]:
                t = time.perf_counter(); pc.call("PING"); stall[0] = max(stall[0], time.perf_counter() - t)
        th = threading.Thread(target=pinger); th.start()
        time.sleep(0.5)
        stall[0] = 0.0
        r = Conn(rp)
        t0 = time.perf_counter()
        r.call("REPLICAOF", "127.0.0.1", str(pp))
        while True:
            if info(r, "master_link_status") == "up" and info(r, "master_repl_offset") == info(c, "master_repl_offset"):
                break
            time.sleep(0.01)
        took = time.perf_counter() - t0
        stop[0] = True; th.join()
        keys = r.call("DBSIZE")
        return took, stall[0], keys
    finally:
        for p in (primary, replica):
            p.terminate(); p.wait()


results = {"kvd": [], "redis": []}
for _ in range(ROUNDS):
    for kind in ("kvd", "redis"):
        took, stall, keys = one(kind)
        results[kind].append((took, stall))
        print(f"{kind}: synced {keys} keys in {took:.2f} s, longest PING on the primary {stall * 1000:.1f} ms", flush=True)
for kind, rs in results.items():
    tooks = sorted(r[0] for r in rs); stalls = sorted(r[1] for r in rs)
    print(f"{kind} {MODE} median: sync {tooks[len(tooks) // 2]:.2f} s, longest PING {stalls[len(stalls) // 2] * 1000:.1f} ms")
