#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""pthread_create failing (issue 40 item 9): wirejson works on with the
threads it got, or, with no worker or no writing thread, says so and exits
with status 2.

usage: test_threads.py build/wirejson path/to/fail_pthread_create.so
"""

import os
import subprocess
import sys

CLI, SHIM = sys.argv[1:3]
DATA = b"".join(b'{"b":%d, "a":[%d]}\n' % (k, k) for k in range(50000))
WANT = b"".join(b'{"a":[%d],"b":%d}\n' % (k, k) for k in range(50000))


def run(failing):
    env = dict(os.environ, LD_PRELOAD=SHIM, WJ_TEST_FAIL_CALL=str(failing))
    p = subprocess.run([CLI, "wire_json", "-j", "4", "--no-progress"],
                       input=DATA, capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode()


fails = []
# calls 0-3 start the four workers, call 4 the writing thread
for failing in (1, 2, 3):  # 1 to 3 workers of 4, and the writing thread
    rc, out, err = run(failing)
    if rc != 0 or out != WANT or err:
        fails.append(f"{failing} workers: rc {rc} {len(out)} bytes {err!r}")
rc, out, err = run(0)  # no worker
if rc != 2 or out or "wirejson: cannot start a thread: " not in err:
    fails.append(f"no thread: rc {rc} {out[:50]!r} {err!r}")
rc, out, err = run(4)  # four workers, no writing thread
if rc != 2 or out or "wirejson: cannot start a thread: " not in err:
    fails.append(f"no writing thread: rc {rc} {out[:50]!r} {err!r}")
for f in fails:
    print("FAIL", f)
sys.exit(1 if fails else 0)
