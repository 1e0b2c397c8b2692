# SPDX-License-Identifier: MIT
"""Who runs in the benchmark, on which table, doing which job.

A contender reads one table of a data set (bodies, convs or msgs: the column in
bench.db, or the same texts as JSON Lines) and does one job on every row:

  job       what is computed per row
  scan      nothing (SQL length(): the floor of reading the rows)
  read      nothing (cat of the JSON Lines file)
  minify    compact JSON (SQLite json(), the baseline; jq -c .)
  wire      wire_json
  sorted    compact JSON, keys sorted (wire_json_sorted, canonical_json, jq -S -c,
            json.dumps(sort_keys=True), canonicalize)
  digest    SHA-256 of the sorted rendering (data_digest, + hashlib / crypto)
  messages_digest, message_digest   as docs/contract.md §6 defines them
  sha256    OpenSSL's SHA-256 speed, as the time to hash the table's bytes

Each job compares against the peers doing the same job (`PEER_JOBS`).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Contender:
    def __init__(self, name, table, job, kind, spec, needs=None, role=None):
        self.name = name    # as printed in the table
        self.table = table  # bodies | convs | msgs
        self.job = job
        self.kind = kind    # sql | proc | sha
        self.spec = spec    # SQL expression over the column, or argv with {file}
        self.needs = needs  # tool that must exist: ext, wirejq, jq, node, openssl
        self.role = role    # baseline | floor | None

    @property
    def key(self):
        return "%s:%s" % (self.table, self.name)


COLUMN = {"bodies": "body", "convs": "messages", "msgs": "msg"}

# For each wirejson job: the peer jobs it is compared with for the 5x target.
PEER_JOBS = {"wire": "sorted", "sorted": "sorted", "digest": "digest",
             "messages_digest": "messages_digest", "message_digest": "message_digest"}


def sql(table, name, job, expr, needs="ext", role=None):
    return Contender(name, table, job, "sql", expr, needs, role)


def proc(table, name, job, argv, needs):
    return Contender(name, table, job, "proc", argv, needs)


def all_contenders():
    py = [sys.executable, os.path.join(HERE, "peers.py")]
    node = ["node", os.path.join(HERE, "peers.js")]
    out = [
        sql("bodies", "scan: length(body)", "scan", "length(body)", None, "floor"),
        sql("bodies", "json(body)", "minify", "json(body)", None, "baseline"),
        sql("bodies", "wire_json(body)", "wire", "wire_json(body)"),
        sql("bodies", "wire_json_sorted(body)", "sorted", "wire_json_sorted(body)"),
        sql("bodies", "canonical_json(body)", "sorted", "canonical_json(body)"),
        sql("bodies", "data_digest(body)", "digest", "data_digest(body)"),
        proc("bodies", "jq -S -c .", "sorted", ["jq", "-S", "-c", ".", "{file}"], "jq"),
        proc("bodies", "python json.dumps sorted", "sorted", py + ["render", "{file}"], None),
        proc("bodies", "node canonicalize", "sorted", node + ["render", "{file}"], "node"),
        proc("bodies", "python dumps + hashlib", "digest", py + ["digest", "{file}"], None),
        proc("bodies", "node canonicalize + crypto", "digest", node + ["digest", "{file}"],
             "node"),
        proc("bodies", "jq -c .", "minify", ["jq", "-c", ".", "{file}"], "jq"),
        proc("bodies", "wirejq data_digest", "digest", ["{wirejq}", "data_digest", "{file}"],
             "wirejq"),
        proc("bodies", "cat (read the file)", "read", ["cat", "{file}"], None),
        Contender("openssl sha256 (speed)", "bodies", "sha256", "sha", None, "openssl"),
        sql("convs", "scan: length(messages)", "scan", "length(messages)", None, "floor"),
        sql("convs", "json(messages)", "minify", "json(messages)", None, "baseline"),
        sql("convs", "messages_digest(messages)", "messages_digest",
            "messages_digest(messages)"),
        proc("convs", "python messages_digest", "messages_digest",
             py + ["messages_digest", "{file}"], None),
        proc("convs", "node messages_digest", "messages_digest",
             node + ["messages_digest", "{file}"], "node"),
        sql("msgs", "scan: length(msg)", "scan", "length(msg)", None, "floor"),
        sql("msgs", "json(msg)", "minify", "json(msg)", None, "baseline"),
        sql("msgs", "message_digest(msg)", "message_digest", "message_digest(msg)"),
        proc("msgs", "python message_digest", "message_digest",
             py + ["message_digest", "{file}"], None),
        proc("msgs", "node message_digest", "message_digest",
             node + ["message_digest", "{file}"], "node"),
    ]
    return out


def is_wirejson(c):
    """True for the project's own contenders (SQL functions and wirejq)."""
    return c.needs in ("ext", "wirejq")
