#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks the test oracle itself: jcs.canonical must agree with a canonical
JSON built on Node's own JSON.parse / JSON.stringify (keys sorted by UTF-16
code units, as JavaScript's default sort does) on every valid body of the
sample log, on 20,000 seeded random doubles and on awkward strings.
Usage: check_oracle.py NODE"""

import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jcs  # noqa: E402
import sample_oracle  # noqa: E402

NODE_CANONICAL = r"""
const canon = (v) => {
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  if (v !== null && typeof v === 'object')
    return '{' + Object.keys(v).sort().map(
      (k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
  return JSON.stringify(v);
};
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(texts.map((t) => canon(JSON.parse(t)))));
"""


def random_doubles(count):
    rng = random.Random(8785)
    out = []
    while len(out) < count:
        kind = rng.random()
        if kind < 0.5:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if x != x or x in (float("inf"), float("-inf")):
                continue
        elif kind < 0.8:
            x = rng.uniform(-1e6, 1e6) * 10.0 ** rng.randint(-30, 30)
        else:
            x = float(rng.randint(-10 ** 22, 10 ** 22))
        out.append(repr(x))
    return out


def main():
    node = sys.argv[1]
    log = sample_oracle.SampleLog()
    texts = [log.by_id[i]["body"] for i in log.valid]
    texts += ["[%s]" % ",".join(random_doubles(20000))]
    texts += ['"\\ud800 \\udfff x\\u001f\\u007f\\b\\f/\\u2028"',
              '{"\\ud83d\\ude00":1,"\\uff5e":2,"\\u00e9":3,"e":4,"":5}',
              '[1e21,1e-7,0.000001,-0.0,5e-324,1.7976931348623157e308,100,1E2,0.1]']
    run = subprocess.run([node, "-e", NODE_CANONICAL], input=json.dumps(texts),
                         capture_output=True, text=True, check=True)
    theirs = json.loads(run.stdout)
    failures = 0
    for text, expected in zip(texts, theirs):
        ours = jcs.canonical(text)
        if ours != expected:
            failures += 1
            where = next(k for k in range(min(len(ours), len(expected)) + 1)
                         if ours[k:k + 1] != expected[k:k + 1])
            print("FAIL at char %d:\n  jcs  %s\n  node %s"
                  % (where, ours[where - 40:where + 40], expected[where - 40:where + 40]))
    print("check_oracle: %d texts, %d differ" % (len(texts), failures))
    return 1 if failures or len(theirs) != len(texts) else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_oracle.py NODE")
    sys.exit(main())
