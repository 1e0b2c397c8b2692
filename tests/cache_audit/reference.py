#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An independent reference implementation of docs/contract.md §16, the prompt-cache
audit, in plain Python 3.9+ (standard library only).  It never calls the
project's C code or its Python module: the project's tests use it as the
oracle.

API
---
parse(text)                   -> value   strict JSON reader (§3): objects are
                                 JObject (a list of (name, value) pairs, in
                                 input order), numbers Num (a str holding the
                                 lexeme), strings str (lone surrogates kept),
                                 arrays list, true/false/null True/False/None.
                                 Raises JsonError (bad grammar, duplicate
                                 names, NaN, depth > 1000, invalid UTF-8).
wire_string(s)                -> str     §4's string writer
canonical_json(value)         -> str     RFC 8785 (§5); JsonError for a number
                                 that rounds to infinity
es_number(x)                  -> str     ECMAScript Number-to-String of a float
elements(body_text)           -> list    the elements of §16, markers removed;
                                 element 0 is an E0 (a JObject) so render()
                                 knows it.  JsonError for a bad body.
render(element, mode)         -> str     mode 'sent' | 'canonical' | 'tools_set'
prefix_digests(body_text, mode='sent') -> list of 64-hex strings
common_prefix_length(a, b)    -> int (None when a or b is None)
audit(records, member=None, time_member=None, ttl=None, on_invalid=None)
                              -> dict    the summary object of §16, keys in
                                 the contract's order.  records: iterable of
                                 (file, line_number, line_text) with line_text
                                 str or bytes; member/time_member names or
                                 None; ttl seconds (int, Fraction or decimal
                                 text), given with time_member or not at all;
                                 on_invalid(file, line, reason) is called for
                                 each invalid line.
parse_time(value)             -> Fraction seconds since the epoch, or None
                                 (a Num, or RFC 3339 text)
read_lines(path)              -> (path, line_number, bytes) per physical line,
                                 gzip by its magic bytes

Command line:
  python3 reference.py audit [--member N] [--time-member N --ttl S] FILE...
  python3 reference.py digests MODE < bodies     (one JSON array per body
                                 line, blank lines skipped; a bad body prints
                                 null, its error on stderr, and exit status 1)
The audit prints the summary on one line, compact, keys in the contract's order,
and names invalid lines on stderr as FILE:LINE: reason (the first 100).
Input files are JSON Lines, gzip recognised by its magic bytes (1f 8b).

How L is computed
-----------------
For each mode m there is one table: prefix digest -> the most recent earlier
request (in input order) that produced it, with its file, line and time.
For request r with prefix digests p0..pn, Lm(r) is the largest L such that
p0..p(L-1) are all in the table (and, with ttl, each entry's time t satisfies
t <= t(r) and t(r) - t <= ttl, exact arithmetic, so equal to the limit
counts).  Only then are r's own digests entered into the table, replacing
older producers.  The bytes of a prefix are the summed UTF-8 lengths of r's
first Lm elements' `sent` renderings.

Choices where the contract leaves room (each marked CHOICE)
-------------------------------------------------------
- CHOICE: "most recent earlier request" means latest in input order; with
  --ttl, only that request's time is checked (when times are not monotone,
  an older producer within the limit does not rescue the prefix).
- CHOICE: with --ttl, a line whose time member is missing, not a number, or
  not RFC 3339 text is invalid (counted in `invalid`, named, digests not
  entered).  The time member is looked up in the line's object (the wrapper
  when --member is given, else the body itself).
- CHOICE: RFC 3339 text: YYYY-MM-DD, 'T'/'t'/' ', hh:mm:ss, optional
  fraction, 'Z'/'z' or +hh:mm/-hh:mm; second 60 is accepted and counts as
  the next second's 00.
- CHOICE: a line is blank (not a request) when it holds only spaces, tabs
  and CRs.  Line numbers count every physical line, blank ones included,
  from 1.
- CHOICE: a body whose elements are an error (messages/contents present but
  not an array) or whose canonical rendering is an error (a number that
  rounds to infinity) is an invalid line.
