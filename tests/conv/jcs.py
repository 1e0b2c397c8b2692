# SPDX-License-Identifier: MIT
"""An independent RFC 8785 (JSON Canonicalization Scheme) implementation and
the digests of docs/contract.md §6, written from the RFC and the contract alone, used
as the oracle for the conversation tests.  Standard library only.

canonical(text) -> str        the canonical JSON of a JSON text
data_digest(text) -> str      sha256 hex of canonical(text)
message_digest(text, ignored=()) -> str
messages_digest(text) -> str
canonical_arguments(text) -> str
Raises JcsError for anything the contract calls an error.
"""

import hashlib
import json
import math

_MAX_DEPTH = 1000


class JcsError(ValueError):
    """The input is not valid JSON for these functions, or of the wrong kind."""


class _Object:
    """A JSON object, its members kept in input order as (name, value) pairs."""

    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs


def _object_hook(pairs):
    seen = set()
    for name, _ in pairs:
        if name in seen:
            raise JcsError("duplicate member name %r" % name)
        seen.add(name)
    return _Object(pairs)


def _number(lexeme):
    value = float(lexeme)  # correctly rounded, as strtod is
    if math.isinf(value):
        raise JcsError("number rounds to infinity: " + lexeme)
    return value


def _reject_constant(name):
    raise JcsError("not JSON: " + name)


def _depth_ok(value):
    """Iteratively checks the nesting limit of docs/contract.md §3."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, _Object)):
            if depth > _MAX_DEPTH:
                raise JcsError("nested too deep")
            children = node if isinstance(node, list) else [v for _, v in node.pairs]
            stack.extend((child, depth + 1) for child in children)


def member(value, name, default=None):
    """The member called name of a parsed object, or default."""
    if isinstance(value, _Object):
        for key, child in value.pairs:
            if key == name:
                return child
    return default


def parse(text):
    """Parses JSON text (str or UTF-8 bytes) into lists, _Object, str, float,
    bool and None."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8", errors="strict")
        except UnicodeDecodeError as exc:
            raise JcsError("invalid UTF-8") from exc
    if text.startswith("\ufeff"):
        raise JcsError("byte order mark")
    try:
        value = json.loads(text, object_pairs_hook=_object_hook,
                           parse_float=_number, parse_int=_number,
                           parse_constant=_reject_constant)
    except RecursionError as exc:
        raise JcsError("nested too deep") from exc
    except json.JSONDecodeError as exc:
        raise JcsError(str(exc)) from exc
    _depth_ok(value)
    return value


def es_number(value):
    """ECMAScript's Number::toString for a finite double (ES2023 6.1.6.1.20)."""
    if value == 0:
        return "0"
    if value < 0:
        return "-" + es_number(-value)
    # repr gives the shortest digits that round-trip; only its layout differs.
    mantissa, _, exp = repr(value).partition("e")
    exponent = int(exp) if exp else 0
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    # value = 0.<digits> * 10**n
    n = len(whole) + exponent if whole != "0" else exponent - (len(frac) - len(frac.lstrip("0")))
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return head + "e" + sign + str(abs(e))


_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r",
          '"': '\\"', "\\": "\\\\"}


def _string(s):
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _utf16_key(name):
    return name.encode("utf-16-be", errors="surrogatepass")


def _render(value):
    """Canonical text of a parsed value; iterative over containers."""
    out = []
    # Work items: a value to render, or a literal string to emit.
    stack = [("v", value)]
    while stack:
        kind, item = stack.pop()
        if kind == "s":
            out.append(item)
            continue
        if isinstance(item, _Object):
            members = sorted(item.pairs, key=lambda pair: _utf16_key(pair[0]))
            parts = [("s", "{")]
            for i, (name, child) in enumerate(members):
                parts.append(("s", ("," if i else "") + _string(name) + ":"))
                parts.append(("v", child))
            parts.append(("s", "}"))
            stack.extend(reversed(parts))
        elif isinstance(item, list):
            parts = [("s", "[")]
            for i, child in enumerate(item):
                if i:
                    parts.append(("s", ","))
                parts.append(("v", child))
            parts.append(("s", "]"))
            stack.extend(reversed(parts))
        elif item is True:
            out.append("true")
        elif item is False:
            out.append("false")
        elif item is None:
            out.append("null")
        elif isinstance(item, float):
            out.append(es_number(item))
        else:
            out.append(_string(item))
    return "".join(out)


def _utf8(s):
    return s.encode("utf-8", errors="surrogatepass")


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def canonical(text):
    return _render(parse(text))


def data_digest(text):
    return sha256_hex(_utf8(canonical(text)))


def message_digest_value(value, ignored=()):
    """message_digest of a value parse() returned."""
    if not isinstance(value, _Object):
        raise JcsError("a message must be a JSON object")
    drop = {"extra", *ignored}
    kept = [(n, v) for n, v in value.pairs if v is not None and n not in drop]
    return sha256_hex(_utf8(_render(_Object(kept))))


def message_digest(text, ignored=()):
    return message_digest_value(parse(text), ignored)


def messages_digest(text):
    value = parse(text)
    if not isinstance(value, list):
        raise JcsError("messages must be a JSON array")
    return sha256_hex("".join(message_digest_value(m) for m in value).encode("ascii"))


def messages_digest_of(texts):
    """messages_digest of the array whose elements are the given JSON texts."""
    return sha256_hex("".join(message_digest(t) for t in texts).encode("ascii"))


def canonical_arguments(text):
    try:
        return canonical(text)
    except JcsError:
        return text


if __name__ == "__main__":
    import sys
    for line in sys.stdin:
        print(canonical(line))
