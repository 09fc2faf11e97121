#!/usr/bin/env python3
"""Cost of the first write to fresh memory, per 4 KB page, against a second write to the same
memory, in 4 KB pages and in transparent huge pages (madvise(MADV_HUGEPAGE), as the JVM asks for
its heap under -XX:+UseTransparentHugePages): why the store's region arrays are allocated (zeroed)
off the event loop, and why config/jvm.options asks for huge pages.
Usage: first_touch.py [MB=256]"""
import mmap
import sys
import time

size = int(sys.argv[1] if len(sys.argv) > 1 else 256) << 20
pages = size // 4096
for huge in (False, True):
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if huge:
        memory.madvise(mmap.MADV_HUGEPAGE)
    for label in ("first write", "second write"):
        start = time.perf_counter()
        for offset in range(0, size, 4096):
            memory[offset] = 1
        elapsed = time.perf_counter() - start
        print(f"{'2 MB' if huge else '4 KB'} pages, {label}: {elapsed * 1e3:.1f} ms for {size >> 20} MB, "
              f"{elapsed / pages * 1e6:.2f} us per 4 KB")
    memory.close()
