#!/usr/bin/env python3
"""Captures Redis 7.0.15's COMMAND INFO and COMMAND DOCS replies for every command in kvd's table.

kvd serves these bytes as its own COMMAND INFO/DOCS (see CommandDocs.java). Run from the
repository root after adding a command to CommandTable.java:

    python3 kvd-server/src/test/scripts/capture_command_docs.py

It starts a throwaway redis-server on a free port, asks it about the table's commands, keeps
only the subcommands kvd implements (SUBCOMMANDS below), adds CLIENT SETINFO as Redis 7.2
documents it (7.0 lacks it), and writes command-info.resp and command-docs.resp; then the same
asked in RESP3 (HELLO 3: flags, categories and key specs as sets, docs as maps) into
command-info-resp3.resp and command-docs-resp3.resp, which RESP3 clients are sent.
"""
import os
import re
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.abspath(__file__)) + "/../../.."
TABLE = ROOT + "/src/main/java/io/kvd/server/command/CommandTable.java"
OUT = ROOT + "/src/main/resources/io/kvd/server/keyspec/"

# The subcommands each container implements; CommandDocsTest checks these against the handlers.
SUBCOMMANDS = {
    "acl": ["cat", "deluser", "dryrun", "getuser", "genpass", "list", "load", "log", "save", "setuser", "users", "whoami", "help"],
    "client": ["id", "setname", "getname", "list", "info", "kill", "setinfo", "unblock", "reply", "no-evict", "pause", "unpause", "tracking", "caching", "getredir", "trackinginfo", "help"],
    "config": ["get", "set", "resetstat", "rewrite", "help"],
    "command": ["count", "info", "docs", "getkeys", "getkeysandflags", "list", "help"],
    "object": ["encoding", "freq", "idletime", "refcount", "help"],
    "memory": ["doctor", "malloc-stats", "purge", "stats", "usage", "help"],
    "pubsub": ["channels", "numpat", "numsub", "shardchannels", "shardnumsub", "help"],
    "script": ["exists", "flush", "kill", "load", "help"],
    "xinfo": ["consumers", "groups", "stream", "help"],
    "xgroup": ["create", "createconsumer", "delconsumer", "destroy", "setid", "help"],
    "function": ["load", "delete", "list", "stats", "kill", "flush", "dump", "restore", "help"],
    "cluster": ["countkeysinslot", "getkeysinslot", "info", "keyslot", "myid", "nodes", "slots", "shards", "help"],
    "slowlog": ["get", "len", "reset", "help"],
    "latency": ["doctor", "graph", "history", "latest", "reset", "histogram", "help"],
}

# CLIENT SETINFO as Redis 7.2's COMMAND INFO and COMMAND DOCS describe it.
SETINFO_INFO = ("*", [("$", b"client|setinfo"), (":", 4),
                      ("*", [("+", "noscript"), ("+", "loading"), ("+", "stale")]),
                      (":", 0), (":", 0), (":", 0),
                      ("*", [("+", "@slow"), ("+", "@connection")]),
                      ("*", [("$", b"request_policy:all_nodes"), ("$", b"response_policy:all_succeeded")]),
                      ("*", []), ("*", [])])


def as_resp3(r, shape):
    """A RESP2 literal in RESP3's types: shape names, per position, "~" (set) or "%" (map) or a nested shape."""
    kind, v = r
    if isinstance(shape, str):
        kind = shape
        return (kind, v)
    return (shape[0], [as_resp3(e, shape[1].get(i, shape[1].get("*"))) if shape[1].get(i, shape[1].get("*")) else e
                       for i, e in enumerate(v)])


def bulk(text):
    return ("$", text.encode())


def token_arg(name, token):
    return ("*", [bulk("name"), bulk(name), bulk("type"), bulk("string"), bulk("token"), bulk(token)])


SETINFO_DOCS = ("*", [bulk("summary"), bulk("Sets information specific to the client or connection."),
                      bulk("since"), bulk("7.2.0"), bulk("group"), bulk("connection"),
                      bulk("complexity"), bulk("O(1)"), bulk("arguments"),
                      ("*", [("*", [bulk("name"), bulk("attr"), bulk("type"), bulk("oneof"), bulk("arguments"),
                                    ("*", [token_arg("libname", "LIB-NAME"), token_arg("libver", "LIB-VER")])])])])


