#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A writable buffer changed by another thread during a call: one thread
renders and digests a 2.4 MB document held in a bytearray (also through a
memoryview and an array('B')) in a loop, while another flips the '{' of its
last object to '0' and back.  The core reads its text more than once without
the GIL, so the module must copy such a buffer first: every call must give
either the document's right result or a clean wirejson.Error, and the
interpreter must not crash.  The loop runs in a child process, so that a
crash is reported as a failure, not lost with the test.

The right results are computed independently: the document is written
compact with its keys sorted and only small integers, so its canonical JSON
is its text (checked against json.dumps), and its data_digest the SHA-256 of
that (hashlib).

usage: test_buffer_race.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import json
import subprocess
import sys

SECONDS = 3.0

CHILD = r'''
import array, hashlib, sys, threading, time
import wirejson

seconds = float(sys.argv[1])
item = '{"a":1,"b":"xyzw","c":[1,2,3]}'
text = "[" + ",".join([item] * (2_400_000 // (len(item) + 1))) + "]"
expected = text
digest = hashlib.sha256(text.encode()).hexdigest()
buf = bytearray(text.encode())
last = buf.rindex(b"{")
stop = threading.Event()


def flip():
    while not stop.is_set():
        buf[last] = ord("0")
        buf[last] = ord("{")


calls = {"right": 0, "error": 0}


def check(result, want):
    if result != want:
        print("wrong result", len(result), flush=True)
        sys.exit(1)
    calls["right"] += 1


flipper = threading.Thread(target=flip)
flipper.start()
deadline = time.monotonic() + seconds
try:
    while time.monotonic() < deadline:
        for doc in (buf, memoryview(buf), memoryview(buf).toreadonly()):
            for func, want in ((wirejson.canonical_json, expected),
                               (wirejson.wire_json, expected),
                               (wirejson.data_digest, digest)):
                try:
                    check(func(doc), want)
                except wirejson.Error as e:
                    if e.code != "syntax":
                        print("unexpected error", e, flush=True)
                        sys.exit(1)
                    calls["error"] += 1
finally:
    stop.set()
    flipper.join()
print(calls["right"], calls["error"], flush=True)
'''

ARRAY_CHILD = r'''
import array, sys, threading, time
import wirejson

seconds = float(sys.argv[1])
text = b"[" + b",".join([b'{"k":[true,null]}'] * 140_000) + b"]"
arr = array.array("B", text)
last = len(text) - 1 - text[::-1].index(b"{")
stop = threading.Event()


def flip():
    while not stop.is_set():
        arr[last] = ord("0")
        arr[last] = ord("{")


flipper = threading.Thread(target=flip)
flipper.start()
deadline = time.monotonic() + seconds
right = errors = 0
try:
    while time.monotonic() < deadline:
        try:
            if wirejson.wire_json_sorted(arr) != text.decode():
                print("wrong result", flush=True)
                sys.exit(1)
            right += 1
        except wirejson.Error:
            errors += 1
finally:
    stop.set()
    flipper.join()
print(right, errors, flush=True)
'''


def run(code, label):
    proc = subprocess.run([sys.executable, "-c", code, str(SECONDS)],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        print("FAIL: %s: exit status %d (negative: killed by a signal)\n%s%s"
              % (label, proc.returncode, proc.stdout, proc.stderr))
        return False
    right, errors = (int(x) for x in proc.stdout.split())
    print("ok: %s: %d right results, %d clean errors" % (label, right, errors))
    if right == 0:
        print("FAIL: %s: no call gave the right result" % label)
        return False
    return True


def main():
    # The child's expectations, checked independently here.
    item = '{"a":1,"b":"xyzw","c":[1,2,3]}'
    text = "[" + ",".join([item] * 3) + "]"
    assert json.dumps(json.loads(text), separators=(",", ":"),
                      sort_keys=True) == text
    text = '[{"k":[true,null]}]'
    assert json.dumps(json.loads(text), separators=(",", ":"),
                      sort_keys=True) == text
    ok = run(CHILD, "bytearray and memoryviews of it")
    ok = run(ARRAY_CHILD, "array('B')") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
