#!/usr/bin/env python3
"""The resident set of a server held at maxmemory while ten times as much is written, kvd and
redis-server in the same run: 1 MB strings, then 10,000-member hashes (20-byte values, written 100
fields per HSET). kvd runs as docs/configuration.md asks (java @config/jvm.options, -Xmx of
maxmemory + 128 MB). Prints the largest VmRSS seen and used_memory at the end.

usage: [KVD_JAR=...] [MAXMEMORY_MB=64] bounded_rss.py   (from the repository root)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cache_workload import MAXMEMORY_MB, encode, rss_bytes, start  # noqa: E402

import tempfile  # noqa: E402


def info_field(c, name):
    for line in c.call(b"INFO", b"everything").decode().split("\r\n"):
        if line.startswith(name + ":"):
            return line.split(":", 1)[1]
    return "?"


def write(c, pid, commands_per_batch, batches, make):
    largest = 0
    for b in range(batches):
        c.sock.sendall(b"".join(make(b, i) for i in range(commands_per_batch)))
        for _ in range(commands_per_batch):
            c.reply()
        largest = max(largest, rss_bytes(pid))
    return largest


def strings(b, i):
    return encode(b"SET", b"big:%d:%d" % (b, i), b"x" * (1 << 20))


def hashes(b, i):
    # Batch b writes 100 fields of each of 100 commands: hash number b // 100, fields from (b % 100) * 10000.
    fields = []
    for f in range(100):
        fields += [b"field:%d" % ((b % 100) * 100 * 100 + i * 100 + f), b"v" * 20]
    return encode(b"HSET", b"hash:%d" % (b // 100), *fields)


def main():
    total = 10 * MAXMEMORY_MB << 20
    for server in ("kvd", "redis"):
        for name, per_batch, make, bytes_per_batch in (("1 MB strings", 4, strings, 4 << 20),
                                                        ("10,000-member hashes", 100, hashes, 100 * 100 * 20)):
            with tempfile.TemporaryDirectory() as workdir:
                proc, port, c = start(server, "allkeys-lru", workdir)
                try:
                    largest = write(c, proc.pid, per_batch, total // bytes_per_batch, make)
                    print("%-5s %-22s: wrote %d MB, largest RSS %.1f MB, used_memory %s, evicted_keys %s"
                          % (server, name, total >> 20, largest / 2 ** 20, info_field(c, "used_memory"),
                             info_field(c, "evicted_keys")), flush=True)
                finally:
                    proc.kill()
                    proc.wait()


if __name__ == "__main__":
    main()
