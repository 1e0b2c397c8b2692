# SPDX-License-Identifier: MIT
"""What the demo's queries must find in demo/sample.jsonl, computed in Python
with the independent RFC 8785 implementation in jcs.py (no SQLite, no
wirejson): the tests of the demo and of the README compare
SQLite's answers with these."""

import hashlib
import json
import os
from collections import defaultdict

import jcs

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(REPO, "demo", "sample.jsonl")


def _sha(text):
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class SampleLog:
    """The sample log and the answers to the demo's questions."""

    def __init__(self, path=SAMPLE):
        with open(path, encoding="utf-8") as f:
            self.rows = [json.loads(line) for line in f]
        self.by_id = {r["id"]: r for r in self.rows}
        self.invalid = []        # ids of bodies wirejson must reject
        self.digest = {}         # id -> data_digest(body)
        self.message_digests = {}  # id -> [message_digest of each message]
        self.parsed = {}
        for r in self.rows:
            try:
                value = jcs.parse(r["body"])
            except jcs.JcsError:
                self.invalid.append(r["id"])
                continue
            self.parsed[r["id"]] = value
            self.digest[r["id"]] = jcs.data_digest(r["body"])
            messages = jcs.member(value, "messages", [])
            self.message_digests[r["id"]] = [jcs.message_digest_value(m) for m in messages]
        self.valid = sorted(self.digest)
        groups = defaultdict(list)
        for i in self.valid:
            groups[self.digest[i]].append(i)
        self.groups = sorted(groups.values())           # ids of each distinct body
        self.firsts = sorted(g[0] for g in self.groups)  # first id of each
        self.parent = self._parents()

    def prefix_digests(self, request_id):
        """messages_digest of each prefix (1..n messages) of a request."""
        out, running = [], ""
        for d in self.message_digests[request_id]:
            running += d
            out.append(_sha(running))
        return out

    def conversation_digest(self, request_id):
        return _sha("".join(self.message_digests[request_id]))

    def _parents(self):
        """later -> (earlier, n): the longest conversation among the first
        requests of each distinct body that a first request continues."""
        wholes = {}
        for a in self.firsts:
            key = (len(self.message_digests[a]), self.conversation_digest(a))
            wholes.setdefault(key, a)  # firsts ascend: keeps the smallest id
        parent = {}
        for b in self.firsts:
            prefixes = self.prefix_digests(b)
            for n in range(len(prefixes) - 1, 0, -1):
                a = wholes.get((n, prefixes[n - 1]))
                if a is not None and a != b:
                    parent[b] = (a, n)
                    break
        return parent

    def forks(self):
        children = defaultdict(int)
        for earlier, _ in self.parent.values():
            children[earlier] += 1
        return sum(1 for c in children.values() if c > 1)

    def chains(self):
        """Every root-to-leaf path of the continuation forest, as id lists."""
        children = defaultdict(list)
        for later, (earlier, _) in self.parent.items():
            children[earlier].append(later)
        roots = [i for i in self.firsts if i not in self.parent]
        out = []
        stack = [[r] for r in reversed(roots)]
        while stack:
            path = stack.pop()
            kids = sorted(children.get(path[-1], []))
            if not kids:
                out.append(path)
            for k in reversed(kids):
                stack.append(path + [k])
        return out

    def tool_calls(self):
        """(tool, canonical arguments) -> {"calls", "spellings",
        "conversations"} sets over every tool call in every valid body."""
        found = defaultdict(lambda: {"calls": set(), "spellings": set(),
                                     "conversations": set()})
        for i in self.valid:
            value = self.parsed[i]
            messages = jcs.member(value, "messages", [])
            first = jcs.message_digest_value(messages[0]) if messages else None
            for m in messages:
                for call in jcs.member(m, "tool_calls", None) or []:
                    function = jcs.member(call, "function")
                    name = jcs.member(function, "name")
                    text = jcs.member(function, "arguments")
                    entry = found[(name, jcs.canonical_arguments(text))]
                    entry["calls"].add(jcs.member(call, "id"))
                    entry["spellings"].add(text)
                    entry["conversations"].add(first)
        return found