# The same in RESP3's types: flags, categories, tips and key specs are sets; docs and arguments maps.
SETINFO_INFO_RESP3 = as_resp3(SETINFO_INFO, ("*", {2: "~", 6: "~", 7: "~", 8: "~"}))
SETINFO_DOCS_RESP3 = as_resp3(SETINFO_DOCS, ("%", {9: ("*", {"*": ("%", {5: ("*", {"*": "%"})})})}))


def encode(args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


class Reader:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            self.buf += self.sock.recv(1 << 16)
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def exact(self, n):
        while len(self.buf) < n + 2:
            self.buf += self.sock.recv(1 << 16)
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def reply(self):
        line = self.line()
        kind, rest = chr(line[0]), line[1:]
        if kind in "+-,":
            return (kind, rest.decode())
        if kind == ":":
            return (kind, int(rest))
        if kind == "_":
            return (kind, None)
        n = int(rest)
        if kind == "$":
            return (kind, None if n < 0 else self.exact(n))
        if kind == "%":
            n *= 2
        return (kind, None if n < 0 else [self.reply() for _ in range(n)])


def serialize(r):
    kind, v = r
    if kind in "+-,":
        return (kind + v + "\r\n").encode()
    if kind == ":":
        return b":%d\r\n" % v
    if kind == "_":
        return b"_\r\n"
    if kind == "$":
        return b"$-1\r\n" if v is None else b"$%d\r\n%s\r\n" % (len(v), v)
    if v is None:
        return b"*-1\r\n"
    count = len(v) // 2 if kind == "%" else len(v)
    return kind.encode() + b"%d\r\n" % count + b"".join(serialize(e) for e in v)


def kept(container, full_name):
    return full_name.split("|")[1] in SUBCOMMANDS[container]


def filter_info(entry):
    name = entry[1][0][1].decode()
    if name in SUBCOMMANDS:
        subs = [s for s in entry[1][9][1] if kept(name, s[1][0][1].decode())]
        if name == "client":
            subs.append(SETINFO_INFO if entry[0] == "*" and entry[1][2][0] == "*" else SETINFO_INFO_RESP3)
        entry[1][9] = (entry[1][9][0], subs)
    return entry


def filter_docs(name, docs):
    if name in SUBCOMMANDS:
        fields = docs[1]
        i = [f[1] for f in fields[0::2]].index(b"subcommands") * 2
        pairs = fields[i + 1][1]
        subs = []
        for j in range(0, len(pairs), 2):
            if kept(name, pairs[j][1].decode()):
                subs += pairs[j:j + 2]
        if name == "client":
            subs += [bulk("client|setinfo"), SETINFO_DOCS if docs[0] == "*" else SETINFO_DOCS_RESP3]
        fields[i + 1] = (fields[i + 1][0], subs)
    return docs


def capture(names, protocol):
    """COMMAND INFO and COMMAND DOCS of the names from a throwaway redis-server, in RESP{protocol}."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                sock = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        reader = Reader(sock)
        if protocol == 3:
            sock.sendall(encode(["HELLO", "3"]))
            reader.reply()
        sock.sendall(encode(["COMMAND", "INFO"] + names))
        infos = reader.reply()[1]
        sock.sendall(encode(["COMMAND", "DOCS"] + names))
        docs = reader.reply()[1]
    finally:
        server.terminate()
        server.wait()
    return infos, docs


def write(names, infos, docs, suffix):
    missing = [n for n, i in zip(names, infos) if i[1] is None]
    if missing:
        raise SystemExit("Redis does not know: " + ", ".join(missing))
    docs_by_name = {docs[i][1].decode(): docs[i + 1] for i in range(0, len(docs), 2)}
    with open(OUT + "command-info" + suffix + ".resp", "wb") as f:
        f.write(serialize(("*", [filter_info(i) for i in infos])))
    with open(OUT + "command-docs" + suffix + ".resp", "wb") as f:
        pairs = []
        for n in names:
            pairs += [bulk(n), filter_docs(n, docs_by_name[n])]
        f.write(serialize(("*", pairs)))


def main():
    names = re.findall(r'command\("([^"]+)"', open(TABLE).read())
    write(names, *capture(names, 2), "")
    write(names, *capture(names, 3), "-resp3")


if __name__ == "__main__":
    main()