- CHOICE: e1 takes `system` when the member is present (even when null),
  else `instructions` when present, else `systemInstruction`.  Messages come
  from `messages` when present (must be an array), else `input` when it is an
  array, else `contents` when present (must be an array), else none; an
  `input` that is not an array is passed over, not an error.
- CHOICE: with --member, a member holding a string is parsed as JSON text; a
  member holding anything else is taken as the body; a body that is not an
  object is invalid.  A string holding a lone surrogate (written \\udXXX
  in the line) is not UTF-8 text, so that line is invalid too.

Unicode: §4's combining-mark rule uses Unicode 15.0's combining classes.
Python's unicodedata may be another version (3.11 has 14.0); for 14.0 the ten
code points that got a non-zero class in 15.0 are added below (checked
against Debian 12's /usr/share/unicode/UnicodeData.txt, 15.0).  With another
version (older than 14.0, or newer than 15.0), code points assigned between
the two may disagree: the test data keeps to U+0300..U+036F for combining
marks, which every version classes alike.
"""

import gzip
import hashlib
import json
import re
import sys
import unicodedata
from decimal import Decimal, InvalidOperation
from fractions import Fraction

MAX_DEPTH = 1000
MODES = ("sent", "canonical", "tools_set")
MARKERS = ("cache_control", "prompt_cache_breakpoint")
EXAMPLES = 20

# The reader and the renderers recurse, a few frames per level of nesting.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 6 * MAX_DEPTH + 500))


class JsonError(ValueError):
    """Bad JSON text, or a value an operation cannot take."""


class JObject(list):
    """A JSON object: a list of (name, value) pairs in input order."""


class E0(JObject):
    """Element 0 of a request; render(..., 'tools_set') sorts its tools."""


class Num(str):
    """A JSON number, kept as its lexeme."""


# ---------------------------------------------------------------- reading

def _pairs(pairs):
    seen = set()
    for name, _ in pairs:
        if name in seen:
            raise JsonError("duplicate member name %r" % name)
        seen.add(name)
    return JObject(pairs)


def _constant(word):
    raise JsonError("%s is not JSON" % word)


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=Num,
                            parse_float=Num, parse_constant=_constant,
                            strict=True)


def _depth(value):
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, JObject):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for _, x in v)
        elif isinstance(v, list):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v)
    return deepest


def parse(text):
    """Parse JSON text (str, or bytes as UTF-8) strictly, as §3 says."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonError("invalid UTF-8 at byte %d" % e.start) from None
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        at = len(text[:e.pos].encode("utf-8", "surrogatepass"))
        raise JsonError("malformed JSON at byte %d: %s" % (at, e.msg)) from None
    except RecursionError:
        raise JsonError("more than %d nested containers" % MAX_DEPTH) from None
    if _depth(value) > MAX_DEPTH:
        raise JsonError("more than %d nested containers" % MAX_DEPTH)
    return value


def member(obj, name, default=None):
    for n, v in obj:
        if n == name:
            return v
    return default


def has_member(obj, name):
    return any(n == name for n, _ in obj)


# ---------------------------------------------------------------- §4 strings

# Code points with a non-zero canonical combining class in Unicode 15.0 that
# Unicode 14.0's table (Python 3.11) leaves at 0.
_CCC_15_ADDED = {0x10EFD: 220, 0x10EFE: 220, 0x10EFF: 220, 0x11F41: 9,
                 0x11F42: 9, 0x1E08F: 230, 0x1E4EC: 232, 0x1E4ED: 232,
                 0x1E4EE: 220, 0x1E4EF: 230}


def combining_class(cp):
    if unicodedata.unidata_version.startswith("14.") and cp in _CCC_15_ADDED:
        return _CCC_15_ADDED[cp]
    return unicodedata.combining(chr(cp))


def _u_escape(cp):
    if cp > 0xFFFF:
        cp -= 0x10000
        return "\\u%04x\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF))
    return "\\u%04x" % cp


_WIRE_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def wire_string(s):
    """§4: mandatory escapes only, \\u00xx for other controls, lone
    surrogates as \\udxxx, a combining mark right after an escape escaped."""
    out, after_escape = ['"'], False
    for ch in s:
        cp = ord(ch)
        if ch in _WIRE_SHORT:
            out.append(_WIRE_SHORT[ch])
            after_escape = True
        elif cp < 0x20 or 0xD800 <= cp <= 0xDFFF:
            out.append("\\u%04x" % cp)
            after_escape = True
        elif after_escape and combining_class(cp):
            out.append(_u_escape(cp))
        else:
            out.append(ch)
            after_escape = False
    out.append('"')
    return "".join(out)


# ---------------------------------------------------------------- §5 JCS

_JCS_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t",
              "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def jcs_string(s):
    out = ['"']
    for ch in s:
        cp = ord(ch)
        if ch in _JCS_SHORT:
            out.append(_JCS_SHORT[ch])
        elif cp < 0x20 or 0xD800 <= cp <= 0xDFFF:
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def es_number(x):
    """ECMAScript Number::toString for a finite float."""
    if x != x or x in (float("inf"), float("-inf")):
        raise JsonError("canonical_json: number out of range")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    e = int(exp or 0) - len(frac)          # x = int(digits) * 10**e
    stripped = digits.rstrip("0")
    e += len(digits) - len(stripped)
    s, k = stripped, len(stripped)
    n = e + k                              # x = 0.s * 10**n
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    sign = "+" if n - 1 >= 0 else "-"
    head = s[0] + ("." + s[1:] if k > 1 else "")
    return head + "e" + sign + str(abs(n - 1))


def _utf16_key(name):
    return name.encode("utf-16-be", "surrogatepass")


class _Raw(str):
    """Text already rendered as canonical JSON (render's sorted tools)."""


def canonical_json(v):
    if isinstance(v, _Raw):
        return str.__str__(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, Num):
        return es_number(float(v))
    if isinstance(v, str):
        return jcs_string(v)
    if isinstance(v, JObject):
        items = sorted(v, key=lambda p: _utf16_key(p[0]))
        return "{" + ",".join(jcs_string(n) + ":" + canonical_json(x)
                              for n, x in items) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canonical_json(x) for x in v) + "]"
    raise TypeError("not a JSON value: %r" % (v,))


