#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Seedable generator of a small-body corpus: request bodies of 0.3-4 KB, the
size LLM clients log most (a chat with a few short messages, often with one
or two tools and their JSON Schemas), one body a line.

The bodies are bench/corpus.py's "small" mix (its shapes, member orders,
numbers and escapes) kept when they fall within 300..4096 bytes; a pure
function of (seed, size).  --int64 keeps every integer within 64 bits, so
that simdjson, the core bench's peer, takes every body.

    bench/small_bodies.py --seed 1 --size 20MB --int64 -o small.jsonl
"""

import argparse
import random
import sys

import corpus

SMALLEST, LARGEST = 300, 4096


def write_small(seed, size, out, int64=False):
    corpus.MIX.clear()
    corpus.MIX.update(corpus.MIXES["small"])
    if int64:
        corpus.MIX["int_max"] = 2**63 - 1
    r = random.Random(seed)
    t = corpus.Text(r)
    written = 0
    while written < size:
        line = corpus.body_text(r, corpus.request(r, t, False)).encode()
        if SMALLEST <= len(line) <= LARGEST:
            out.write(line + b"\n")
            written += len(line) + 1


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", default="20MB", help="e.g. 500KB, 20MB")
    p.add_argument("--int64", action="store_true")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args(argv)
    size = corpus.parse_size(a.size)
    if a.output == "-":
        write_small(a.seed, size, sys.stdout.buffer, a.int64)
    else:
        with open(a.output, "wb") as f:
            write_small(a.seed, size, f, a.int64)


if __name__ == "__main__":
    main(sys.argv[1:])
