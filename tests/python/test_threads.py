#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Eight threads call every function of the module at once, on text and on
Python values, valid input and every kind of error, and check each result
against the one computed alone beforehand; they also share one Conversation.
A last check shows the GIL released while the core works on text: another
thread keeps running during one long data_digest call.

usage: test_threads.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import hashlib
import sys
import threading
import time

import wirejson
from wirejson import Fragment

THREADS = 8
ROUNDS = 100

BODY = ('{"model":"m","messages":[{"role":"user","content":"hi \\u00e9"}],'
        '"tools":[{"type":"function","function":{"name":"f","parameters":'
        '{"type":"object","properties":{"b":{},"a":{}},"required":["b"]}}}]}')
BIG = '{"k":[' + ",".join('{"x":%d,"s":"line\\n%d"}' % (k, k)
                         for k in range(5000)) + "]}"
VALUE = {"b": [1, 2.5, None, True, "x\u0301"], "a": {"z": 10**30,
                                                       "f": Fragment("[1.0]")}}
MESSAGES = [{"role": "user", "content": str(k)} for k in range(20)]


def calls():
    """(name, function, arguments) for every function, errors included."""
    w = wirejson
    texts = w.tool_schemas(BODY, "function", "parameters")
    return [
        ("wire_json", w.wire_json, (BODY, "messages")),
        ("wire_json value", w.wire_json, (VALUE,)),
        ("wire_json big", w.wire_json, (BIG,)),
        ("wire_json_sorted", w.wire_json_sorted, (BODY.encode(),)),
        ("canonical_json", w.canonical_json, (VALUE,)),
        ("data_digest", w.data_digest, (BIG,)),
        ("data_digest value", w.data_digest, (VALUE,)),
        ("message_digest", w.message_digest, (MESSAGES[3], "name")),
        ("messages_digest", w.messages_digest, (MESSAGES,)),
        ("prefix_digests", w.prefix_digests, (MESSAGES,)),
        ("canonical_arguments", w.canonical_arguments, ('{"b":1,"a":',)),
        ("with_top_level", w.with_top_level, (BODY, "model", "x\ny")),
        ("tool_schemas", w.tool_schemas, (BODY, "function", "parameters")),
        ("encode_with_schemas", w.encode_with_schemas, (BODY, texts)),
        ("wirejson_error", w.wirejson_error, ('[1,2',)),
        ("wirejson_error_position", w.wirejson_error_position, (b"[\xff]",)),
        ("version", w.version, ()),
        ("error syntax", w.wire_json, ('{"a":1,}',)),
        ("error type", w.message_digest, ("[]",)),
        ("error value", w.data_digest, ([float("nan")],)),
        ("error TypeError", w.data_digest, ({1: 2},)),
        ("error depth", w.canonical_json, ("[" * 1001 + "]" * 1001,)),
    ]


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return (type(e).__name__, str(e), getattr(e, "offset", None),
                getattr(e, "code", None))


def main():
    table = calls()
    expected = [outcome(fn, args) for _, fn, args in table]
    shared = wirejson.Conversation()
    one = '{"role":"user","content":"same"}'
    failures = []
    start = threading.Barrier(THREADS)

    def worker(t):
        start.wait()
        mine = wirejson.Conversation()
        for r in range(ROUNDS):
            for k in range(len(table)):
                name, fn, args = table[(k + t + r) % len(table)]
                got = outcome(fn, args)
                if got != expected[(k + t + r) % len(table)]:
                    failures.append((t, name, got))
            shared.append(one)
            mine.append(MESSAGES[r % len(MESSAGES)])
            if r % len(MESSAGES) == len(MESSAGES) - 1 and \
                    mine.digest != wirejson.prefix_digests(
                        MESSAGES * (r // len(MESSAGES) + 1))[-1]:
                failures.append((t, "own conversation", r))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    ok = True
    for f in failures[:20]:
        print("FAIL thread %d %s: %r" % (f[0], f[1], f[2:])[:500])
    if failures:
        ok = False
    h = wirejson.message_digest(one)
    want = hashlib.sha256((h * THREADS * ROUNDS).encode()).hexdigest()
    if len(shared) != THREADS * ROUNDS or shared.digest != want:
        print("FAIL shared conversation: %d messages, digest %s"
              % (len(shared), shared.digest))
        ok = False

    # The GIL is released while the core works: a counting thread runs
    # during one long call.
    huge = "[" + ",".join(['"' + "x" * 1000 + '\\n"'] * 100000) + "]"
    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    before = ticks[0]
    t0 = time.perf_counter()
    wirejson.canonical_json(huge)
    elapsed = time.perf_counter() - t0
    during = ticks[0] - before
    stop.set()
    counter.join()
    print("a %.0f MB call took %.3f s; the other thread counted %d meanwhile"
          % (len(huge) / 1e6, elapsed, during))
    if during < 1000:
        print("FAIL the other thread did not run while the core worked")
        ok = False
    print("%d threads x %d rounds x %d calls: %s"
          % (THREADS, ROUNDS, len(table), "ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
