#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes demo/sample.jsonl: a made-up but realistic log of chat-completions
requests, one JSON object per line: {"id", "logged_at", "client", "body"},
where body is the request text exactly as the client sent it.

What is in it, on purpose:
- conversations that grow turn by turn (each request repeats the whole
  conversation so far), with tools whose parameters are JSON Schemas and a
  few requests asking for a response_format json_schema;
- tool calls that recur across conversations, their arguments spelled with
  other member orders and whitespace;
- a few conversations that fork (the user edited a message and resent it),
  and a few picked up by another client that logs messages differently
  (no null members, reasoning kept under "extra");
- retried requests: the same body sent again by another client, members in
  another order, other whitespace, other escapes;
- a few bodies that are not valid JSON.

The output depends only on SEED: run it twice, get the same bytes.  Standard
library only.  Usage: gen_sample.py [OUTPUT]   (default: sample.jsonl next to
this script)
"""

import os
import random
import re
import sys
from datetime import datetime, timedelta, timezone

SEED = 20240611
CONVERSATIONS = 56
START = datetime(2024, 6, 11, 8, 0, 0, tzinfo=timezone.utc)

# Who the sessions are for: each system prompt names its user, so no two
# conversations start with the same messages.
PEOPLE = ["Ana", "Bruno", "Chloé", "Dmitri", "Emeka", "Fatima", "Grete", "Hiro",
          "Ines", "Jonas", "Kalani", "Lena", "Mateo", "Nadia", "Omar", "Priya"]
TEAMS = ["ops", "sales", "finance", "research"]

MODELS = ["gpt-4o-mini", "gpt-4o", "llama-3.1-70b-instruct", "qwen2.5-32b-instruct"]

# --------------------------------------------------------------- rendering


def _escape(text, ascii_only, escape_slash):
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "/" and escape_slash:
            out.append("\\/")
        elif code < 0x20:
            out.append("\\u%04x" % code)
        elif code > 0x7E and ascii_only:
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class Style:
    """How one client spells JSON: indentation, separators, escapes, and
    whether it shuffles object members (a client serialising from a hash)."""

    def __init__(self, name, indent=None, item_sep=",", key_sep=":",
                 ascii_only=False, escape_slash=False, float_ints=False):
        self.name = name
        self.indent = indent
        self.item_sep = item_sep
        self.key_sep = key_sep
        self.ascii_only = ascii_only
        self.escape_slash = escape_slash
        self.float_ints = float_ints  # writes 512 as 512.0, as some clients do

    def dump(self, value, rng=None, level=0):
        """JSON text of value; with rng, object members come out shuffled."""
        pad = "" if self.indent is None else "\n" + " " * (self.indent * (level + 1))
        end = "" if self.indent is None else "\n" + " " * (self.indent * level)
        if isinstance(value, dict):
            items = list(value.items())
            if rng is not None:
                rng.shuffle(items)
            if not items:
                return "{}"
            inner = (self.item_sep + pad if self.indent is None else "," + pad).join(
                _escape(k, self.ascii_only, self.escape_slash) + self.key_sep
                + self.dump(v, rng, level + 1) for k, v in items)
            return "{" + pad + inner + end + "}"
        if isinstance(value, list):
            if not value:
                return "[]"
            inner = (self.item_sep + pad if self.indent is None else "," + pad).join(
                self.dump(v, rng, level + 1) for v in value)
            return "[" + pad + inner + end + "]"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if value is None:
            return "null"
        if isinstance(value, int):
            return "%d.0" % value if self.float_ints else "%d" % value
        if isinstance(value, float):
            return repr(value)
        return _escape(value, self.ascii_only, self.escape_slash)


STYLES = [
    Style("python-sdk", item_sep=", ", key_sep=": "),
    Style("node-sdk"),
    Style("curl-script", indent=2, key_sep=": ", ascii_only=True),
    Style("php-proxy", escape_slash=True, ascii_only=True),
    Style("go-gateway", float_ints=True),
]

# ------------------------------------------------------------------- tools

TOOLS = {
    "get_weather": {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "city": {"type": "string", "description": "City name, e.g. Lyon"},
                },
                "required": ["city", "unit"],
                "additionalProperties": False,
            },
        },
    },
    "search_docs": {
        "type": "function",
        "function": {
            "name": "search_docs",
            "description": "Full-text search over the product manual.",
            "parameters": {
                "type": "object",
                "properties": {
                    "top_k": {"type": "integer", "minimum": 1, "maximum": 20},
                    "query": {"type": "string"},
                    "section": {"type": "string", "enum": ["install", "api", "billing"]},
                },
                "required": ["query"],
            },
        },
    },
    "create_ticket": {
        "type": "function",
        "function": {
            "name": "create_ticket",
            "description": "Open a support ticket.",
            "parameters": {
                "type": "object",
                "properties": {
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "details": {
                        "type": "object",
                        "properties": {
                            "expected": {"type": "string"},
                            "steps": {"type": "string"},
                        },
                        "required": ["steps", "expected"],
                    },
                    "priority": {"type": "string", "enum": ["low", "normal", "high"]},
                    "title": {"type": "string"},
                },
                "required": ["title", "priority"],
            },
        },
    },
    "convert_currency": {
        "type": "function",
        "function": {
            "name": "convert_currency",
            "description": "Convert an amount between currencies at today's rate.",
            "parameters": {
                "type": "object",
                "properties": {
                    "to": {"type": "string", "pattern": "^[A-Z]{3}$"},
                    "from": {"type": "string", "pattern": "^[A-Z]{3}$"},
                    "amount": {"type": "number"},
                },
                "required": ["amount", "from", "to"],
            },
        },
    },
}

REVIEW_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "change_review",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {  # in no useful order, as from a hash table
                "notes": {"type": "string"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                "evidence": {"type": "string"},
                "change": {"type": "string"},
            },
            "required": ["evidence", "change", "confidence"],
            "additionalProperties": False,
        },
    },
}

CITIES = ["Lyon", "Zürich", "São Paulo", "Kraków", "Osaka", "Toronto", "Paris"]
UNITS = ["celsius", "celsius", "fahrenheit"]
DOC_QUERIES = [("install on debian", "install"), ("rate limits", "api"),
               ("refund policy", "billing"), ("rotate api key", "api"),
               ("proxy settings", "install")]
AMOUNTS = [(100, "EUR", "USD"), (250.5, "GBP", "EUR"), (100, "EUR", "USD"),
           (19.99, "USD", "JPY")]
DIFFS = ["- timeout = 30\n+ timeout = 60", "- retries: 3\n+ retries: 5",
         "- path: /var/log/app\n+ path: /srv/log/app"]

# ------------------------------------------------------------ conversations


class Conversation:
    """One chat session: the messages so far and how its client logs them."""

    def __init__(self, rng, number):
        self.rng = rng
        self.kind = rng.choice(["weather", "weather", "docs", "docs", "support",
                                "money", "review", "chat"])
        self.model = rng.choice(MODELS)
        self.style = rng.choice(STYLES)
        self.logs_null_members = rng.random() < 0.5  # writes "refusal": null
        person, team = PEOPLE[(number - 1) % len(PEOPLE)], TEAMS[(number - 1) // len(PEOPLE)]
        prompt = "%s You are talking to %s (%s team)." % (self._system_prompt(), person, team)
        self.messages = [{"role": "system", "content": prompt}]
        self.turns = rng.randint(2, 5)
        self.call_number = 0
        self.number = number

    def _system_prompt(self):
        return {
            "weather": "You are a travel assistant. Use tools for live data.",
            "docs": "You answer questions about the product. Cite the manual.",
            "support": "You are a support agent. Open tickets for real bugs.",
            "money": "You help with expense reports. Convert currencies with the tool.",
            "review": "Review configuration changes. Give evidence before the verdict.",
            "chat": "You are a concise assistant.",
        }[self.kind]

    def tools(self):
        names = {"weather": ["get_weather"], "docs": ["search_docs"],
                 "support": ["search_docs", "create_ticket"],
                 "money": ["convert_currency"], "review": [], "chat": []}[self.kind]
        return [TOOLS[n] for n in names]

    def body(self):
        body = {"model": self.model, "messages": [dict(m) for m in self.messages]}
        tools = self.tools()
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        if self.kind == "review":
            body["response_format"] = REVIEW_FORMAT
        body["temperature"] = 0.2 if self.kind != "chat" else 0.7
        body["max_tokens"] = 512
        return body

    def user_says(self):
        rng = self.rng
        text = {
            "weather": lambda: "What's the weather in %s right now?" % rng.choice(CITIES),
            "docs": lambda: "How do I handle %s?" % rng.choice(DOC_QUERIES)[0],
            "support": lambda: rng.choice(["The export button does nothing.",
                                           "Login fails after the update.",
                                           "Please open a ticket for this crash."]),
            "money": lambda: "I paid %s %s, what is that in %s?" % rng.choice(AMOUNTS)[:3],
            "review": lambda: "Review this change:\n" + rng.choice(DIFFS),
            "chat": lambda: rng.choice(["Summarise RFC 8785 in one line.",
                                        "And why sort keys by UTF-16 units?",
                                        "Give an example with ü and 😀.",
                                        "What is a prompt-prefix cache?"]),
        }[self.kind]()
        self.messages.append({"role": "user", "content": text})

    def tool_call(self):
        """The tool call the model would make now, (name, arguments), or None."""
        rng = self.rng
        if self.kind == "weather":
            return "get_weather", {"city": rng.choice(CITIES), "unit": rng.choice(UNITS)}
        if self.kind == "docs" or (self.kind == "support" and rng.random() < 0.5):
            query, section = rng.choice(DOC_QUERIES)
            args = {"query": query, "section": section}
            if rng.random() < 0.3:
                args["top_k"] = 5
            return "search_docs", args
        if self.kind == "support":
            return "create_ticket", {"title": "Export fails",
                                     "priority": rng.choice(["normal", "high"]),
                                     "labels": ["ui"]}
        if self.kind == "money":
            amount, src, dst = rng.choice(AMOUNTS)
            return "convert_currency", {"amount": amount, "from": src, "to": dst}
        return None

    def assistant_calls_tool(self, name, args):
        self.call_number += 1
        call_id = "call_%02d%02d%s" % (self.number, self.call_number,
                                       "".join(self.rng.choice("abcdefghjkmnpqrstuvwxyz")
                                               for _ in range(6)))
        # Models spell arguments in their own member order and spacing.
        spelling = self.rng.choice([Style("tight"), Style("loose", item_sep=", ", key_sep=": ")])
        shuffle = random.Random(self.rng.random()) if self.rng.random() < 0.5 else None
        message = {"role": "assistant", "content": None,
                   "tool_calls": [{"id": call_id, "type": "function",
                                   "function": {"name": name,
                                                "arguments": spelling.dump(args, shuffle)}}]}
        self.append_assistant(message)
        result = {"get_weather": lambda: {"temp": self.rng.randint(-5, 31), "sky": "clear"},
                  "search_docs": lambda: {"hits": [{"page": self.rng.randint(3, 90),
                                                     "title": args.get("query", "")}]},
                  "create_ticket": lambda: {"ticket": "SUP-%d" % self.rng.randint(1000, 9999)},
                  "convert_currency": lambda: {"amount": round(args["amount"] * 1.08, 2)},
                  }[name]()
        self.messages.append({"role": "tool", "tool_call_id": call_id,
                              "content": Style("tight").dump(result)})

    def assistant_answers(self):
        text = {
            "weather": "It is mild and clear; take a light jacket.",
            "docs": "Section 4.2 of the manual covers this: follow the steps there.",
            "support": "I opened a ticket; the team will follow up.",
            "money": "That comes to about the converted amount above.",
            "review": ('{"evidence":"the diff raises a limit","change":"raise limit",'
                       '"confidence":0.8}'),
            "chat": "Sorted keys and no whitespace give one spelling per value.",
        }[self.kind]
        self.append_assistant({"role": "assistant", "content": text})

    def append_assistant(self, message):
        if self.logs_null_members:
            message["refusal"] = None
        else:
            message = {k: v for k, v in message.items() if v is not None}
        self.messages.append(message)

    def switch_client(self):
        """Another client picks the session up: it drops null members and keeps
        usage under "extra" -- the same messages to a model."""
        self.style = self.rng.choice([s for s in STYLES if s is not self.style])
        self.logs_null_members = False
        moved = []
        for m in self.messages:
            m = {k: v for k, v in m.items() if v is not None}
            if m["role"] == "assistant":
                m["extra"] = {"usage": {"completion_tokens": self.rng.randint(8, 90)}}
            moved.append(m)
        self.messages = moved


def requests_of(conversation):
    """The bodies a conversation sends, in order, each with the style it is
    written in; a fork is an extra body that branches off."""
    rng = conversation.rng
    out = []
    for turn in range(conversation.turns):
        conversation.user_says()
        out.append((conversation.body(), conversation.style))
        if turn == 1 and rng.random() < 0.15:
            # The user edits the question and sends again: a fork.
            saved = conversation.messages[-1]
            conversation.messages[-1] = {"role": "user", "content": saved["content"] + " (edited)"}
            out.append((conversation.body(), conversation.style))
            conversation.messages[-1] = saved
        call = conversation.tool_call()
        if call is not None and rng.random() < 0.8:
            conversation.assistant_calls_tool(*call)
            out.append((conversation.body(), conversation.style))
        conversation.assistant_answers()
        if 0 < turn < conversation.turns - 1 and rng.random() < 0.15:
            conversation.switch_client()
    return out


BROKEN = [
    # A client that wrote the request out before it finished building it.
    lambda text: text[: len(text) * 2 // 3],
    # Python's json.dumps writes NaN by default; JSON has no NaN.
    lambda text: re.sub(r'"temperature":[0-9.]+', '"temperature":NaN', text, count=1),
    # A hand-edited retry with a trailing comma.
    lambda text: text[:-1] + ",}",
    # A proxy that appended its own model member: the name twice.
    lambda text: text[:-1] + ',"model":"gpt-4o"}',
    # A template that used single quotes.
    lambda text: text.replace('"max_tokens":512', "'max_tokens':512", 1),
]


def generate():
    rng = random.Random(SEED)
    streams = [requests_of(Conversation(rng, n)) for n in range(1, CONVERSATIONS + 1)]
    # Interleave the conversations as a busy server would see them.
    log = []
    cursors = [0] * len(streams)
    live = list(range(len(streams)))
    while live:
        index = rng.choice(live[:6])
        body, style = streams[index][cursors[index]]
        cursors[index] += 1
        if cursors[index] == len(streams[index]):
            live.remove(index)
        log.append((style.name, style.dump(body)))
        if rng.random() < 0.08:
            # A retry by another client: same value, other member order,
            # whitespace, escapes and number spellings.
            other = rng.choice([s for s in STYLES if s is not style])
            log.append((other.name, other.dump(body, random.Random(rng.random()))))
    for position, breaker in zip((37, 88, 150, 211, 260), BROKEN):
        plain = Style("node-sdk").dump(rng.choice(streams)[0][0])
        log.insert(position, ("node-sdk", breaker(plain)))
    lines = []
    when = START
    for number, (client, text) in enumerate(log, start=1):
        when += timedelta(seconds=rng.randint(1, 40))
        record = {"id": number, "logged_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "client": client, "body": text}
        lines.append(Style("line").dump(record) + "\n")
    return "".join(lines)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "sample.jsonl")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(generate())


if __name__ == "__main__":
    main()
