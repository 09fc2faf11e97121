"""Starting kvd and redis-server for the scripts of this folder: a free port, and a server
started with the same options, returned once it logs that it is ready."""
import os, socket, subprocess, threading, time

JVM_OPTIONS = os.path.join(os.path.dirname(__file__), "../../../../../config/jvm.options")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind, jar, options):
    """kvd (the README's command) or redis-server with options; (process, seconds to ready)."""
    cmd = (["java", "@" + JVM_OPTIONS, "-jar", jar] if kind == "kvd" else ["redis-server"]) + options
    began = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        if "Ready to accept connections" in line:
            break
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, time.monotonic() - began
