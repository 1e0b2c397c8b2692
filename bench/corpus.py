#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Seedable generator of the benchmark corpus: logged chat-completions requests.

Two kinds of output, both a pure function of (seed, size):
  * a corpus: JSON Lines, one request body a line, mostly small requests plus
    large ones (50-200 messages, pasted transcripts of hundreds of KB), tools
    with nested JSON Schema parameters, numbers of every lexical shape,
    members in random order, some bodies \\u-escaped the way Python's default
    json.dumps logs them;
  * a single body: one request whose message strings are full of characters
    that need escaping (newlines, quotes, backslashes, control characters,
    combining marks right after them).

    bench/corpus.py corpus --seed 1 --size 10MB -o corpus.jsonl
    bench/corpus.py corpus --seed 7 --mix escapes --size 20MB -o esc.jsonl
    bench/corpus.py single --seed 1 --size 40MB -o single.json

Mixes of the corpus (--mix), each a different emphasis for the same shapes:
  default  as described above
  pretty   half the bodies pretty-printed (indent 2, line breaks as spaces)
  escapes  message texts dense in escapes, half the bodies \\u-escaped
  numbers  logprobs and embeddings: arrays and small objects full of numbers
  deep     JSON Schemas nested up to 7 levels, more tools
  small    many small bodies (one to three short messages, no transcripts)
