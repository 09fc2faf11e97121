#!/usr/bin/env python3
"""Scale-out throughput: 1, 2 and 3 nodes behind twemproxy and as a Redis Cluster, kvd against redis-server.

For each topology (one node direct, for reference; N nodes behind nutcracker; N nodes as a cluster
driven by kvbench --cluster) both servers' nodes run side by side and kvbench measures them in
turn, the order alternating from one repetition to the next. Each run appends kvbench's JSON line,
tagged with server/mode/nodes/rep, to OUT/scale-out.jsonl; the medians go to OUT/summary.md.

Everything (nodes, proxy, kvbench) shares this machine's cores: on 2 cores, N nodes do not get N
cores, so the numbers show the cost of the routing layer and how the nodes share the CPU, not what
N machines would do. Run it on a quiet machine:

    mvn -B -q package -DskipTests -pl kvd-bench -am
    python3 kvd-bench/src/test/scripts/scale_out.py --out results/scale-out
    python3 kvd-bench/src/test/scripts/scale_out.py --out /tmp/so --quick     # a check that it works

kvd's cluster mode is `--cluster-enabled yes --cluster-config-file FILE`, FILE holding one
`node <id> <host>:<port> <first>-<last>` line per node; redis-server's cluster is formed with
CLUSTER ADDSLOTSRANGE and CLUSTER MEET (redis-cli --cluster create needs at least 3 masters).
A topology a server cannot form is recorded as skipped, with the reason, and the rest goes on.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
SLOTS = 16384
READY_TIMEOUT_S = 120


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, *args):
    """Sends one command; returns a bulk reply's text, else the reply's line (+OK, :1, -ERR ...)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"".join([b"*%d\r\n" % len(args)] + [b"$%d\r\n%s\r\n" % (len(a), a) for a in
                                                          (str(x).encode() for x in args)]))
        reply = s.makefile("rb")
        line = reply.readline().decode().rstrip("\r\n")
        if line.startswith("$") and line != "$-1":
            return reply.read(int(line[1:]) + 2).decode()[:-2]
        return line


def wait_until(what, probe, process=None, log=None):
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what}: the process exited ({process.returncode}); log: {tail(log)}")
        try:
            if probe():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what}: not within {READY_TIMEOUT_S} s; log: {tail(log)}")


def tail(log):
    if log is None or not Path(log).exists():
        return "(none)"
    return " | ".join(Path(log).read_text(errors="replace").strip().splitlines()[-3:])


def slot_ranges(nodes):
    """Slots split evenly, in order, as redis-cli --cluster create splits them."""
    per = SLOTS / nodes
    return [(round(i * per), round((i + 1) * per) - 1) for i in range(nodes)]