def sent_json(v):
    """Compact, members in the order sent, numbers as their lexemes."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, Num):
        return str.__str__(v)
    if isinstance(v, str):
        return wire_string(v)
    if isinstance(v, JObject):
        return "{" + ",".join(wire_string(n) + ":" + sent_json(x)
                              for n, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(sent_json(x) for x in v) + "]"
    raise TypeError("not a JSON value: %r" % (v,))


# ---------------------------------------------------------------- §16

def strip_markers(v):
    if isinstance(v, JObject):
        return type(v)((n, strip_markers(x)) for n, x in v if n not in MARKERS)
    if isinstance(v, list):
        return [strip_markers(x) for x in v]
    return v


def body_elements(body):
    """The elements of a parsed body (a JObject), markers removed."""
    if not isinstance(body, JObject):
        raise JsonError("prompt_prefix_digests: a request body must be a JSON object")
    e0 = E0((name, member(body, name)) for name in ("model", "tools", "response_format"))
    system = None
    for name in ("system", "instructions", "systemInstruction"):
        if has_member(body, name):
            system = member(body, name)
            break
    e1 = JObject([("system", system)])
    messages = []
    if has_member(body, "messages"):
        messages = member(body, "messages")
        where = "messages"
    elif isinstance(member(body, "input"), list) and not isinstance(member(body, "input"), JObject):
        messages, where = member(body, "input"), "input"
    elif has_member(body, "contents"):
        messages, where = member(body, "contents"), "contents"
    if not isinstance(messages, list) or isinstance(messages, JObject):
        raise JsonError("prompt_prefix_digests: %s must be an array" % where)
    return [strip_markers(e) for e in [e0, e1] + list(messages)]


def elements(body_text):
    return body_elements(parse(body_text))


def render(element, mode):
    if mode == "sent":
        return sent_json(element)
    if mode == "canonical":
        return canonical_json(element)
    if mode == "tools_set":
        if isinstance(element, E0):
            tools = member(element, "tools")
            if isinstance(tools, list) and not isinstance(tools, JObject):
                entries = sorted((canonical_json(t) for t in tools),
                                 key=lambda s: s.encode("utf-8", "surrogatepass"))
                element = JObject((n, _Raw("[" + ",".join(entries) + "]")
                                   if n == "tools" else x) for n, x in element)
        return canonical_json(element)
    raise JsonError("prompt_prefix_digests: unknown mode %r" % (mode,))


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain(renderings):
    out, prev = [], ""
    for r in renderings:
        prev = sha256_hex(prev + sha256_hex(r))
        out.append(prev)
    return out


def prefix_digests(body_text, mode="sent"):
    if mode not in MODES:
        raise JsonError("prompt_prefix_digests: unknown mode %r" % (mode,))
    return chain(render(e, mode) for e in elements(body_text))


def common_prefix_length(a, b):
    if a is None or b is None:
        return None
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


# ---------------------------------------------------------------- times

_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?"
                      r"(?:([Zz])|([+-])(\d{2}):(\d{2}))\Z", re.ASCII)


def _days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_time(v):
    """Seconds since the epoch as a Fraction, or None when v is no time."""
    if isinstance(v, Num):
        return Fraction(Decimal(str.__str__(v)))
    if isinstance(v, str) and not isinstance(v, Num):
        m = _RFC3339.match(v)
        if not m:
            return None
        y, mo, d, h, mi, s = (int(g) for g in m.group(1, 2, 3, 4, 5, 6))
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        mdays = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if not (1 <= mo <= 12 and 1 <= d <= mdays[mo - 1] and h <= 23
                and mi <= 59 and s <= 60):
            return None
        t = Fraction(_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s)
        if m.group(7):
            t += Fraction(Decimal(m.group(7)))
        if m.group(9):
            oh, om = int(m.group(10)), int(m.group(11))
            if oh > 23 or om > 59:
                return None
            off = oh * 3600 + om * 60
            t -= off if m.group(9) == "+" else -off
        return t
    return None


def parse_ttl(text):
    try:
        t = Fraction(Decimal(text))
    except (InvalidOperation, ValueError):
        raise JsonError("--ttl: %r is not a number of seconds" % (text,)) from None
    if t < 0:
        raise JsonError("--ttl: %r is negative" % (text,))
    return t


# ---------------------------------------------------------------- audit

def _line_body(text, member_name, time_member):
    """(body JObject, time) of one line, or raise JsonError."""
    line = parse(text)
    time = None
    if member_name is not None:
        if not isinstance(line, JObject):
            raise JsonError("the line is not a JSON object")
        if not has_member(line, member_name):
            raise JsonError("member %r missing" % member_name)
        body = member(line, member_name)
        if isinstance(body, str) and not isinstance(body, Num):
            try:
                # JSON text is UTF-8 (§3): a lone surrogate has no UTF-8
                body = parse(body.encode("utf-8"))
            except UnicodeEncodeError:
                raise JsonError("member %r: invalid UTF-8 (a lone surrogate)"
                                % member_name) from None
            except JsonError as e:
                raise JsonError("member %r: %s" % (member_name, e)) from None
    else:
        body = line
    if not isinstance(body, JObject):
        raise JsonError("the body is not a JSON object")
    if time_member is not None:
        if not isinstance(line, JObject) or not has_member(line, time_member):
            raise JsonError("time member %r missing" % time_member)
        time = parse_time(member(line, time_member))
        if time is None:
            raise JsonError("time member %r is not a number or RFC 3339 text" % time_member)
    return body, time


def audit(records, member=None, time_member=None, ttl=None, on_invalid=None):
    if (ttl is None) != (time_member is None):
        raise ValueError("audit: ttl and time_member go together")
    if ttl is not None and not isinstance(ttl, Fraction):
        ttl = parse_ttl(str(ttl))
    tables = {m: {} for m in MODES}
    requests = invalid = 0
    elem = {"total": 0, "sent": 0, "canonical": 0, "tools_set": 0}
    nbytes = dict(elem)
    lost = {"member_order": 0, "tool_order": 0}
    examples = []
    for file, line_no, text in records:
        if isinstance(text, (bytes, bytearray)):
            if not bytes(text).strip(b" \t\r\n"):
                continue
        elif not text.strip(" \t\r\n"):
            continue
        requests += 1
        try:
            body, time = _line_body(text, member, time_member)
            els = body_elements(body)
            rendered = {m: [render(e, m) for e in els] for m in MODES}
        except JsonError as e:
            invalid += 1
            if on_invalid:
                on_invalid(file, line_no, str(e))
            continue
        sizes = [len(s.encode("utf-8")) for s in rendered["sent"]]
        digests = {m: chain(rendered[m]) for m in MODES}
        L, last = {}, {}
        for m in MODES:
            table, k = tables[m], 0
            for p in digests[m]:
                hit = table.get(p)
                if hit is None or (ttl is not None and not (
                        hit[2] <= time and time - hit[2] <= ttl)):
                    break
                last[m] = hit
                k += 1
            L[m] = k
        elem["total"] += len(els)
        nbytes["total"] += sum(sizes)
        for m in MODES:
            elem[m] += L[m]
            nbytes[m] += sum(sizes[:L[m]])
        cause = None
        if L["tools_set"] > L["canonical"]:
            lost["tool_order"] += 1
            cause = "tool_order"
        if L["canonical"] > L["sent"]:
            lost["member_order"] += 1
            cause = "member_order"
        if cause and len(examples) < EXAMPLES:
            mode = "canonical" if cause == "member_order" else "tools_set"
            hit = last[mode]
            examples.append({"file": file, "line": line_no, "cause": cause,
                             "sent": L["sent"], "canonical": L["canonical"],
                             "tools_set": L["tools_set"],
                             "earlier": {"file": hit[0], "line": hit[1]}})
        for m in MODES:
            for p in digests[m]:
                tables[m][p] = (file, line_no, time)
    return {"requests": requests, "invalid": invalid, "elements": elem,
            "bytes": nbytes, "lost": lost, "examples": examples}


def dump(v):
    """Compact JSON of the summary (dict order kept, strings as §4)."""
    if isinstance(v, dict):
        return "{" + ",".join(wire_string(k) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    if isinstance(v, str):
        return wire_string(v)
    if v is None:
        return "null"
    return str(int(v))


# ---------------------------------------------------------------- command line

def read_lines(path):
    """(path, line number, bytes) for every physical line; gzip by magic."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for i, line in enumerate(lines, 1):
        yield path, i, line


