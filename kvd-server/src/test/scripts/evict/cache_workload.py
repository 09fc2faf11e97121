#!/usr/bin/env python3
"""The cache workload of design.md, against kvd and redis-server in the same run.

A read-through cache: keys drawn from a Zipf distribution (s 0.99) over 2 M keys, 1 M accesses;
each access is a GET, and a miss SETs a 200-byte value. maxmemory 64mb under allkeys-lru and
allkeys-lfu. Reports each run's hit ratio and the largest resident set seen, then the medians;
then SET throughput while evicting (redis-benchmark, 50 connections, pipeline 16, 200-byte values, after a
first pass that fills maxmemory).

kvd runs as shipped (java @config/jvm.options) with -Xmx maxmemory + 128 MB, the heap
docs/configuration.md asks for with maxmemory.

usage: [KVD_JAR=...] [MAXMEMORY_MB=64] cache_workload.py [--runs 3] [--accesses 1000000] [--keys 2000000]   (from the repository root)
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

MAXMEMORY_MB = int(os.environ.get("MAXMEMORY_MB", "64"))
JAR = os.environ.get("KVD_JAR", "kvd-server/target/kvd.jar")
VALUE = b"v" * 200
BATCH = 64


def encode(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class Connection:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.pos = 0

    def _line(self):
        while True:
            end = self.buf.find(b"\r\n", self.pos)
            if end >= 0:
                line = self.buf[self.pos:end]
                self.pos = end + 2
                return line
            self._more()

    def _more(self):
        self.buf = self.buf[self.pos:] + self.sock.recv(1 << 20)
        self.pos = 0

    def reply(self):
        """The next reply: None for a nil bulk, bytes otherwise (arrays are not needed here)."""
        line = self._line()
        kind = line[:1]
        if kind == b"$":
            n = int(line[1:])
            if n < 0:
                return None
            while len(self.buf) - self.pos < n + 2:
                self._more()
            data = self.buf[self.pos:self.pos + n]
            self.pos += n + 2
            return data
        if kind == b"-":
            raise RuntimeError(line.decode())
        return line

    def call(self, *args):
        self.sock.sendall(encode(*args))
        return self.reply()


def rss_bytes(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(server, policy, workdir):
    port = free_port()
    common = ["--port", str(port), "--appendonly", "no", "--maxmemory", "%dmb" % MAXMEMORY_MB,
              "--maxmemory-policy", policy]
    if server == "redis":
        cmd = ["redis-server", "--save", "", "--dir", workdir] + common
    else:
        cmd = ["java", "@config/jvm.options", "-Xmx%dm" % (MAXMEMORY_MB + 128), "-jar",
               JAR, "--dir", workdir] + common
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while True:
        try:
            c = Connection(port)
            if c.call(b"PING") == b"+PONG":
                return proc, port, c
        except OSError:
            pass
        if time.time() > deadline:
            proc.kill()
            raise RuntimeError("%s did not start" % server)
        time.sleep(0.1)


def zipf_keys(keys, accesses, seed):
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, keys + 1) ** 0.99
    cdf = np.cumsum(weights)
    cdf /= cdf[-1]
    ranks = np.searchsorted(cdf, rng.random(accesses))
    # Ranks mapped to key names at random, so popularity has nothing to do with the name.
    names = rng.permutation(keys)
    return names[ranks]


def run_once(server, policy, sequence):
    with tempfile.TemporaryDirectory() as workdir:
        proc, port, c = start(server, policy, workdir)
        try:
            hits = 0
            largest = 0
            keys = [b"key:%d" % k for k in sequence]
            for start_at in range(0, len(keys), BATCH):
                batch = keys[start_at:start_at + BATCH]
                c.sock.sendall(b"".join(encode(b"GET", k) for k in batch))
                missed = [k for k in batch if c.reply() is None]
                hits += len(batch) - len(missed)
                if missed:
                    c.sock.sendall(b"".join(encode(b"SET", k, VALUE) for k in missed))
                    for _ in missed:
                        c.reply()
                if (start_at // BATCH) % 64 == 0:
                    largest = max(largest, rss_bytes(proc.pid))
            largest = max(largest, rss_bytes(proc.pid))
            info = c.call(b"INFO", b"everything").decode().split("\r\n")
            evicted = int([l for l in info if l.startswith("evicted_keys:")][0].split(":")[1])
            return hits / len(keys), largest, evicted
        finally:
            proc.kill()
            proc.wait()


def set_throughput(server):
    with tempfile.TemporaryDirectory() as workdir:
        proc, port, c = start(server, "allkeys-lru", workdir)
        try:
            bench = ["redis-benchmark", "-p", str(port), "-t", "set", "-r", "10000000", "-d", "200", "-c", "50",
                     "-P", "16", "-q", "-n"]
            # A first pass fills maxmemory (and warms kvd's JIT); the second is measured, all of it evicting.
            subprocess.run(bench + ["1000000"], capture_output=True)
            out = subprocess.run(bench + ["2000000"], capture_output=True, text=True).stdout
            line = [l for l in out.replace("\r", "\n").splitlines() if "requests per second" in l][-1]
            evicted = [l for l in c.call(b"INFO", b"stats").decode().split("\r\n") if l.startswith("evicted_keys:")]
            return float(line.split(":")[1].split()[0]), evicted[0], rss_bytes(proc.pid)
        finally:
            proc.kill()
            proc.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--accesses", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=2_000_000)
    parser.add_argument("--no-set-throughput", action="store_true", help="skip the SET throughput part")
    parser.add_argument("--set-throughput-only", action="store_true", help="only the SET throughput part")
    args = parser.parse_args()
    if not os.path.exists(JAR) or not os.path.exists("config/jvm.options"):
        sys.exit("run from the repository root after building kvd-server (or set KVD_JAR)")
    sequence = zipf_keys(args.keys, args.accesses, 20261205)
    for policy in () if args.set_throughput_only else ("allkeys-lru", "allkeys-lfu"):
        results = {"kvd": [], "redis": []}
        for run in range(args.runs):
            # Alternating, so neither server always runs on a warmer machine.
            for server in (("kvd", "redis") if run % 2 == 0 else ("redis", "kvd")):
                ratio, rss, evicted = run_once(server, policy, sequence)
                results[server].append((ratio, rss))
                print("%-12s %-5s run %d: hit ratio %.4f, largest RSS %.1f MB, %d keys evicted"
                      % (policy, server, run + 1, ratio, rss / 2 ** 20, evicted), flush=True)
        for server in ("kvd", "redis"):
            ratios = [r for r, _ in results[server]]
            rss = [m for _, m in results[server]]
            print("%-12s %-5s median: hit ratio %.4f, largest RSS %.1f MB" % (policy, server, statistics.median(ratios),
                                                                            statistics.median(rss) / 2 ** 20), flush=True)
    for run in range(0 if args.no_set_throughput else args.runs):
        for server in ("kvd", "redis") if run % 2 == 0 else ("redis", "kvd"):
            ops, evicted, rss = set_throughput(server)
            print("SET P16 while evicting, %-5s run %d: %.0f ops/s, %s, RSS after %.1f MB" % (server, run + 1, ops,
                                                                                           evicted, rss / 2 ** 20),
                  flush=True)


if __name__ == "__main__":
    main()
