#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Ctrl-C stops a long call: a child process runs data_digest on a ~300 MB
str while a timer thread sends it SIGINT after 0.3 s.  The module gives the
core an allocator whose interrupted hook runs the pending signal handlers;
the call must raise KeyboardInterrupt (not a wirejson.Error, not a result)
within 0.5 s of the signal.

This passes only where the core asks wj_alloc's interrupted hook (about once
a MiB of input read or output written, core/wirejson.h); until it does, the
call runs to its end and the interrupt comes too late, which this test
reports as such.

usage: test_interrupt.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import subprocess
import sys

LIMIT = 0.5

CHILD = r'''
import os, signal, sys, threading, time
import wirejson

# numbers: seconds of work whatever the machine, read and written a MiB
# at a time
doc = '[' + '0.1,' * 75_000_000 + '0.1]'
sent = []


def interrupt():
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)


start = time.monotonic()
returned = None
threading.Timer(0.3, interrupt).start()
try:
    returned = wirejson.data_digest(doc)
    # a signal's handler runs at the latest right after the call returns
    time.sleep(2)
    print("finished", "%.3f" % (time.monotonic() - start))
except KeyboardInterrupt:
    now = time.monotonic()
    if returned is not None:  # raised after the call, not by it
        print("finished", "%.3f" % (now - start))
    else:
        print("interrupted", now - sent[0] if sent else -1.0,
              "%.3f" % (now - start))
except wirejson.Error as e:
    print("error", repr(str(e)))
'''


def main():
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True,
                          text=True, timeout=300)
    words = proc.stdout.split()
    if proc.returncode != 0 or not words:
        print("FAIL: exit status %d\n%s%s" % (proc.returncode, proc.stdout,
                                              proc.stderr))
        return 1
    if words[0] != "interrupted":
        print("FAIL: the call was not interrupted: %s" % proc.stdout.strip())
        return 1
    latency = float(words[1])
    if not 0 <= latency <= LIMIT:
        print("FAIL: KeyboardInterrupt %.3f s after SIGINT (limit %.1f s; "
              "the call's total %s s): the core does not ask the "
              "interrupted hook, or not often enough"
              % (latency, LIMIT, words[2]))
        return 1
    print("ok: KeyboardInterrupt %.3f s after SIGINT" % latency)
    return 0


if __name__ == "__main__":
    sys.exit(main())
