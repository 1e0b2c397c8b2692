#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""messages_digest_agg as an aggregate and as a window function, checked
against two references on a real database file: messages_digest over
json_group_array of the same frame (the scalar function), and the Python
RFC 8785 oracle in jcs.py.  Frames: growing, sliding, whole partition,
following rows, empty frames, EXCLUDE; NULL rows are skipped; errors are
named.  Usage: test_window.py BUILD_DIR (the folder holding wirejson.so)."""

import hashlib
import os
import sqlite3
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jcs  # noqa: E402
import sample_oracle  # noqa: E402

BUILD = None
EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

# Conversations written for the test: null members, "extra", escapes,
# numbers spelled two ways, non-ASCII, NULL rows in between.
HAND_MADE = [
    ['{"role":"system","content":"Be brief."}',
     '{"content":"hi","role":"user","name":null}',
     None,
     '{"role":"assistant","content":"Hello!","extra":{"usage":{"total":9}}}',
     '{"role":"user","content":"caf\\u00e9 \\ud83d\\ude00 1.0","n":1.0}',
     None,
     '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",'
     '"function":{"name":"f","arguments":"{\\"b\\":1,\\"a\\":2}"}}]}',
     '{"role":"tool","tool_call_id":"c1","content":"{\\"ok\\":true}"}'],
    [None, None],
    ['{"role":"user","content":"only one"}'],
    [None, '{"role":"user","content":"after a NULL"}', None],
]

# name -> (frame clause, frame of row i among n rows as a range of indexes)
FRAMES = {
    "default": ("", lambda i, n: range(0, i + 1)),
    "growing": ("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                lambda i, n: range(0, i + 1)),
    "sliding": ("ROWS BETWEEN 2 PRECEDING AND CURRENT ROW",
                lambda i, n: range(max(0, i - 2), i + 1)),
    "wide-sliding": ("ROWS BETWEEN 40 PRECEDING AND CURRENT ROW",
                     lambda i, n: range(max(0, i - 40), i + 1)),
    "centred": ("ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
                lambda i, n: range(max(0, i - 1), min(n, i + 2))),
    "to-end": ("ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
               lambda i, n: range(i, n)),
    "whole": ("ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
              lambda i, n: range(0, n)),
    "before": ("ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING",   # empty at row 0
               lambda i, n: range(max(0, i - 3), i)),
    "after": ("ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING",    # empty at the end
              lambda i, n: range(min(n, i + 1), min(n, i + 3))),
    "groups": ("GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW",
               lambda i, n: range(max(0, i - 1), i + 1)),
    "range": ("RANGE BETWEEN 2 PRECEDING AND CURRENT ROW",   # pos is 0..n-1
              lambda i, n: range(max(0, i - 2), i + 1)),
    "exclude-current": ("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW "
                        "EXCLUDE CURRENT ROW", lambda i, n: range(0, i)),
}


def connect(path):
    db = sqlite3.connect(path)
    db.enable_load_extension(True)
    db.load_extension(os.path.join(BUILD, "wirejson"))
    db.enable_load_extension(False)
    return db


def digest_of(texts):
    """The oracle: messages_digest of the non-NULL texts, in order."""
    return jcs.messages_digest_of([t for t in texts if t is not None])


def frame_digest(digests, indexes):
    """The oracle from precomputed message digests (None for NULL rows)."""
    return jcs.sha256_hex("".join(digests[k] for k in indexes if digests[k]).encode())


class WindowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        folder = os.path.join(BUILD, "tests-conv")
        os.makedirs(folder, exist_ok=True)
        cls.path = os.path.join(folder, "window.db")
        if os.path.exists(cls.path):
            os.remove(cls.path)
        cls.db = connect(cls.path)
        cls.db.execute("CREATE TABLE msgs (conv INTEGER, pos INTEGER, m TEXT,"
                       " PRIMARY KEY (conv, pos))")
        convs = {}
        for number, texts in enumerate(HAND_MADE, start=1):
            convs[number] = list(texts)
        # The sample log's conversations: each valid request's messages,
        # written as json_each renders them.
        log = sample_oracle.SampleLog()
        for request_id in log.valid[:120]:
            body = log.by_id[request_id]["body"]
            rows = cls.db.execute("SELECT value FROM json_each(?, '$.messages')",
                                  (body,)).fetchall()
            convs[1000 + request_id] = [r[0] for r in rows]
        for conv, texts in convs.items():
            cls.db.executemany("INSERT INTO msgs VALUES (?, ?, ?)",
                               [(conv, pos, t) for pos, t in enumerate(texts)])
        cls.db.commit()
        cls.convs = convs
        cls.digests = {conv: [jcs.message_digest(t) if t is not None else None
                              for t in texts] for conv, texts in convs.items()}

    @classmethod
    def tearDownClass(cls):
        cls.db.close()

    def check_frame(self, name):
        clause, frame = FRAMES[name]
        window = "PARTITION BY conv ORDER BY pos " + clause
        rows = self.db.execute(
            "SELECT conv, pos, messages_digest_agg(m) OVER w,"
            " messages_digest(json_group_array(json(m)) FILTER (WHERE m IS NOT NULL)"
            " OVER w) FROM msgs WINDOW w AS (%s) ORDER BY conv, pos" % window).fetchall()
        self.assertEqual(len(rows), sum(len(t) for t in self.convs.values()))
        for conv, pos, agg, scalar in rows:
            digests = self.digests[conv]
            expected = frame_digest(digests, frame(pos, len(digests)))
            with self.subTest(frame=name, conv=conv, pos=pos):
                self.assertEqual(agg, expected)
                self.assertEqual(scalar, expected)

    def test_frames(self):
        for name in FRAMES:
            self.check_frame(name)

    def test_empty_frames_give_empty_conversation(self):
        rows = self.db.execute(
            "SELECT messages_digest_agg(m) OVER (PARTITION BY conv ORDER BY pos"
            " ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM msgs WHERE pos = 0"
        ).fetchall()
        self.assertTrue(rows)
        self.assertEqual({r[0] for r in rows}, {EMPTY})
        self.assertEqual(self.db.execute("SELECT messages_digest('[]')").fetchone()[0], EMPTY)

    def test_aggregate_over_ordered_rows(self):
        for conv, texts in self.convs.items():
            got = self.db.execute(
                "SELECT messages_digest_agg(m) FROM"
                " (SELECT m FROM msgs WHERE conv = ? ORDER BY pos)", (conv,)).fetchone()[0]
            self.assertEqual(got, digest_of(texts), conv)

    def test_no_rows_and_null_rows(self):
        one = self.db.execute
        self.assertEqual(one("SELECT messages_digest_agg(m) FROM msgs WHERE 0").fetchone()[0], EMPTY)
        self.assertEqual(one("SELECT messages_digest_agg(NULL)").fetchone()[0], EMPTY)
        self.assertEqual(one("SELECT messages_digest_agg(m) FROM msgs WHERE conv = 2").fetchone()[0],
                         EMPTY)
        got = one("SELECT messages_digest_agg(m) FROM (SELECT m FROM msgs"
                  " WHERE conv = 4 ORDER BY pos)").fetchone()[0]
        self.assertEqual(got, digest_of(['{"role":"user","content":"after a NULL"}']))

    def test_one_message_is_its_digest_of_digests(self):
        got = self.db.execute("SELECT messages_digest_agg('{\"b\":[1.0,\"x\"],\"a\":null}')").fetchone()[0]
        self.assertEqual(got, jcs.sha256_hex(jcs.message_digest('{"b":[1,"x"]}').encode()))

    def test_argument_kinds(self):
        one = self.db.execute
        text = '{"role":"user","content":"x"}'
        expected = digest_of([text])
        self.assertEqual(one("SELECT messages_digest_agg(CAST(? AS BLOB))", (text,)).fetchone()[0],
                         expected)
        self.assertEqual(one("SELECT messages_digest_agg(json_object('role','user','content','x'))")
                         .fetchone()[0], expected)

    def test_errors_name_the_function(self):
        cases = [
            ("SELECT messages_digest_agg('[1]')",
             "messages_digest_agg: a message must be a JSON object"),
            ("SELECT messages_digest_agg(42)",
             "messages_digest_agg: a message must be a JSON object"),
            ("SELECT messages_digest_agg('\"text\"')",
             "messages_digest_agg: a message must be a JSON object"),
            ("SELECT messages_digest_agg(m) OVER (ORDER BY k) FROM (SELECT 1 AS k,"
             " '{}' AS m UNION ALL SELECT 2, 'null')",
             "messages_digest_agg: a message must be a JSON object"),
            ("SELECT messages_digest_agg('{\"a\":')",
             "messages_digest_agg: malformed JSON at byte 5"),
            ("SELECT messages_digest_agg('{\"a\":1,\"a\":2}')",
             "messages_digest_agg: "),
        ]
        for sql, message in cases:
            with self.subTest(sql=sql):
                with self.assertRaises(sqlite3.OperationalError) as raised:
                    self.db.execute(sql).fetchall()
                self.assertTrue(str(raised.exception).startswith(message),
                                str(raised.exception))

    def test_long_partition(self):
        """A growing, a sliding and a whole frame over 30,000 rows (the queue
        wraps and grows many times); checked at every row."""
        texts = ['{"role":"user","content":"message %d"}' % k if k % 7 else None
                 for k in range(30000)]
        digests = [jcs.message_digest(t) if t is not None else None for t in texts]
        self.db.execute("CREATE TEMP TABLE long (pos INTEGER PRIMARY KEY, m TEXT)")
        self.db.executemany("INSERT INTO long VALUES (?, ?)", enumerate(texts))
        rows = self.db.execute(
            "SELECT pos, messages_digest_agg(m) OVER (ORDER BY pos),"
            " messages_digest_agg(m) OVER (ORDER BY pos ROWS 5 PRECEDING),"
            " messages_digest_agg(m) OVER (ORDER BY pos ROWS BETWEEN UNBOUNDED PRECEDING"
            " AND UNBOUNDED FOLLOWING) FROM long ORDER BY pos").fetchall()
        running = hashlib.sha256()
        whole = jcs.sha256_hex("".join(d for d in digests if d).encode())
        for pos, growing, sliding, everything in rows:
            if digests[pos]:
                running.update(digests[pos].encode())
            window = "".join(d for d in digests[max(0, pos - 5):pos + 1] if d)
            if growing != running.copy().hexdigest() or \
               sliding != jcs.sha256_hex(window.encode()) or everything != whole:
                self.fail("row %d differs" % pos)
        self.assertEqual(len(rows), 30000)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_window.py BUILD_DIR")
    BUILD = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
