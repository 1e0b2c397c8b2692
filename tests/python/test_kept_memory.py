#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job's tasks keep the memory they free (keep_freed_memory):
under MALLOC_TRIM_THRESHOLD_=65536, as Dask's nanny starts its workers,
each fresh 4 MiB buffer is otherwise new memory, a page fault every 4 KiB.
Counted with getrusage's minor faults in child processes:

- with the variable and no hold, 20 buffers of 4 MiB fault about 20 x 1024
  times (the cost this fixes is there to be fixed);
- held, they fault about once (the first buffer), also when held twice and
  let go once (holds nest);
- let go, the memory goes back to the system (RSS falls) and faults come
  back;
- without the variable, a hold changes nothing glibc does by itself.

usage: test_kept_memory.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import ast
import os
import subprocess
import sys

CHILD = r'''
import resource, sys
from wirejson._wirejson import keep_freed_memory

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

def buffers(n=20):
    before = faults()
    for _ in range(n):
        b = b"x" * (4 << 20)
        del b
    return faults() - before

plan = sys.argv[1]
out = {}
if plan == "none":
    out["faults"] = buffers()
elif plan == "held":
    keep_freed_memory(True)
    out["faults"] = buffers()
    keep_freed_memory(False)
elif plan == "nested":
    keep_freed_memory(True)
    keep_freed_memory(True)
    keep_freed_memory(False)
    out["faults"] = buffers()
    keep_freed_memory(False)
elif plan == "released":
    keep_freed_memory(True)
    keep_freed_memory(True)
    keep_freed_memory(False)
    big = [b"x" * (4 << 20) for _ in range(8)]
    del big
    held_rss = rss()
    keep_freed_memory(False)
    out["dropped"] = held_rss - rss()
    out["faults"] = buffers()
print(out)
'''

PAGES = (4 << 20) // 4096


def child(plan, trim):
    env = dict(os.environ)
    env.pop("MALLOC_MMAP_THRESHOLD_", None)
    env.pop("GLIBC_TUNABLES", None)
    if trim:
        env["MALLOC_TRIM_THRESHOLD_"] = "65536"
    else:
        env.pop("MALLOC_TRIM_THRESHOLD_", None)
    out = subprocess.run([sys.executable, "-c", CHILD, plan], env=env,
                         check=True, capture_output=True, text=True).stdout
    return ast.literal_eval(out)


def main():
    failures = []

    def check(what, ok, got):
        print("%-58s %s (%s)" % (what, "ok" if ok else "FAILED", got))
        if not ok:
            failures.append(what)

    n = 20
    got = child("none", True)
    check("trim threshold set, not held: a fault a page",
          got["faults"] >= n * PAGES // 2, got)
    got = child("held", True)
    check("held: about one buffer's faults", got["faults"] <= 3 * PAGES, got)
    got = child("nested", True)
    check("held twice, let go once: still held",
          got["faults"] <= 3 * PAGES, got)
    got = child("released", True)
    check("let go: the memory is given back", got["dropped"] >= 16 << 20,
          got)
    check("let go: faults come back", got["faults"] >= n * PAGES // 2, got)
    plain = child("none", False)["faults"]
    held = child("held", False)["faults"]
    check("no variable: glibc reuses by itself, held or not",
          plain <= 3 * PAGES and held <= 3 * PAGES, (plain, held))
    if failures:
        sys.exit("FAILED: %s" % "; ".join(failures))


if __name__ == "__main__":
    main()