class Topology:
    """The processes of one topology of one server kind; stop() ends exactly those."""

    def __init__(self, server, mode, nodes, work, binaries):
        self.server, self.mode, self.nodes, self.binaries = server, mode, nodes, binaries
        self.dir = Path(tempfile.mkdtemp(prefix=f"{server}-{mode}-{nodes}-", dir=work))
        self.processes = []
        self.ports = [free_port() for _ in range(nodes)]
        self.target = None

    def spawn(self, name, argv):
        log = self.dir / f"{name}.log"
        process = subprocess.Popen(argv, stdout=open(log, "wb"), stderr=subprocess.STDOUT, cwd=self.dir)
        self.processes.append(process)
        return process, log

    def start(self):
        cluster = self.mode == "cluster"
        cluster_file = self.dir / "cluster.conf"
        if cluster and self.server == "kvd":
            cluster_file.write_text("".join(f"node kvd-{i + 1} 127.0.0.1:{port} {first}-{last}\n" for i, (port, (first, last))
                                            in enumerate(zip(self.ports, slot_ranges(self.nodes)))))
        bus_ports = []
        for i, port in enumerate(self.ports):
            node_dir = self.dir / f"node-{i + 1}"
            node_dir.mkdir()
            if self.server == "kvd":
                argv = ["java", "-jar", str(self.binaries["kvd_jar"]), "--port", str(port), "--dir", str(node_dir),
                        "--appendonly", "no"]
                if cluster:
                    argv += ["--cluster-enabled", "yes", "--cluster-config-file", str(cluster_file)]
            else:
                argv = [self.binaries["redis_server"], "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
                        "--save", "", "--appendonly", "no"]
                if cluster:
                    bus_ports.append(free_port())
                    argv += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                             "--cluster-port", str(bus_ports[-1])]
            process, log = self.spawn(f"node-{i + 1}", argv)
            self.wait_for_pong(port, process, log)
        if cluster and self.server == "redis":
            self.form_redis_cluster(bus_ports)
        if cluster:
            for port in self.ports:
                wait_until(f"{self.server} cluster_state:ok on {port}",
                           lambda p=port: "cluster_state:ok" in call(p, "CLUSTER", "INFO"))
            self.target = ["--cluster", f"127.0.0.1:{self.ports[0]}"]
        elif self.mode == "twemproxy":
            self.target = ["-p", str(self.start_nutcracker())]
        else:
            self.target = ["-p", str(self.ports[0])]
        return self

    def wait_for_pong(self, port, process, log):
        wait_until(f"{self.server} on {port} to answer PING", lambda: call(port, "PING") == "+PONG", process, log)

    def form_redis_cluster(self, bus_ports):
        for port, (first, last) in zip(self.ports, slot_ranges(self.nodes)):
            reply = call(port, "CLUSTER", "ADDSLOTSRANGE", first, last)
            if reply != "+OK":
                raise RuntimeError(f"CLUSTER ADDSLOTSRANGE on {port}: {reply}")
        for port, bus in zip(self.ports[1:], bus_ports[1:]):
            reply = call(self.ports[0], "CLUSTER", "MEET", "127.0.0.1", port, bus)
            if reply != "+OK":
                raise RuntimeError(f"CLUSTER MEET {port}: {reply}")

    def start_nutcracker(self):
        """nutcracker with config/twemproxy.yml's pool settings, listening on a free port, over these nodes."""
        listen = free_port()
        pool = []
        for line in (ROOT / "config" / "twemproxy.yml").read_text().splitlines():
            if line.strip() == "servers:":
                break
            pool.append(line.replace("127.0.0.1:22121", f"127.0.0.1:{listen}"))
        pool.append("  servers:")
        pool += [f"    - 127.0.0.1:{port}:1 kvd{i + 1}" for i, port in enumerate(self.ports)]
        config = self.dir / "nutcracker.yml"
        config.write_text("\n".join(pool) + "\n")
        log = self.dir / "nutcracker.log"
        process, _ = self.spawn("nutcracker-stdout", [self.binaries["nutcracker"], "-c", str(config), "-o", str(log),
                                                      "-a", "127.0.0.1", "-s", str(free_port())])
        self.wait_for_pong(listen, process, log)
        return listen

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def measure(topology, args, rep, out):
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        json_file = Path(f.name)
    argv = ["java", "-jar", str(args.kvbench_jar), *topology.target, "-c", str(args.connections), "-P",
            str(args.pipeline), "-w", args.workload, "-d", str(args.data_size), "-r", str(args.key_range),
            "--threads", str(args.threads), "--duration", args.duration, "--warmup", args.warmup,
            "--json", str(json_file)]
    run = subprocess.run(argv, capture_output=True, text=True)
    tags = {"server": topology.server, "mode": topology.mode, "nodes": topology.nodes, "rep": rep}
    lines = json_file.read_text().splitlines()
    json_file.unlink()
    if run.returncode != 0 or not lines:
        record = {**tags, "skipped": f"kvbench exit {run.returncode}: {run.stderr.strip()[-300:]}"}
    else:
        record = {**tags, **json.loads(lines[-1])}
    with open(out / "scale-out.jsonl", "a") as f:
        f.write(json.dumps(record) + "\n")
    ops = record.get("ops_per_sec")
    print(f"  {topology.server:5} {topology.mode:9} {topology.nodes} node(s) rep {rep}: "
          + (f"{ops:,.0f} ops/s, {record['errors']} errors" if ops else record["skipped"]), flush=True)
    return record