def _main(argv):
    usage = ("usage: reference.py audit [--member N] [--time-member N --ttl S] FILE...\n"
             "       reference.py digests MODE < bodies\n")
    if not argv:
        sys.stderr.write(usage)
        return 2
    if argv[0] == "digests" and len(argv) == 2:
        mode, status = argv[1], 0
        if mode not in MODES:
            sys.stderr.write("reference.py: unknown mode %r\n" % mode)
            return 2
        for i, line in enumerate(sys.stdin.buffer.read().split(b"\n"), 1):
            if not line.strip(b" \t\r"):
                continue
            try:
                out = dump(prefix_digests(line, mode))
            except JsonError as e:
                sys.stderr.write("line %d: %s\n" % (i, e))
                out, status = "null", 1
            sys.stdout.write(out + "\n")
        return status
    if argv[0] != "audit":
        sys.stderr.write(usage)
        return 2
    opts, files, args = {}, [], list(argv[1:])
    while args:
        a = args.pop(0)
        if a in ("--member", "--time-member", "--ttl") and args:
            opts[a] = args.pop(0)
        elif a.startswith("--"):
            sys.stderr.write(usage)
            return 2
        else:
            files.append(a)
    if not files or ("--ttl" in opts) != ("--time-member" in opts):
        sys.stderr.write(usage)
        return 2
    named = [0]

    def on_invalid(file, line, reason):
        named[0] += 1
        if named[0] <= 100:
            sys.stderr.write("%s:%d: %s\n" % (file, line, reason))

    def records():
        for path in files:
            yield from read_lines(path)
    try:
        ttl = parse_ttl(opts["--ttl"]) if "--ttl" in opts else None
        summary = audit(records(), opts.get("--member"), opts.get("--time-member"),
                        ttl, on_invalid)
    except (JsonError, OSError) as e:
        sys.stderr.write("reference.py: %s\n" % e)
        return 2
    sys.stdout.write(dump(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
