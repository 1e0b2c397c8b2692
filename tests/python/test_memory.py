#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""No leak: every function of the module, on text and on Python values, on
valid input and on each error path (wirejson.Error, TypeError, the walker's
depth limit and cycles, Fragment, Conversation), runs in a loop while
tracemalloc (which also sees the core's memory: it allocates through
PyMem_RawMalloc) and the process RSS are measured.  After a warm-up round,
further rounds must leave both flat.

usage: test_memory.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import gc
import os
import sys
import tracemalloc

import wirejson
from wirejson import Fragment

ROUNDS = 4
LOOPS = 400
# Allowed growth from the end of round 1 to the end of the last round.
TRACED_SLACK = 64 << 10
RSS_SLACK = 4 << 20

BODY = ('{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":'
        '[{"type":"function","function":{"name":"f","parameters":{"type":'
        '"object"}}}]}')
VALUE = {"b": [1, 2.5, None, True, "x\u0301", "\ud800"],
         "a": {"z": 10**30, "f": Fragment("[1.0]"), "t": (1, 2)}}
MESSAGES = [{"role": "user", "content": "m%d" % k} for k in range(8)]
CYCLE = []
CYCLE.append(CYCLE)
DEEP = "[" * 1001 + "]" * 1001


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def expect_error(fn, *args):
    try:
        fn(*args)
    except (wirejson.Error, TypeError, ValueError):
        return
    raise AssertionError("%s%r did not fail" % (fn.__name__, args))


def one_round():
    w = wirejson
    texts = w.tool_schemas(BODY, "function", "parameters")
    for _ in range(LOOPS):
        w.wire_json(BODY, "messages", None)
        w.wire_json(VALUE)
        w.wire_json_sorted(BODY.encode())
        w.wire_json_sorted(bytearray(BODY.encode()))
        w.canonical_json(memoryview(BODY.encode()))
        w.canonical_json(VALUE)
        w.data_digest(VALUE)
        w.data_digest(BODY)
        w.message_digest(MESSAGES[0], "name", b"x")
        w.messages_digest(MESSAGES)
        w.prefix_digests(MESSAGES)
        w.prefix_digests('[{"a":1},{"b":[2]}]')
        w.canonical_arguments('{"a":')
        w.canonical_arguments('"\ud800"')
        w.canonical_arguments(b"\xff")
        w.with_top_level(BODY, "model", "x\n")
        w.with_top_level(BODY, "model", VALUE)
        w.with_top_level(BODY, "model", Fragment(b"[1]"))
        w.with_top_level(BODY, None, 1)
        w.tool_schemas(BODY, "function", "parameters")
        w.tool_schemas("{}")
        w.encode_with_schemas(BODY, texts)
        w.encode_with_schemas(BODY, '["{}"]')
        w.wirejson_error("[1,")
        w.wirejson_error_position(b"[\xff]")
        w.wirejson_error(VALUE)
        w.version()
        conv = w.Conversation(MESSAGES)
        conv.append(BODY)
        conv.digest
        len(conv)
        repr(Fragment("x"))
        # Error paths.
        expect_error(w.wire_json, '{"a":1,}')
        expect_error(w.wire_json, '"\ud800"')
        expect_error(w.canonical_json, "[1e400]")
        expect_error(w.data_digest, DEEP)
        expect_error(w.data_digest, CYCLE)
        expect_error(w.data_digest, [float("inf")])
        expect_error(w.data_digest, {1: 2})
        expect_error(w.data_digest, [object()])
        expect_error(w.wire_json, {"a": Fragment("[1,")})
        expect_error(w.message_digest, "[]")
        expect_error(w.messages_digest, [{}, 1])
        expect_error(w.prefix_digests, "[1]")
        expect_error(w.with_top_level, BODY, "model", float("nan"))
        expect_error(w.with_top_level, BODY, "model", Fragment("{"))
        expect_error(w.with_top_level, BODY, 1, 1)
        expect_error(w.tool_schemas, "[")
        expect_error(w.encode_with_schemas, BODY, ["{}", 1])
        expect_error(w.encode_with_schemas, BODY, "[")
        expect_error(w.wire_json, "{}", 1)
        expect_error(w.wire_json_sorted)
        expect_error(conv.append, "[]")
        expect_error(Fragment, 1)


def main():
    tracemalloc.start()
    marks = []
    for r in range(ROUNDS):
        one_round()
        gc.collect()
        marks.append((tracemalloc.get_traced_memory()[0], rss()))
        print("round %d: traced %d bytes, RSS %.1f MB"
              % (r + 1, marks[-1][0], marks[-1][1] / 1e6))
    traced = marks[-1][0] - marks[0][0]
    grown = marks[-1][1] - marks[0][1]
    ok = traced <= TRACED_SLACK and grown <= RSS_SLACK
    print("after round 1: traced %+d bytes (limit %d), RSS %+d bytes (limit "
          "%d): %s" % (traced, TRACED_SLACK, grown, RSS_SLACK,
                       "flat" if ok else "GROWING"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