def topologies(args):
    yield "direct", 1
    for mode in args.modes:
        for nodes in args.nodes:
            yield mode, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--nodes", type=lambda s: [int(n) for n in s.split(",")], default=[1, 2, 3])
    parser.add_argument("--modes", type=lambda s: s.split(","), default=["twemproxy", "cluster"])
    parser.add_argument("--servers", type=lambda s: s.split(","), default=["kvd", "redis"])
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--warmup", default="3s")
    parser.add_argument("-c", "--connections", type=int, default=50)
    parser.add_argument("-P", "--pipeline", type=int, default=16)
    parser.add_argument("-w", "--workload", default="set")
    parser.add_argument("-d", "--data-size", type=int, default=16)
    parser.add_argument("-r", "--key-range", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="1 rep, 1 s runs, 1 and 2 nodes: checks that it works")
    parser.add_argument("--kvd-jar", type=Path, default=ROOT / "kvd-server" / "target" / "kvd.jar")
    parser.add_argument("--kvbench-jar", type=Path, default=ROOT / "kvd-bench" / "target" / "kvbench.jar")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.duration, args.warmup, args.nodes = 1, "1s", "500ms", [1, 2]

    binaries = {"kvd_jar": args.kvd_jar, "redis_server": shutil.which("redis-server"),
                "nutcracker": shutil.which("nutcracker", path=os.environ.get("PATH", "") + ":/usr/sbin")}
    for jar in (args.kvd_jar, args.kvbench_jar):
        if not jar.is_file():
            sys.exit(f"no {jar}: mvn -B -q package -DskipTests -pl kvd-bench -am")
    if binaries["redis_server"] is None and "redis" in args.servers:
        print("redis-server is not installed: kvd alone")
        args.servers = [s for s in args.servers if s != "redis"]
    if binaries["nutcracker"] is None and "twemproxy" in args.modes:
        print("nutcracker is not installed (apt-get install nutcracker): no twemproxy runs")
        args.modes = [m for m in args.modes if m != "twemproxy"]

    args.out.mkdir(parents=True, exist_ok=True)
    work = args.out / "work"
    work.mkdir(exist_ok=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; results in {args.out}", flush=True)
    records = []
    try:
        for mode, nodes in topologies(args):
            running = []
            try:
                for server in args.servers:
                    topology = Topology(server, mode, nodes, work, binaries)
                    try:
                        running.append(topology.start())
                    except (RuntimeError, OSError) as e:
                        topology.stop()
                        reason = f"{server} {mode} {nodes}: {e}"
                        print(f"  skipped: {reason}", flush=True)
                        records.append({"server": server, "mode": mode, "nodes": nodes, "skipped": str(e)})
                for rep in range(1, args.reps + 1):
                    order = running if rep % 2 else list(reversed(running))
                    for topology in order:
                        records.append(measure(topology, args, rep, args.out))
            finally:
                for topology in running:
                    topology.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = summarize(records, args)
    (args.out / "summary.md").write_text(summary)
    print(summary)


def summarize(records, args):
    lines = [f"Median ops/s of {args.reps} run(s): {args.workload}, {args.connections} connections, pipeline "
             f"{args.pipeline}, {args.data_size} B values, {args.duration} each after {args.warmup} warm-up; "
             f"{os.cpu_count()} cores shared by nodes, proxy and kvbench.", "",
             "| mode | nodes | " + " | ".join(args.servers) + (" | kvd / redis |" if len(args.servers) == 2 else " |"),
             "|---|---|" + "---|" * (len(args.servers) + (1 if len(args.servers) == 2 else 0))]
    for mode, nodes in topologies(args):
        cells, medians = [], {}
        for server in args.servers:
            runs = [r for r in records if (r["server"], r["mode"], r["nodes"]) == (server, mode, nodes)]
            ops = [r["ops_per_sec"] for r in runs if "ops_per_sec" in r and r["errors"] == 0]
            if ops:
                medians[server] = statistics.median(ops)
                cells.append(f"{medians[server]:,.0f}")
            else:
                reasons = {r.get("skipped") or f"{r['errors']} errors: {r['first_error']}" for r in runs}
                cells.append("skipped: " + "; ".join(sorted(reasons))[:120])
        if len(args.servers) == 2:
            cells.append(f"{medians['kvd'] / medians['redis']:.2f}" if len(medians) == 2 else "")
        lines.append(f"| {mode} | {nodes} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
