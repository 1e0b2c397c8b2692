#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""prefix_digests against messages_digest of each prefix, computed here.

docs/contract.md §6: a message's digest is SHA-256 of the canonical JSON of the message
without its null members, `extra` and nothing else; a conversation's is
SHA-256 of its messages' hex digests, concatenated.  Element k of
`prefix_digests` is the digest of the first k+1 messages.  Checked on
random conversations, on one of 20,000 messages (which a pass per prefix
could not finish in the test's time), and on errors, which read as
messages_digest's for the whole array under the name prefix_digests.

usage: prefix_digests.py WIREJQ
"""
import hashlib
import json
import random
import subprocess
import sys


def canonical(v):
    """RFC 8785 for integers, strings, arrays, objects, true/false/null."""
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v[k]) for k in keys) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def message_digest(m):
    kept = {k: v for k, v in m.items() if v is not None and k != "extra"}
    return hashlib.sha256(canonical(kept).encode("utf-8")).hexdigest()


def prefixes(messages):
    h = hashlib.sha256()
    out = []
    for m in messages:
        h.update(message_digest(m).encode("ascii"))
        out.append(h.copy().hexdigest())
    return out


def random_message(r):
    m = {"role": r.choice(["user", "assistant", "tool", "system"]),
         "content": r.choice(["hi", "", "é𝄞\u2028", None, [{"type": "text", "text": "x"}]])}
    if r.random() < 0.3:
        m["extra"] = {"usage": r.randrange(100)}
    if r.random() < 0.3:
        m["name"] = None
    if r.random() < 0.2:
        m["tool_calls"] = [{"id": "c%d" % r.randrange(9), "function": {"name": "f", "arguments": "{}"}}]
    return m


def wirejq(exe, program, stdin):
    p = subprocess.run([exe, "-c", program], input=stdin, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    exe = sys.argv[1]
    r = random.Random(7)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL:", what)

    conversations = [[]] + [[random_message(r) for _ in range(r.randrange(1, 12))] for _ in range(200)]
    stdin = "".join(json.dumps(c) + "\n" for c in conversations)
    status, out, err = wirejq(exe, "prefix_digests", stdin)
    got = [json.loads(line) for line in out.splitlines()]
    check(status == 0 and err == "", f"status {status}, stderr {err!r}")
    check(len(got) == len(conversations), f"{len(got)} results for {len(conversations)} conversations")
    for c, g in zip(conversations, got):
        check(g == prefixes(c), f"prefix_digests of {json.dumps(c)[:200]}: {g}")
    # the last element is messages_digest of the whole conversation
    status, out, err = wirejq(exe, "[prefix_digests[-1], messages_digest]", stdin)
    for c, line in zip(conversations[1:], out.splitlines()[1:]):
        last, whole = json.loads(line)
        check(last == whole == prefixes(c)[-1], f"last prefix of {json.dumps(c)[:100]}")

    long = [random_message(r) for _ in range(20000)]
    status, out, err = wirejq(exe, "prefix_digests", json.dumps(long) + "\n")
    check(status == 0 and json.loads(out) == prefixes(long), f"20,000 messages: status {status} {err!r}")

    # errors: caught, and named as prefix_digests
    for bad in ("{}", "1", '"x"', "null", '[{"role":"user"}, 3]', '[[], {}]', '[{}, {}, "x"]'):
        status, out, err = wirejq(exe, "[(try prefix_digests catch .), (try messages_digest catch .)]", bad + "\n")
        mine, theirs = json.loads(out) if status == 0 else (None, None)
        check(isinstance(theirs, str) and theirs.startswith("messages_digest: ")
              and mine == "prefix_digests: " + theirs[len("messages_digest: "):],
              f"prefix_digests of {bad}: {mine!r} (messages_digest says {theirs!r})")
    status, out, err = wirejq(exe, "prefix_digests", "[1]\n")
    check(status == 5 and err.startswith("wirejq: error (at <stdin>:1): prefix_digests: "),
          f"uncaught error: status {status}, {err!r}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
