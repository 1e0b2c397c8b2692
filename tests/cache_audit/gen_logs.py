#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Deterministic generators of LLM agent logs (JSON Lines) for testing the
prompt-cache audit (docs/contract.md §16) against reference.py.

    python3 gen_logs.py KIND N SEED > file.jsonl

writes N lines; the bytes depend only on KIND, N and SEED (standard library
only).  Agents run conversations that grow turn by turn (user, assistant
tool calls, tool results, ...), several at a time, interleaved by time.
Every line is {"id", "ts", "body"} (or the body itself for `plain`), `ts` a
number of seconds or RFC 3339 text, never decreasing, exact in binary (whole
or half seconds), with gaps such as 300 s that hit a --ttl of 300 exactly.

KIND    what varies from request to request
------  ---------------------------------------------------------------
shuffled  the tool list comes in a new random order (a hash map's)
members   schema and message members reordered, `1` spelled `1.0`
escapes   whitespace and `\\u` / `\\/` escapes (the `sent` mode ignores them)
markers   `cache_control` / `prompt_cache_breakpoint` moved message to message
models    several models and API shapes (chat, messages, responses, gemini)
object    body held as a JSON object member, `ts` as RFC 3339 text
plain     each line is the body itself (no wrapper, no `ts`)
bad       about 1 line in 8 is bad: malformed JSON, not an object, the
          member missing, a body string that is not JSON, messages not an array
mixed     all of the above at once (body a string or an object)
demo      one agent with 8 tools in shuffled order (half of the requests),
          a few schemas with members reordered, two bad lines

The worked example of the docs is made with
    python3 tests/cache_audit/gen_logs.py demo 80 2026 > demo/agent-log.jsonl
and its summaries, in tests/cache_audit/ (run in demo/):
    python3 ../tests/cache_audit/reference.py audit --member body agent-log.jsonl
    python3 ../tests/cache_audit/reference.py audit --member body \\
        --time-member ts --ttl 300 agent-log.jsonl
"""

import random
import sys

FEATURES = {
    "shuffled": {"shuffle"},
    "members": {"members"},
    "escapes": {"escapes"},
    "markers": {"markers"},
    "models": {"models"},
    "object": {"object", "rfc3339"},
    "plain": {"plain", "shuffle", "members", "escapes", "markers"},
    "bad": {"bad", "shuffle"},
    "mixed": {"shuffle", "members", "escapes", "markers", "models", "bad",
              "mixed_body", "rfc3339", "numbers"},
    "demo": {"shuffle", "members", "markers", "demo"},
}

BASE_TIME = 1767258000          # 2026-01-01T09:00:00Z


class Lex(str):
    """A number written as this lexeme."""


def schema(props, required):
    return {"type": "object", "properties": props, "required": required}


TOOLS = [
    ("read_file", "Read a file of the workspace.",
     schema({"path": {"type": "string", "description": "Path from the root"},
             "offset": {"type": "integer", "minimum": Lex("0")},
             "limit": {"type": "integer", "minimum": Lex("1"), "maximum": Lex("2000")}},
            ["path"])),
    ("write_file", "Write a file, replacing it.",
     schema({"path": {"type": "string"}, "content": {"type": "string"}},
            ["path", "content"])),
    ("run_shell", "Run a shell command and return its output.",
     schema({"command": {"type": "string"},
             "timeout_s": {"type": "number", "default": Lex("30"), "minimum": Lex("1")}},
            ["command"])),
    ("search_code", "Search the code for a regular expression.",
     schema({"pattern": {"type": "string"},
             "glob": {"type": "string", "default": "**/*"},
             "max_results": {"type": "integer", "default": Lex("50")}},
            ["pattern"])),
    ("list_dir", "List a directory.",
     schema({"path": {"type": "string", "default": "."}}, [])),
    ("web_fetch", "Fetch a URL and return it as text.",
     schema({"url": {"type": "string", "format": "uri"},
             "max_bytes": {"type": "integer", "minimum": Lex("1")}},
            ["url"])),
    ("apply_patch", "Apply a unified diff.",
     schema({"patch": {"type": "string"},
             "strip": {"type": "integer", "enum": [Lex("0"), Lex("1")]}},
            ["patch"])),
    ("ask_user", "Ask the user a question.",
     schema({"question": {"type": "string"},
             "options": {"type": "array", "items": {"type": "string"}}},
            ["question"])),
]

SYSTEMS = [
    "You are a careful coding agent. Work in small steps; run the tests.",
    "You are a support agent for a software shop. Answer briefly.\nUse the tools when unsure.",
]

USER_TEXTS = [
    "The build fails on CI, can you look?",
    "Rename the function parse_args to read_options everywhere.",
    "Why is the test \"test_unicode\" flaky? Path: src/é/x.c",
    "Add a --verbose flag and document it.",
    "Fetch https://example.com/spec and summarise section 3.",
    "Tab\tseparated\tcolumns should stay aligned.",
    "Keep the accent after a newline:\n\u0301 (U+0301) as it is.",
]

FINAL_TEXTS = ["Done: the tests pass.", "I changed 3 files; see the diff.",
               "The failure comes from a race in the cache.", "Fixed ✓"]

# OpenAI-style chat, Anthropic messages, OpenAI responses, Gemini.
MODELS = [("chat", "gpt-4.1"), ("anthropic", "claude-sonnet-4-5"),
          ("responses", "gpt-5-mini"), ("gemini", "gemini-2.5-pro"),
          ("chat", "gpt-4.1-mini")]


# ---------------------------------------------------------------- writing

def dumps(v, rng, escapes):
    """JSON text of v; with escapes, whitespace and escapes vary at random."""
    def ws():
        return rng.choice(["", " ", "\n  ", "\t", "\r\n"]) if escapes else ""

    def string(s):
        out = ['"']
        for ch in s:
            cp = ord(ch)
            if ch in '"\\':
                out.append("\\" + ch)
            elif ch == "\n":
                out.append("\\n" if not escapes or rng.random() < 0.5 else "\\u000A")
            elif cp < 0x20:
                out.append("\\u%04x" % cp)
            elif escapes and ch == "/" and rng.random() < 0.5:
                out.append("\\/")
            elif escapes and rng.random() < 0.05:
                h = "%04x" % cp if cp <= 0xFFFF else None
                if h is None:
                    c = cp - 0x10000
                    h = "%04x\\u%04x" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))
                out.append("\\u" + (h.upper() if rng.random() < 0.5 else h))
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)

    def go(x):
        if isinstance(x, Lex):
            return str.__str__(x)
        if x is None:
            return "null"
        if x is True:
            return "true"
        if x is False:
            return "false"
        if isinstance(x, int):
            return str(x)
        if isinstance(x, str):
            return string(x)
        if isinstance(x, dict):
            return "{" + ws() + ("," + ws()).join(
                string(k) + ws() + ":" + ws() + go(val) for k, val in x.items()) + ws() + "}"
        return "[" + ws() + ("," + ws()).join(go(e) for e in x) + ws() + "]"
    return ws() + go(v) + ws()


def reorder(v, rng, respell):
    """v with every object's members in a random order; with respell,
    integer lexemes in schemas sometimes spelled with a fraction."""
    if isinstance(v, dict):
        items = [(k, reorder(x, rng, respell)) for k, x in v.items()]
        rng.shuffle(items)
        return dict(items)
    if isinstance(v, list):
        return [reorder(x, rng, respell) for x in v]
    if respell and isinstance(v, Lex) and "." not in v and rng.random() < 0.5:
        return Lex(v + ".0")
    return v


# ---------------------------------------------------------------- agents

class Session:
    def __init__(self, rng, feats, sid, start):
        self.rng, self.feats, self.sid, self.time = rng, feats, sid, start
        self.family, self.model = (rng.choice(MODELS) if "models" in feats
                                   else MODELS[0])
        self.system = rng.choice(SYSTEMS)
        n = 8 if "demo" in feats else rng.randint(3, 8)
        self.tools = rng.sample(TOOLS, n) if "shuffle" not in feats else TOOLS[:n]
        self.turns = []          # (role, text or tool data)
        self.turns.append(("user", rng.choice(USER_TEXTS)))
        self.calls = 0
        self.response_format = (rng.random() < 0.2)

    def advance(self):
        """The model's answer to the last request: a tool call and its
        result, or a final text and the next user message."""
        rng = self.rng
        if rng.random() < 0.65:
            name = rng.choice(self.tools)[0]
            self.calls += 1
            cid = "call_%s_%d" % (self.sid, self.calls)
            args = '{"path":"src/main.c"}' if rng.random() < 0.5 else '{"command":"make test"}'
            self.turns.append(("call", (cid, name, args)))
            self.turns.append(("result", (cid, name, rng.choice(
                ["ok", "3 tests failed:\n  test_a\n  test_b", "no such file", "é → ✓"]))))
        else:
            self.turns.append(("assistant", rng.choice(FINAL_TEXTS)))
            self.turns.append(("user", rng.choice(USER_TEXTS)))
        self.time += rng.choice([1, 2, 5, 7.5, 30, 60, 120, 299, 300, 301, 900, 3600])

    # -- one request body, as a Python dict in the order the client sends it

    def tool_defs(self):
        out = []
        for name, desc, params in self.tools:
            if self.family == "anthropic":
                out.append({"name": name, "description": desc, "input_schema": params})
            elif self.family == "gemini":
                out.append({"name": name, "description": desc, "parameters": params})
            elif self.family == "responses":
                out.append({"type": "function", "name": name, "description": desc,
                            "parameters": params})
            else:
                out.append({"type": "function", "function": {
                    "name": name, "description": desc, "parameters": params}})
        return out

    def messages(self):
        f, out = self.family, []
        for role, data in self.turns:
            if f == "anthropic":
                if role == "user":
                    out.append({"role": "user", "content": [{"type": "text", "text": data}]})
                elif role == "assistant":
                    out.append({"role": "assistant", "content": [{"type": "text", "text": data}]})
                elif role == "call":
                    out.append({"role": "assistant", "content": [
                        {"type": "tool_use", "id": data[0], "name": data[1],
                         "input": {"path": "src/main.c"}}]})
                else:
                    out.append({"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": data[0], "content": data[2]}]})
            elif f == "gemini":
                if role in ("user", "assistant"):
                    out.append({"role": "user" if role == "user" else "model",
                                "parts": [{"text": data}]})
                elif role == "call":
                    out.append({"role": "model", "parts": [{"functionCall": {
                        "name": data[1], "args": {"path": "src/main.c"}}}]})
                else:
                    out.append({"role": "user", "parts": [{"functionResponse": {
                        "name": data[1], "response": {"output": data[2]}}}]})
            elif f == "responses":
                if role in ("user", "assistant"):
                    out.append({"role": role, "content": data})
                elif role == "call":
                    out.append({"type": "function_call", "call_id": data[0],
                                "name": data[1], "arguments": data[2]})
                else:
                    out.append({"type": "function_call_output", "call_id": data[0],
                                "output": data[2]})
            else:
                if role in ("user", "assistant"):
                    out.append({"role": role, "content": data})
                elif role == "call":
                    out.append({"role": "assistant", "content": None, "tool_calls": [
                        {"id": data[0], "type": "function",
                         "function": {"name": data[1], "arguments": data[2]}}]})
                else:
                    out.append({"role": "tool", "tool_call_id": data[0], "content": data[2]})
        return out

    def body(self):
        rng, feats, f = self.rng, self.feats, self.family
        tools = self.tool_defs()
        if "shuffle" in feats and (rng.random() < 0.5 if "demo" in feats else True):
            rng.shuffle(tools)
        if "members" in feats and rng.random() < (0.1 if "demo" in feats else 0.3):
            tools = reorder(tools, rng, "numbers" in feats or "demo" not in feats)
        msgs = self.messages()
        if "members" in feats and "demo" not in feats and rng.random() < 0.3:
            msgs = reorder(msgs, rng, False)
        if "markers" in feats:
            self.mark(msgs)
        body = {"model": self.model}
        if f == "anthropic":
            body["max_tokens"] = 4096
            body["system"] = [{"type": "text", "text": self.system,
                               "cache_control": {"type": "ephemeral"}}]
            body["tools"] = tools
            body["messages"] = msgs
        elif f == "gemini":
            body["systemInstruction"] = {"parts": [{"text": self.system}]}
            body["tools"] = [{"functionDeclarations": tools}]
            body["contents"] = msgs
        elif f == "responses":
            body["instructions"] = self.system
            body["input"] = msgs
            body["tools"] = tools
        else:
            body["messages"] = [{"role": "system", "content": self.system}] + msgs
            body["tools"] = tools
            body["tool_choice"] = "auto"
        if self.response_format and f == "chat":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "answer", "strict": True,
                "schema": schema({"summary": {"type": "string"},
                                  "confidence": {"type": "number"}},
                                 ["summary", "confidence"])}}
        body["temperature"] = Lex(rng.choice(["0.2", "0.20", "1", "1.0"]))
        return body

    def mark(self, msgs):
        """A breakpoint on the last message only: each request moves it."""
        if not msgs:
            return
        last = msgs[-1]
        if self.family == "anthropic" and isinstance(last.get("content"), list):
            last["content"][-1]["cache_control"] = {"type": "ephemeral"}
        else:
            last["prompt_cache_breakpoint"] = {"ttl": "5m"} if self.rng.random() < 0.5 else True


def rfc3339(t, rng):
    whole = int(t)
    frac = t - whole
    s = whole % 86400
    days = whole // 86400
    # civil from days (days since 1970-01-01)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += m <= 2
    offset = rng.choice([0, 0, 3600, -5 * 3600 - 1800])
    local = s + offset
    if not 0 <= local < 86400:
        offset = 0
        local = s
    text = "%04d-%02d-%02dT%02d:%02d:%02d" % (y, m, d, local // 3600, local // 60 % 60, local % 60)
    if frac:
        text += ".5"
    if offset == 0:
        return text + "Z"
    sign = "+" if offset > 0 else "-"
    return text + "%s%02d:%02d" % (sign, abs(offset) // 3600, abs(offset) // 60 % 60)


def bad_line(rng, i, ts, good_text):
    kind = rng.randrange(5)
    if kind == 0:
        return '{"id":"req-%06d","ts":%s,"body":"{\\"model\\":' % (i, ts)     # truncated
    if kind == 1:
        return rng.choice(['["not", "an", "object"]', '"just text"', "42"])
    if kind == 2:
        return '{"id":"req-%06d","ts":%s,"error":"timeout"}' % (i, ts)       # no body
    if kind == 3:
        return '{"id":"req-%06d","ts":%s,"body":"{\\"model\\": \\"gpt-4.1\\",}"}' % (i, ts)
    return dumps({"id": "req-%06d" % i, "ts": Lex(ts), "body":
                  '{"model":"gpt-4.1","messages":"hello"}'}, rng, False)


def generate(kind, n, seed):
    feats = FEATURES[kind]
    rng = random.Random("%s/%d" % (kind, seed))
    sessions, sid = [], 0
    width = 1 if "demo" in feats else 4
    lines = []
    last_time = BASE_TIME
    bad_at = set(rng.sample(range(n), 2)) if "demo" in feats and n >= 20 else set()
    for i in range(n):
        while len(sessions) < width or rng.random() < 0.03:
            sid += 1
            sessions.append(Session(rng, feats, "s%d" % sid, last_time + rng.choice([0, 1, 60])))
        s = min(sessions, key=lambda x: (x.time, x.sid))
        last_time = max(last_time, s.time)
        ts_num = ("%d" % last_time) if last_time == int(last_time) else ("%.1f" % last_time)
        if "bad" in feats and rng.random() < 0.125 or i in bad_at:
            lines.append(bad_line(rng, i, ts_num, None))
            continue
        body = s.body()
        escapes = "escapes" in feats
        if "plain" in feats:
            lines.append(dumps(body, rng, escapes).replace("\n", " ").replace("\r", " "))
        else:
            ts = Lex(ts_num)
            if "rfc3339" in feats and ("mixed_body" not in feats or rng.random() < 0.5):
                ts = rfc3339(last_time, rng)
            as_object = "object" in feats or ("mixed_body" in feats and rng.random() < 0.5)
            inner = body if as_object else dumps(body, rng, escapes)
            wrapper = {"id": "req-%06d" % i, "ts": ts, "body": inner}
            text = dumps(wrapper, rng, escapes and as_object)
            lines.append(text.replace("\n", " ").replace("\r", " "))
        s.advance()
        if len(s.turns) > 24 or rng.random() < 0.04:
            sessions.remove(s)
    return lines


def main(argv):
    if len(argv) != 3 or argv[0] not in FEATURES:
        sys.stderr.write("usage: gen_logs.py KIND N SEED   (KIND: %s)\n"
                         % " ".join(FEATURES))
        return 2
    for line in generate(argv[0], int(argv[1]), int(argv[2])):
        sys.stdout.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
