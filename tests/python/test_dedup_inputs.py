#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job's inputs and set-up errors (docs/contract.md §12).

  * A FILE that is a directory gives its regular files, recursively, the
    entries of each directory in the order of their names' bytes, each F
    the argument joined with the relative path; a FILE that does not exist
    but holds a glob character is a glob, its matches sorted; gzip is
    recognised by its magic bytes whatever the name.  The output is checked
    against plain Python (tests/conv/jcs.py's data_digest per line), the
    file order against a list written out here.
  * Bad set-up fails before any work, with one line on stderr and exit
    status 2, and DIR not created: a missing input, a glob matching
    nothing, an --out that is a file, workers that cannot import wirejson
    (a scheduler and a worker started here without it; the message says
    how to start them), an unreadable input (unless run as root).
  * A gzip stream that ends early: exit status 1, one line naming the
    file, no traceback, DIR as it was.
  * Numbers agree with their nouns: "1 line", "1 duplicate".

usage: test_dedup_inputs.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import gzip
import json
import os
import random
import sys
import tempfile

from dedup_common import Cluster, Expect, check, finish, job, tree

BODIES = [{"model": "m%d" % (k % 4), "messages": [{"role": "user",
                                                   "content": "q%d" % (k % 9)}],
           "temperature": k % 3} for k in range(40)]


def lines_for(rng, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            out.append(rng.choice([b'{"a":', b"[1,]", b"NaN"]))
        elif r < 0.15:
            out.append(b"  ")
        else:
            body = dict(rng.choice(BODIES))
            items = list(body.items())
            rng.shuffle(items)
            sep = rng.choice([",", ", ", " ,"])
            out.append(("{" + sep.join(json.dumps(k) + ":" + json.dumps(v)
                                       for k, v in items) + "}").encode())
    return out


def write(path, lines, gz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = b"\n".join(lines) + b"\n"
    with open(path, "wb") as f:
        f.write(gzip.compress(data) if gz else data)


def one_line_error(label, code, err, status, *words):
    text = err.decode(errors="replace")
    check(code == status, "%s: exit %d, want %d" % (label, code, status))
    check(text.count("\n") == 1 and text.startswith("wirejson.dedup: error: "),
          "%s: not one line on stderr: %r" % (label, text[-500:]))
    check("Traceback" not in text, "%s: a traceback" % label)
    for w in words:
        check(w in text, "%s: %r not in the message %r" % (label, w, text))


def main():
    rng = random.Random(33)
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-inputs-") as tmp:
        # The tree: names whose byte order is not their locale order, a
        # subdirectory sorted among the files, gzip named .log, plain .gz.
        files = {"in/logs/b.jsonl": False, "in/logs/B.jsonl": False,
                 "in/logs/a.jsonl": False, "in/logs/a/inner.jsonl": False,
                 "in/logs/a-z.jsonl": False, "in/logs/zz.log": True,
                 "in/logs/plain.gz": False, "in/g2.jsonl": False,
                 "in/g10.jsonl": True, "in/single.jsonl": False}
        content = {}
        for name, gz in files.items():
            content[name] = lines_for(rng, rng.randrange(20, 60))
            write(os.path.join(tmp, name), content[name], gz)
        os.mkfifo(os.path.join(tmp, "in", "logs", "zz-fifo"))  # not regular
        order = ["in/logs/B.jsonl", "in/logs/a/inner.jsonl",
                 "in/logs/a-z.jsonl", "in/logs/a.jsonl", "in/logs/b.jsonl",
                 "in/logs/plain.gz", "in/logs/zz.log",
                 "in/g10.jsonl", "in/g2.jsonl", "in/single.jsonl"]
        expect = Expect(len(order))
        for name in order:
            expect.add_file(name, content[name])
        args = ["in/logs", "in/g*.jsonl", "in/single.jsonl"]
        code, out, _, _ = job(["--workers", "1", "--out", "out"] + args, tmp)
        check(code == 0, "the run over a directory and a glob failed")
        got = tree(os.path.join(tmp, "out"))
        want = expect.parts(lambda fi, n: content[order[fi]][n - 1])
        check({k: v for k, v in got.items() if k != "summary.json"} == want,
              "the parts differ from the expectation: %r" % sorted(
                  k for k in set(got) | set(want)
                  if k != "summary.json" and got.get(k) != want.get(k)))
        with open(os.path.join(tmp, "out", "summary.json")) as f:
            summary = json.load(f)
        check({k: summary[k] for k in expect.totals()} == expect.totals(),
              "summary %r, want %r" % (summary, expect.totals()))
        check([(e["file"], e["line"]) for e in summary["errors"]] ==
              [(f, n) for f, n, _ in expect.errors][:100],
              "the errors are not the invalid lines in file and line order")

        # Numbers agree with their nouns.
        write(os.path.join(tmp, "two.jsonl"), [b'{"a":1}', b'{ "a" : 1 }'])
        write(os.path.join(tmp, "one.jsonl"), [b'{"a":1}'])
        code, out, _, _ = job(["--workers", "1", "--out", "o2", "two.jsonl"], tmp)
        check(out.decode() == "2 lines: 2 valid, 0 invalid, 1 distinct, "
              "1 duplicate -> o2\n", "plural: %r" % out)
        code, out, _, _ = job(["--workers", "1", "--out", "o1", "one.jsonl"], tmp)
        check(out.decode() == "1 line: 1 valid, 0 invalid, 1 distinct, "
              "0 duplicates -> o1\n", "singular: %r" % out)

        # Set-up errors: exit 2, one line, DIR not created, nothing staged.
        open(os.path.join(tmp, "a-file"), "wb").close()
        cases = [("a missing input", ["missing.jsonl"], "x1", ["missing.jsonl"]),
                 ("a glob matching nothing", ["in/*.nothing"], "x2",
                  ["in/*.nothing"]),
                 ("--out a file", ["one.jsonl"], "a-file", ["a-file"]),
                 ("a missing input after good ones",
                  ["one.jsonl", "in/logs", "in/nope"], "x3", ["in/nope"])]
        if os.geteuid() != 0:
            os.chmod(os.path.join(tmp, "in", "g2.jsonl"), 0)
            cases.append(("an unreadable input", ["in/g2.jsonl"], "x4",
                          ["in/g2.jsonl"]))
        else:
            print("  (run as root: every file is readable, the unreadable "
                  "input case is left out)")
        for label, files_, out_dir, words in cases:
            code, _, err, _ = job(["--workers", "1", "--out", out_dir] + files_,
                                  tmp)
            one_line_error(label, code, err, 2, *words)
            if out_dir != "a-file":
                check(not os.path.exists(os.path.join(tmp, out_dir)),
                      "%s: --out was created" % label)
        if os.geteuid() != 0:
            os.chmod(os.path.join(tmp, "in", "g2.jsonl"), 0o644)

        # A gzip stream that ends early: exit 1, DIR as it was.
        with open(os.path.join(tmp, "in", "logs", "zz.log"), "rb") as f:
            whole = f.read()
        with open(os.path.join(tmp, "cut.jsonl.gz"), "wb") as f:
            f.write(whole[:len(whole) // 2])
        before = tree(os.path.join(tmp, "o1"))
        code, _, err, _ = job(["--workers", "1", "--out", "o1", "one.jsonl",
                               "cut.jsonl.gz"], tmp)
        one_line_error("a gzip stream that ends early", code, err, 1,
                       "cut.jsonl.gz", "ends early")
        check(tree(os.path.join(tmp, "o1")) == before,
              "a failed run changed DIR")

        # Workers that cannot import wirejson.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        cluster = Cluster(tmp, 1, env=env)
        try:
            code, _, err, _ = job(["--scheduler", cluster.address, "--out",
                                   "x5", "one.jsonl"], tmp)
            one_line_error("workers without wirejson", code, err, 2,
                           "cannot import wirejson", sys.executable,
                           "distributed.cli.dask_worker " + cluster.address)
            check(not os.path.exists(os.path.join(tmp, "x5")),
                  "workers without wirejson: --out was created")
        finally:
            cluster.stop()
        check(not [n for n in os.listdir(tmp) if ".wirejson-tmp-" in n],
              "a staging folder was left behind")
    return finish("dedup inputs")


if __name__ == "__main__":
    sys.exit(main())
