#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The benchmark's Python contender: what a user would write with the stdlib.

    peers.py JOB FILE     (FILE is JSON Lines; one result line per input line)

JOB is one of
  render           json.dumps(sort_keys=True, separators=(',', ':'))
  digest           SHA-256 hex of that rendering (hashlib)
  messages_digest  each line an array of messages: SHA-256 of the
                   concatenated per-message digests
  message_digest   each line a message: SHA-256 of its rendering without
                   null members and without "extra"

ensure_ascii=False keeps the output UTF-8, as a digest of the wire bytes needs.
"""

import hashlib
import json
import sys


def render(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def message_digest(m):
    return sha(render({k: v for k, v in m.items() if v is not None and k != "extra"}))


JOBS = {
    "render": lambda v: render(v),
    "digest": lambda v: sha(render(v)),
    "messages_digest": lambda a: sha("".join(message_digest(m) for m in a)),
    "message_digest": message_digest,
}


def main(job, path):
    fn = JOBS[job]
    out = sys.stdout.write
    with open(path, "rb") as f:
        for line in f:
            out(fn(json.loads(line)))
            out("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
