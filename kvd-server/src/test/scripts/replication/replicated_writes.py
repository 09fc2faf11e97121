#!/usr/bin/env python3
"""SET throughput of a primary with two replicas, kvd and redis-server in the same run, and the
replication lag meanwhile.

For each kind: a primary and two replicas of that kind (no persistence), then
`redis-benchmark -t set -P 16 -c 50 -n N -r 100000` against the primary; INFO replication is
sampled every 100 ms during the run for the largest gap between the primary's offset and the
slowest replica's acknowledged offset. Rounds alternate kvd and redis; medians are printed.

usage: replicated_writes.py KVD_JAR [requests] [rounds]
"""
import os, re, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
JAR = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def free_port():
    import socket
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


def cli(port, *args):
    return subprocess.run(["redis-cli", "-p", str(port)] + list(args), capture_output=True, text=True).stdout


def start(kind, port, extra=()):
    d = tempfile.mkdtemp()
    if kind == "kvd":
        cmd = ["java", "-jar", JAR, "--port", str(port), "--dir", d, "--appendonly", "no"]
    else:
        cmd = ["redis-server", "--port", str(port), "--dir", d, "--save", "", "--appendonly", "no"]
    p = subprocess.Popen(cmd + list(extra), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        if cli(port, "PING").strip() == "PONG":
            return p
        time.sleep(0.05)
    raise SystemExit(kind + " did not start")


def one(kind):
    pp = free_port()
    procs = [start(kind, pp)]
    replicas = []
    for _ in range(2):
        rp = free_port()
        procs.append(start(kind, rp, ["--replicaof", "127.0.0.1", str(pp)]))
        replicas.append(rp)
    try:
        for rp in replicas:
            while "master_link_status:up" not in cli(rp, "INFO", "replication"):
                time.sleep(0.05)
        lag = [0]; stop = [False]
        def sample():
            while not stop[0]:
                info = cli(pp, "INFO", "replication")
                offset = int(re.search(r"master_repl_offset:(\d+)", info).group(1))
                acked = [int(x) for x in re.findall(r"slave\d+:.*?offset=(\d+)", info)]
                if len(acked) == 2:
                    lag[0] = max(lag[0], offset - min(acked))
                time.sleep(0.1)
        th = threading.Thread(target=sample); th.start()
        out = subprocess.run(["redis-benchmark", "-p", str(pp), "-t", "set", "-P", "16", "-c", "50", "-n", str(N),
                              "-r", "100000", "-q"], capture_output=True, text=True).stdout
        stop[0] = True; th.join()
        rps = float(re.search(r"SET: ([\d.]+) requests per second", out).group(1))
        return rps, lag[0]
    finally:
        for p in procs:
            p.terminate(); p.wait()


res = {"kvd": [], "redis": []}
for _ in range(ROUNDS):
    for kind in ("kvd", "redis"):
        rps, lag = one(kind)
        res[kind].append((rps, lag))
        print(f"{kind}: SET P16 {rps:,.0f} requests/s with two replicas; largest lag {lag:,} bytes", flush=True)
for kind, rs in res.items():
    r = sorted(x[0] for x in rs); l = sorted(x[1] for x in rs)
    print(f"{kind} median: {r[len(r) // 2]:,.0f} requests/s, largest lag {l[len(l) // 2]:,} bytes")
