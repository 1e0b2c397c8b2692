#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the demo as the README tells a reader to (demo/run.sh BUILD_DIR),
reads the tables it prints and checks every figure against the Python
oracle (sample_oracle.py over jcs.py): counts, rejected bodies, retry
groups, the index in the plan, prefix digests, continuations, chains, tool
calls and property orders.  Usage: test_demo.py BUILD_DIR"""

import json
import os
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sample_oracle  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s:\n  got  %r\n  want %r" % (what, got, want))


def tables(output):
    """Every box table printed: {header tuple: [row tuples]}, in order."""
    found, rows, header = {}, None, None
    for line in output.splitlines():
        if line.startswith("┌"):
            rows, header = [], None
        elif line.startswith("│") and rows is not None:
            row = tuple(cell.strip() for cell in line.strip("│").split("│"))
            if header is None:
                header = row
            else:
                rows.append(row)
        elif line.startswith("└") and rows is not None:
            found[header] = rows
            rows = None
    return found


def wire_order(properties, required):
    """docs/contract.md §4's order of a property map: required first, the rest sorted."""
    first = [r for r in dict.fromkeys(required) if r in properties]
    return first + sorted(k for k in properties if k not in first)


def main():
    build = os.path.abspath(sys.argv[1])
    run = subprocess.run([os.path.join(sample_oracle.REPO, "demo", "run.sh"), build],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0 or run.stderr:
        print(run.stdout[-2000:])
        print("demo/run.sh failed (%d): %s" % (run.returncode, run.stderr))
        return 1
    out = run.stdout
    t = tables(out)
    log = sample_oracle.SampleLog()
    valid = log.valid
    bodies = {i: log.by_id[i]["body"] for i in log.by_id}
    clients = {i: log.by_id[i]["client"] for i in log.by_id}

    check("the log", t.get(("requests", "valid_bodies", "distinct_texts",
                            "distinct_values", "messages")),
          [tuple(map(str, (len(log.rows), len(valid), len(set(bodies.values())),
                           len(log.groups),
                           sum(len(log.message_digests[i]) for i in valid))))])
    rejected = t.get(("id", "client", "why_rejected"), [])
    check("rejected ids", [int(r[0]) for r in rejected], log.invalid)
    check("rejection reasons", [r[2].startswith("malformed JSON at byte ") for r in rejected],
          [True] * len(log.invalid))

    retried = [g for g in log.groups if len(g) > 1]
    check("dedup summary", t.get(("distinct_requests", "logged", "retries_dropped")),
          [tuple(map(str, (len(log.groups), len(valid), len(valid) - len(log.groups))))])
    shown = sorted(retried, key=lambda g: (-len({clients[i] for i in g}), g[0]))[:8]
    check("retry groups", t.get(("kept_id", "all_ids", "clients", "spellings", "data_digest")),
          [(str(g[0]), " ".join(map(str, g)), " ".join(clients[i] for i in g),
            str(len({bodies[i] for i in g})), log.digest[g[0]][:16]) for g in shown])
    check("plan uses the index",
          "SEARCH requests USING INDEX requests_by_digest (<expr>=?)" in out, True)
    respelled = [g for g in retried if any("\n" in bodies[i] for i in g)
                 and not all("\n" in bodies[i] for i in g)][0]
    check("lookup by value", [(r[0], r[1], r[2]) for r in
                              t.get(("id", "client", "characters", "body_starts"), [])],
          [(str(i), clients[i], str(len(bodies[i]))) for i in respelled])

    example = min(valid, key=lambda i: (abs(len(log.message_digests[i]) - 8), i))
    check("prefix digests", [(r[0], r[3]) for r in
                             t.get(("position", "role", "says", "prefix_digest"), [])],
          [(str(p), d[:16]) for p, d in enumerate(log.prefix_digests(example))])
    check("whole digest", t.get(("request", "messages_digest")),
          [(str(example), log.conversation_digest(example)[:16])])

    children = Counter(earlier for earlier, _ in log.parent.values())
    check("continuation summary",
          t.get(("continuations", "continued", "forks", "across_clients")),
          [tuple(map(str, (len(log.parent), len(children),
                           sum(1 for c in children.values() if c > 1),
                           sum(1 for b, (a, _) in log.parent.items()
                               if clients[a] != clients[b]))))])
    for later, earlier, n, pair in t.get(("later", "earlier", "shared_messages", "clients"), []):
        check("missed by text: %s" % later, (int(earlier), int(n)), log.parent.get(int(later)))
        check("clients of %s" % later, pair, clients[int(earlier)] + " > " + clients[int(later)])
    chains = sorted(log.chains(), key=lambda p: (-len(p), p[0], " > ".join(map(str, p))))[:8]
    check("chains", t.get(("requests", "chain")),
          [(str(len(p)), " > ".join(map(str, p))) for p in chains])

    calls = sorted(((k[0], k[1], v) for k, v in log.tool_calls().items()
                    if len(v["calls"]) > 1),
                   key=lambda r: (-len(r[2]["calls"]), r[0], r[1]))[:10]
    check("tool calls", t.get(("tool_call", "calls", "spellings", "conversations")),
          [("%s(%s)" % (tool, args), str(len(v["calls"])), str(len(v["spellings"])),
            str(len(v["conversations"]))) for tool, args, v in calls])

    first_review = [i for i in valid if "response_format" in json.loads(bodies[i])][0]
    schema = json.loads(bodies[first_review])["response_format"]["json_schema"]["schema"]
    props = list(schema["properties"])
    check("property orders", t.get(("rendering", "property_order")),
          [("as logged", ", ".join(props)),
           ("canonical_json (identity)",
            ", ".join(sorted(props, key=lambda k: k.encode("utf-16-be")))),
           ("wire_json (sent)", ", ".join(wire_order(props, schema["required"])))])

    for line in failures:
        print("FAIL " + line)
    print("test_demo: %d tables read, %d failures" % (len(t), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: test_demo.py BUILD_DIR")
    sys.exit(main())
