#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Round trip of a gateway (docs/contract.md §7): a client's Anthropic request is
translated to chat completions, and
    encode_with_schemas(translated, tool_schemas(original, 'input_schema'))
must carry each tool's schema as the exact bytes the client sent.

usage: roundtrip.py path/to/wirejson.so [--count N] [--seed S]

Each random original spells its schemas its own way (key order, indentation,
escapes, 1 as 1.0 or 1E0) and records their byte spans; the translation is
Python's json.dumps of the parsed tools with shuffled keys.  Some tools lose
their schema, and some translations change one.  Checked for every request:
  - tool_schemas returns exactly the recorded spans (null without one);
  - encode_with_schemas returns exactly the bytes computed here: the body
    in the wire rendering (rawgen.wire, written from §4) with data member
    messages, tools in function-calling order, and each unchanged schema
    spliced as the client's bytes, each changed one rendered;
  - the result parses to the same value as the translated body.
"""
import argparse
import copy
import json
import random
import sqlite3
import sys

from rawgen import random_text, string_literal, wire, wire_quote

PROPERTY_NAMES = ["city", "unit", "days", "enum", "properties", "required",
                  "z\u00fcrich", "alpha", "Beta", "_id"]
SPELLINGS = [(None, ", ", ": "), (None, ",", ":"), (2, ",", ": "),
             (4, ",", ": "), ("\t", ",", ": "), (1, " ,", " : ")]


def gen_schema(rng, depth):
    """A JSON Schema as the client built it (dict order is its order)."""
    kind = rng.choice(["object", "object", "string", "integer", "array"]
                      if depth < 3 else ["string", "integer", "boolean"])
    schema = {"type": kind}
    if rng.random() < 0.4:
        schema["description"] = random_text(rng, 10)
    if kind == "object":
        names = rng.sample(PROPERTY_NAMES, rng.randint(0, 4))
        schema["properties"] = {n: gen_schema(rng, depth + 1) for n in names}
        if names and rng.random() < 0.8:
            required = rng.sample(names, rng.randint(1, len(names)))
            if rng.random() < 0.2:
                required.append(rng.choice(required + ["missing", 7]))
            schema["required"] = required
    elif kind == "string" and rng.random() < 0.5:
        schema["enum"] = [random_text(rng, 4) for _ in range(3)]
    elif kind == "integer":
        schema["minimum"] = rng.randint(-5, 5)
        if rng.random() < 0.5:
            schema["default"] = {"b": 1, "a": rng.randint(0, 9)}
    elif kind == "array":
        schema["items"] = gen_schema(rng, depth + 1)
    items = list(schema.items())
    rng.shuffle(items)
    return dict(items)


def spell(rng, value, style, level=0):
    """value as the client's JSON text in one of SPELLINGS' styles."""
    indent, comma, colon = style
    if isinstance(value, str):
        return string_literal(rng, value, 0.2)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return rng.choice([str(value), f"{value}.0", f"{value}E0"])
    if isinstance(value, list):
        items = [spell(rng, v, style, level + 1) for v in value]
        opening, closing = "[", "]"
    else:
        items = [string_literal(rng, k, 0.2) + colon +
                 spell(rng, v, style, level + 1) for k, v in value.items()]
        opening, closing = "{", "}"
    if not items:
        return opening + closing
    if indent is None:
        return opening + comma.join(items) + closing
    pad = indent if isinstance(indent, str) else " " * indent
    inner = "\n" + pad * (level + 1)
    return (opening + inner + (comma + inner).join(items) + "\n" +
            pad * level + closing)


def gen_original(rng):
    """An Anthropic request: its text, its tools (parsed) and the bytes of
    each tool's input_schema (None when it has none)."""
    style = rng.choice(SPELLINGS)
    tools, spans, parts = [], [], []
    for k in range(rng.randint(1, 4)):
        tool = {"name": f"tool_{k}", "description": random_text(rng, 12)}
        text = None
        if rng.random() < 0.85:
            tool["input_schema"] = gen_schema(rng, 0)
            text = spell(rng, tool["input_schema"], style, 2)
        tools.append(tool)
        spans.append(text)
        head = ("{\"name\": " + string_literal(rng, tool["name"], 0.2) +
                ", \"description\": " +
                string_literal(rng, tool["description"], 0.2))
        parts.append(head + ("" if text is None else
                             ", \"input_schema\": " + text) + "}")
    body = ("{\"model\": \"claude-x\", \"max_tokens\": 1024,\n"
            " \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],\n"
            " \"tools\": [\n  " + ",\n  ".join(parts) + "\n ]\n}")
    return body, tools, spans