"""

import argparse
import json.encoder
import random
import sys

ENC_UTF8 = json.encoder.encode_basestring  # C-accelerated string quoting
ENC_ASCII = json.encoder.encode_basestring_ascii

WORDS = (
    "the of and to in is that for it as with was on be by this are or from at "
    "an which have not has but were can all their more one will would there "
    "function value request response model token message context schema field "
    "error retry timeout buffer stream parse render digest order key index "
    "table query result number string array object null true false user "
    "assistant system tool call argument weather city price order invoice "
    "customer shipment latency budget quarterly report summary outline draft"
).split()

NON_ASCII = [
    "café", "naïve", "Zürich", "façade", "smørrebrød", "Ελληνικά", "русский текст",
    "日本語のテキスト", "中文字符", "한국어 문장", "العربية", "עברית", "हिन्दी",
    "ไทย", "Ωμέγα", "€100", "±0.5 °C", "“quoted”", "—", "…", "\u00a0", "\u2028",
    "😀", "👩\u200d💻", "🇫🇷", "👍🏽", "🧪", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "🏳️\u200d🌈",
    "e\u0301", "a\u0308", "n\u0303", "A\u030a", "o\u0302\u0323", "क\u094d",
    "\u05e9\u05c1", "\u0627\u064e",
]

CODE_LINES = [
    'if (strcmp(name, "model") == 0) {',
    '    printf("%s\\n", buf);',
    '    return "\\"quoted\\"";',
    'path = r"C:\\Users\\dev\\project\\src\\main.c"',
    "re.compile(r'\\d+\\.\\d*(?:[eE][+-]?\\d+)?')",
    '{"key": "value", "n": 1.5e3, "ok": true}',
    "SELECT json_extract(body, '$.model') FROM log WHERE id = 42;",
    "\tdef handler(event, context):",
    '\t\traise ValueError(f"bad input: {x!r}")',
    "$ grep -n \"TODO\" src/*.c | wc -l",
    "\x1b[31mERROR\x1b[0m connection reset by peer",
    "Traceback (most recent call last):",
    '  File "/srv/app/worker.py", line 118, in run',
    "\\\\server\\share\\logs\\2024-05-01.txt",
    "<div class=\"note\">5 &lt; 6 &amp;&amp; 7 &gt; 3</div>",
    "echo 'it'\\''s here' > /tmp/out",
]

# Bits that stress the escaper: every short escape, raw control characters,
# and combining marks right after characters that must be escaped.
ESCAPE_BITS = [
    "\n", "\n\n", "\r\n", "\t", '"', '\\"', "\\", "\\\\", '"\\n"', "\x00",
    "\x01", "\x08", "\x0c", "\x1f", "\x7f", "/", "\n\u0301", '"\u0308',
    "\\\u0327", "\t\u0300\u0301", "\u2028", "😀", "é", "日本",
]

MODELS = ["gpt-4o-mini", "gpt-4.1", "o3-mini", "mistral-large-latest",
          "llama-3.1-70b-instruct", "qwen2.5-coder-32b-instruct",
          "deepseek-chat", "gemma-2-27b-it"]

TOOL_NAMES = ["get_weather", "search_web", "run_sql", "create_invoice",
              "lookup_customer", "send_email", "read_file", "write_file",
              "list_directory", "schedule_meeting", "translate_text",
              "convert_currency", "fetch_url", "book_flight"]

PROP_NAMES = ["id", "name", "query", "city", "unit", "limit", "offset",
              "date", "start", "end", "amount", "currency", "email", "path",
              "content", "tags", "priority", "filters", "options", "address",
              "lat", "lon", "items", "quantity", "notes", "required",
              "properties", "enum", "type", "evidence", "change", "confidence"]


MIXES = {
    "default": {},
    "pretty": {"pretty": 0.5},
    "escapes": {"escape_text": 0.6, "escape_share": 0.5},
    "numbers": {"numbers": 1},
    "deep": {"depth": 7, "nest": 0.22, "tools": 16},
    "small": {"small": True, "tools": 2},
}
# The mix in force (write_corpus sets it): what the generators consult.
MIX = {}


def mix(key, default):
    return MIX.get(key, default)


class Num:
    """A JSON number written exactly as this lexeme."""
    __slots__ = ("lexeme",)

    def __init__(self, lexeme):
        self.lexeme = lexeme


NUMBER_SHAPES = [
    lambda r: str(r.randint(0, 9)),
    lambda r: str(r.randint(-100000, 100000)),
    lambda r: str(r.randint(10**17, mix("int_max", 10**25))),  # beyond 2^53
    lambda r: "%d.%d" % (r.randint(0, 999), r.randint(0, 99999)),
    lambda r: "-%d.%d" % (r.randint(0, 9), r.randint(1, 999)),
    lambda r: "%d.0" % r.randint(0, 100),
    lambda r: "%de-%d" % (r.randint(1, 9), r.randint(1, 30)),
    lambda r: "%dE+%d" % (r.randint(1, 9), r.randint(0, 22)),
    lambda r: "%d.%de%d" % (r.randint(1, 9), r.randint(0, 999), r.randint(-300, 300)),
    lambda r: r.choice(["-0", "-0.0", "0.0", "0.000001", "1e21", "1e-7",
                        "5e-324", "1.7976931348623157e308", "0.1", "1E4",
                        "123456.789e-3", "100", "1.50"]),
]


def number(r):
    return Num(r.choice(NUMBER_SHAPES)(r))


class Text:
    """Random prose, code and transcripts built from fragment pools."""

    def __init__(self, r):
        self.r = r
        self.sentences = [self._sentence() for _ in range(3000)]
        self.code = CODE_LINES
        self.escapey = [self._escape_line() for _ in range(2000)]

    def _sentence(self):
        r = self.r
        words = r.choices(WORDS, k=r.randint(4, 18))
        if r.random() < 0.35:
            words.insert(r.randrange(len(words)), r.choice(NON_ASCII))
        if r.random() < 0.1:
            words.append('"%s"' % r.choice(WORDS))
        s = " ".join(words)
        return s[0].upper() + s[1:] + r.choice([". ", ". ", "? ", "! ", ".\n", ":\n"])

    def _escape_line(self):
        r = self.r
        parts = []
        for _ in range(r.randint(3, 12)):
            pick = r.random()
            if pick < 0.45:
                parts.append(r.choice(ESCAPE_BITS))
            elif pick < 0.7:
                parts.append(r.choice(CODE_LINES))
            elif pick < 0.85:
                parts.append(r.choice(NON_ASCII))
            else:
                parts.append(r.choice(WORDS))
        return "".join(parts)

    def short(self):
        return "".join(self.r.choices(self.sentences, k=self.r.randint(1, 6)))

    def paragraphs(self, nbytes):
        """About nbytes of prose mixed with code, as in a pasted transcript."""
        r = self.r
        out, size = [], 0
        while size < nbytes:
            most = max(1, min(30, nbytes // 80))
            if r.random() < 0.2:
                chunk = "```\n" + "\n".join(r.choices(self.code, k=r.randint(1, most))) + "\n```\n"
            else:
                chunk = "".join(r.choices(self.sentences, k=r.randint(1, most))) + "\n\n"
            out.append(chunk)
            size += len(chunk)
        return "".join(out)

    def escapes(self, nchars):
        """About nchars of text dense in characters that need escaping."""
        k = max(1, nchars // 40)
        return "\n".join(self.r.choices(self.escapey, k=k))


def schema(r, t, depth):
    """A JSON Schema object with nested properties, required, $defs, anyOf."""
    names = r.sample(PROP_NAMES, r.randint(2, 7))
    props = {}
    for name in names:
        props[name] = prop_schema(r, t, depth)
    s = {"type": "object", "properties": props}
    if r.random() < 0.85:
        req = r.sample(names, r.randint(1, len(names)))
        if r.random() < 0.1:
            req.append("not_a_property")
        s["required"] = req
    if r.random() < 0.5:
        s["additionalProperties"] = False
    if r.random() < 0.4:
        s["description"] = t.short()
    if depth == 0 and r.random() < 0.2:
        s["$defs"] = {"Address": schema(r, t, 2), "Money": {
            "type": "object", "properties": {"amount": {"type": "number", "minimum": number(r)},
                                             "currency": {"type": "string", "enum": ["EUR", "USD", "JPY"]}},
            "required": ["currency", "amount"]}}
    return s


def prop_schema(r, t, depth):
    kind = r.random()
    deepest, nest = mix("depth", 3), mix("nest", 0.15)
    if depth < deepest and kind < nest:
        return schema(r, t, depth + 1)
    if depth < deepest and kind < nest + 0.1:
        return {"type": "array", "items": schema(r, t, depth + 1) if r.random() < 0.5
                else {"type": "string"}, "maxItems": Num(str(r.randint(1, 50)))}
    if kind < 0.32:
        return {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    if kind < 0.45:
        return {"type": "string", "enum": r.sample(WORDS, r.randint(2, 6)),
                "description": t.short()}
    if kind < 0.65:
        out = {"type": r.choice(["number", "integer"]), "minimum": number(r),
               "maximum": number(r)}
        if r.random() < 0.3:
            out["default"] = number(r)
        if r.random() < 0.2:
            out["examples"] = [number(r), number(r)]
        return out
    if kind < 0.72:
        return {"$ref": "#/$defs/Address"}
    return {"type": "string", "description": t.short()}


def tool(r, t):
    params = schema(r, t, 0)
    fn = {"name": r.choice(TOOL_NAMES), "description": t.short(), "parameters": params}
    if r.random() < 0.4:
        fn["strict"] = True
    return {"type": "function", "function": fn}


def tool_arguments(r, t):
    args = {r.choice(PROP_NAMES): r.choice([t.short(), number(r), True, None])
            for _ in range(r.randint(1, 5))}
    return render(args, r, False, (", ", ": ") if r.random() < 0.5 else (",", ":"))


def logprobs(r, t):
    """Per-token log probabilities, as an API logs them: numbers in objects."""
    def entry():
        return {"token": r.choice(WORDS), "logprob": Num("-%d.%06d" % (
            r.randint(0, 20), r.randint(0, 999999))),
            "bytes": [Num(str(b)) for b in r.choice(WORDS).encode()]}
    return {"content": [dict(entry(), top_logprobs=[entry() for _ in range(r.randint(0, 5))])
                        for _ in range(r.randint(20, 300))]}


def embedding(r):
    return [Num("%.8f" % r.uniform(-1, 1)) if r.random() < 0.9 else number(r)
            for _ in range(r.choice([64, 256, 768]))]


def content_text(r, t, size):
    """A message text: prose and code, or escape-dense text in that mix."""
    if mix("escape_text", 0) and r.random() < mix("escape_text", 0):
        return t.escapes(size)
    return t.paragraphs(size)


def message(r, t, role, big):
    if mix("small", False):
        return {"role": role if role != "tool" else "user", "content": t.short()}
    size = r.randint(50_000, 400_000) if big else r.randint(40, 2_000)
    if role == "system":
        return {"role": "system", "content": t.paragraphs(r.randint(200, 3000))}
    if role == "user":
        if r.random() < 0.15:
            return {"role": "user", "content": [
                {"type": "text", "text": content_text(r, t, size)},
                {"type": "image_url", "image_url": {
                    "url": "https://img.example.com/%08x.png" % r.getrandbits(32),
                    "detail": r.choice(["auto", "low", "high"])}}]}
        return {"role": "user", "content": content_text(r, t, size)}
    if role == "assistant":
        m = {"role": "assistant"}
        if r.random() < 0.3:
            m["content"] = None
            m["tool_calls"] = [{"id": "call_%016x" % r.getrandbits(64), "type": "function",
                                "function": {"name": r.choice(TOOL_NAMES),
                                             "arguments": tool_arguments(r, t)}}
                               for _ in range(r.randint(1, 3))]
        else:
            m["content"] = content_text(r, t, r.randint(100, 6000))
            if mix("numbers", 0) and r.random() < mix("numbers", 0) * 0.5:
                m["logprobs"] = logprobs(r, t)
        if r.random() < 0.2:
            m["refusal"] = None
        if r.random() < 0.15:
            m["extra"] = {"reasoning": t.short(), "usage": {
                "prompt_tokens": number(r), "completion_tokens": number(r)}}
        return m
    content = content_text(r, t, size) if r.random() < 0.5 else tool_arguments(r, t)
    return {"role": "tool", "tool_call_id": "call_%016x" % r.getrandbits(64),
            "content": content}


def conversation(r, t, large):
    n = r.randint(50, 200) if large else r.randint(1, 3 if mix("small", False) else 8)
    msgs = [message(r, t, "system", False)] if r.random() < 0.8 else []
    if mix("small", False) and msgs:
        msgs = [{"role": "system", "content": t.short()}]
    for i in range(n):
        role = r.choice(["user", "assistant", "assistant", "tool"]) if i else "user"
        big = large and r.random() < 0.04
        msgs.append(message(r, t, role, big))
    return msgs


def request(r, t, large):
    body = {"model": r.choice(MODELS), "messages": conversation(r, t, large)}
    optional = {
        "temperature": lambda: number(r), "top_p": lambda: number(r),
        "max_tokens": lambda: Num(str(r.choice([256, 1024, 4096, 16384]))),
        "seed": lambda: Num(str(r.randint(0, mix("int_max", 10**20)))),
        "stream": lambda: r.random() < 0.5,
        "n": lambda: 1, "stop": lambda: ["\n\n", "User:", "</s>"],
        "presence_penalty": lambda: number(r), "frequency_penalty": lambda: number(r),
        "logit_bias": lambda: {str(r.randint(0, 100000)): number(r) for _ in range(3)},
        "user": lambda: "user-%06d" % r.randint(0, 999999),
        "metadata": lambda: {"trace_id": "%032x" % r.getrandbits(128),
                             "retry": Num(str(r.randint(0, 3))), "cost": number(r)},
        "parallel_tool_calls": lambda: r.random() < 0.5,
    }
    for key, make in optional.items():
        if r.random() < 0.5:
            body[key] = make()
    if mix("numbers", 0) and r.random() < mix("numbers", 0) * 0.3:
        body["input_embedding"] = embedding(r)
    if r.random() < 0.6:
        body["tools"] = [tool(r, t) for _ in range(r.randint(1, mix("tools", 12)))]
        body["tool_choice"] = r.choice(["auto", "required", {
            "type": "function", "function": {"name": r.choice(TOOL_NAMES)}}])
    if r.random() < 0.2:
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": "answer", "strict": True, "schema": schema(r, t, 0)}}
    return body


def render(value, r, ascii_only, seps, indent=0):
    """JSON text of value, object members in random order; with indent > 0,
    pretty-printed with indent spaces a level, a line break written as a
    space (a JSON Lines body cannot hold a newline; the whitespace to skip is
    the same)."""
    enc = ENC_ASCII if ascii_only else ENC_UTF8
    comma, colon = seps
    out = []
    put = out.append
    lines = [" " + " " * (indent * k) for k in range(64)] if indent else None

    def walk(v, level=0):
        if isinstance(v, str):
            put(enc(v))
        elif isinstance(v, Num):
            put(v.lexeme)
        elif v is None:
            put("null")
        elif v is True:
            put("true")
        elif v is False:
            put("false")
        elif isinstance(v, int):
            put(str(v))
        elif isinstance(v, dict):
            items = list(v.items())
            r.shuffle(items)
            put("{")
            for i, (k, x) in enumerate(items):
                if i:
                    put(comma)
                if lines:
                    put(lines[min(level + 1, 63)])
                put(enc(k))
                put(colon)
                walk(x, level + 1)
            if lines and items:
                put(lines[min(level, 63)])
            put("}")
        else:
            put("[")
            for i, x in enumerate(v):
                if i:
                    put(comma)
                if lines:
                    put(lines[min(level + 1, 63)])
                walk(x, level + 1)
            if lines and v:
                put(lines[min(level, 63)])
            put("]")

    walk(value)
    return "".join(out)


def body_text(r, value):
    ascii_only = r.random() < mix("escape_share", 0.3)
    seps = (", ", ": ") if r.random() < 0.3 else (",", ":")
    if mix("pretty", 0) and r.random() < mix("pretty", 0):
        return render(value, r, ascii_only, (",", ": "), indent=2)
    return render(value, r, ascii_only, seps)


def write_corpus(seed, size, out, mix_name="default", int64=False):
    """Request bodies, one a line, until at least size bytes are written;
    with int64, every integer fits in 64 bits (simdjson rejects the rest)."""
    MIX.clear()
    MIX.update(MIXES[mix_name])
    if int64:
        MIX["int_max"] = 2**63 - 1
    r = random.Random(seed)
    t = Text(r)
    written = 0
    while written < size:
        line = (body_text(r, request(r, t, r.random() < 0.05)) + "\n").encode()
        out.write(line)
        written += len(line)


def write_single(seed, size, out):
    """One request body of about size bytes, its strings dense in escapes."""
    r = random.Random(seed)
    t = Text(r)
    messages = [{"role": "system", "content": t.paragraphs(2000)}]
    chunk = max(1024, size // 24)
    total = 0
    while total < size:
        text = t.escapes(chunk)
        role = r.choice(["user", "assistant", "tool"])
        m = {"role": role, "content": text}
        if role == "tool":
            m["tool_call_id"] = "call_%016x" % r.getrandbits(64)
        messages.append(m)
        total += len(ENC_UTF8(text).encode())
    body = {"model": r.choice(MODELS), "messages": messages,
            "temperature": Num("0.2"), "tools": [tool(r, t) for _ in range(4)]}
    out.write(render(body, r, False, (",", ":")).encode() + b"\n")


def parse_size(text):
    units = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "B": 1}
    for unit, mult in units.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * mult)
    return int(text)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["corpus", "single"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mix", choices=sorted(MIXES), default="default",
                   help="corpus mix (default: default)")
    p.add_argument("--int64", action="store_true",
                   help="integers within 64 bits, so that simdjson takes every body")
    p.add_argument("--size", default="10MB", help="e.g. 500KB, 10MB, 100MB")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args(argv)
    def write(out):
        if a.kind == "corpus":
            write_corpus(a.seed, parse_size(a.size), out, a.mix, a.int64)
        else:
            write_single(a.seed, parse_size(a.size), out)
    if a.output == "-":
        write(sys.stdout.buffer)
    else:
        with open(a.output, "wb") as f:
            write(f)


if __name__ == "__main__":
    main(sys.argv[1:])
