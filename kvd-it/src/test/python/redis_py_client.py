"""redis-py through kvd: set/get, a pipeline, scan_iter and expire.

Usage: python3 redis_py_client.py PORT. Exits 0 when every check holds; an AssertionError's
traceback names the one that failed.
"""
import sys

import redis

KEYS = 300


def main(port):
    r = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)

    assert r.ping() is True
    assert r.set("py:k", "v") is True
    assert r.get("py:k") == "v"
    assert r.get("py:missing") is None
    assert r.incr("py:n") == 1
    assert r.mget("py:k", "py:missing") == ["v", None]

    pipe = r.pipeline(transaction=False)
    for i in range(KEYS):
        pipe.set("py:scan:%d" % i, i)
        pipe.set("py:other:%d" % i, i)
    for i in range(KEYS):
        pipe.get("py:scan:%d" % i)
    replies = pipe.execute()
    assert replies[:2 * KEYS] == [True] * (2 * KEYS), replies[:2 * KEYS]
    assert replies[2 * KEYS:] == [str(i) for i in range(KEYS)], replies[2 * KEYS:]

    scanned = list(r.scan_iter(match="py:scan:*", count=20))
    assert len(scanned) == KEYS, len(scanned)
    assert sorted(scanned) == sorted("py:scan:%d" % i for i in range(KEYS)), scanned

    assert r.expire("py:k", 100) is True
    assert 0 < r.ttl("py:k") <= 100, r.ttl("py:k")
    assert r.persist("py:k") is True
    assert r.ttl("py:k") == -1
    assert r.set("py:ex", "v", ex=100) is True
    assert 0 < r.pttl("py:ex") <= 100000, r.pttl("py:ex")
    assert r.expire("py:missing", 100) is False

    assert r.info("server")["redis_version"] == "7.0.15"
    print("redis-py %s: all checks passed" % redis.__version__)


if __name__ == "__main__":
    main(int(sys.argv[1]))