def shuffled(value, rng):
    """value with every object's keys in a random order."""
    if isinstance(value, list):
        return [shuffled(v, rng) for v in value]
    if isinstance(value, dict):
        items = [(k, shuffled(v, rng)) for k, v in value.items()]
        rng.shuffle(items)
        return dict(items)
    return value


def translate(rng, tools):
    """The chat-completions body, and which tools' schemas it changed."""
    functions, changed = [], []
    for tool in tools:
        params = copy.deepcopy(tool.get("input_schema",
                                        {"type": "object", "properties": {}}))
        change = "input_schema" in tool and rng.random() < 0.25
        if change:
            params["x-translated"] = True
        changed.append(change)
        functions.append({"type": "function", "function": {
            "name": tool["name"], "description": tool["description"],
            "parameters": params}})
    body = {"model": "local-llama", "temperature": 0.5, "stream": False,
            "messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": {
                             "properties": {"b": 1, "a": 2},
                             "required": ["b"]}}],
            "tools": functions}
    text = json.dumps(shuffled(body, rng), ensure_ascii=rng.random() < 0.5,
                      indent=rng.choice([None, 1]))
    return body, text, changed


def expected_encoding(body, spans, changed):
    """The result §7 asks for, built from the spec here."""
    tools = []
    for tool, span, change in zip(body["tools"], spans, changed):
        f = tool["function"]
        params = (span if span is not None and not change
                  else wire(f["parameters"]))
        tools.append("{\"type\":\"function\",\"function\":{\"name\":" +
                     wire_quote(f["name"]) + ",\"description\":" +
                     wire_quote(f["description"]) + ",\"parameters\":" +
                     params + "}}")
    members = {"messages": wire(body["messages"], "data"),
               "model": wire(body["model"]), "stream": "false",
               "temperature": "0.5", "tools": "[" + ",".join(tools) + "]"}
    return "{" + ",".join(wire_quote(k) + ":" + members[k]
                          for k in sorted(members)) + "}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--count", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=20260512)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(args.extension)

    failures = spliced = rendered = 0
    for case in range(args.count):
        original, tools, spans = gen_original(rng)
        body, translated, changed = translate(rng, tools)
        texts, encoded = db.execute(
            "SELECT tool_schemas(:o, 'input_schema'), "
            "encode_with_schemas(:t, tool_schemas(:o, 'input_schema'))",
            {"o": original, "t": translated}).fetchone()
        want = expected_encoding(body, spans, changed)
        problems = []
        if json.loads(texts) != spans:
            problems.append(f"tool_schemas gave {texts!r}, spans {spans!r}")
        if encoded != want:
            problems.append(f"encode_with_schemas gave\n    {encoded!r}\n"
                            f"  expected\n    {want!r}")
        elif json.loads(encoded) != json.loads(translated):
            problems.append("the encoding does not parse to the translation")
        for span, change in zip(spans, changed):
            if span is not None and not change:
                spliced += 1
            else:
                rendered += 1
        if problems:
            failures += 1
            if failures <= 5:
                print(f"case {case}: original {original!r}\n  " +
                      "\n  ".join(problems))
    print(f"raw roundtrip: {args.count} requests ({spliced} schemas spliced, "
          f"{rendered} rendered), {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
