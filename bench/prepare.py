#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Makes one benchmark data set under bench/data/, on demand and cached.

A data set is a folder named after what made it (kind, seed, size) holding
  bodies.jsonl  the generated request bodies, one a line
  convs.jsonl   each body's "messages" array, as SQLite's json_extract gives it
  msgs.jsonl    every message of every body, in order
  bench.db      tables bodies(body), convs(messages), msgs(msg) with the same
                texts, one row per line
and a file DONE written last, so an interrupted preparation is redone.
"""

import os
import shutil
import sqlite3

import corpus

TABLES = (("bodies", "body"), ("convs", "messages"), ("msgs", "msg"))


def dataset_name(kind, seed, size, mix=None):
    if mix:
        return "%s-%s-s%d-%s" % (kind, mix, seed, size_label(size))
    return "%s-s%d-%s" % (kind, seed, size_label(size))


def size_label(size):
    if size % 10**6 == 0:
        return "%dMB" % (size // 10**6)
    return "%dKB" % (size // 10**3)


def prepare(data_dir, kind, seed, size, log=print, mix=None):
    """Returns the folder of the data set, generating it when missing.  A
    corpus of a named mix (corpus.MIXES) keeps its integers within 64 bits,
    so that the core benchmark's simdjson rows read every body too."""
    folder = os.path.join(data_dir, dataset_name(kind, seed, size, mix))
    if os.path.exists(os.path.join(folder, "DONE")):
        return folder
    log("preparing %s ..." % os.path.basename(folder))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    bodies = os.path.join(folder, "bodies.jsonl")
    with open(bodies, "wb") as f:
        if mix:
            corpus.write_corpus(seed, size, f, mix, int64=True)
        else:
            (corpus.write_corpus if kind == "corpus" else corpus.write_single)(seed, size, f)
    con = sqlite3.connect(os.path.join(folder, "bench.db"))
    con.execute("PRAGMA journal_mode=OFF")
    for table, column in TABLES:
        con.execute("CREATE TABLE %s(%s TEXT NOT NULL)" % (table, column))
    with open(bodies, "r", encoding="utf-8") as f:
        con.executemany("INSERT INTO bodies VALUES (?)", ((line.rstrip("\n"),) for line in f))
    con.execute("INSERT INTO convs SELECT json_extract(body, '$.messages') FROM bodies"
                " ORDER BY rowid")
    con.execute("INSERT INTO msgs SELECT j.value FROM bodies, json_each(bodies.body,"
                " '$.messages') AS j ORDER BY bodies.rowid, j.key")
    con.commit()
    for table, column in TABLES[1:]:
        with open(os.path.join(folder, table + ".jsonl"), "w", encoding="utf-8") as f:
            for (text,) in con.execute("SELECT %s FROM %s ORDER BY rowid" % (column, table)):
                f.write(text + "\n")
    con.execute("VACUUM")
    con.close()
    open(os.path.join(folder, "DONE"), "w").close()
    return folder


def input_bytes(folder, table):
    """Bytes of input a contender reads for one table: the JSON Lines file
    minus its newlines, which is the sum of length(column) in bytes."""
    path = os.path.join(folder, table + ".jsonl")
    with open(path, "rb") as f:
        lines = sum(1 for _ in f)
    return os.path.getsize(path) - lines


def row_count(folder, table):
    with open(os.path.join(folder, table + ".jsonl"), "rb") as f:
        return sum(1 for _ in f)
