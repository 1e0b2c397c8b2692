#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate core/number_pow10.h: the powers of ten behind core/number.c.

wj_number_format scales a double's significand bounds by 10^e, and
wj_number_parse scales up to 19 decimal digits by 10^e, each with one
64 x 128-bit multiplication.  For each e in [E_MIN, E_MAX] the table holds

    g(e) = ceil(10^e / 2^r(e)),  r(e) = floor(e * log2(10)) - 127,

so 2^127 <= g(e) < 2^128, split into a high and a low 64-bit word, and
POW10_EXACT_MAX, the last e of the run 0, 1, 2, ... whose g(e) is exactly
10^e / 2^r(e) (wj_number_parse relies on exactness there).

Before writing anything the script proves, with exact integer arithmetic,
that the C code's shortcuts hold for every finite double:

  * the integer formulas number.c uses for floor(q log10 2),
    floor(log10(3/4 2^q)) and floor(e log2 10) are exact over the range;
  * the shift h = q + floor(-k log2 10) + 1 keeps m 2^h below 2^62;
  * "round to odd" read off the 192-bit product P = (m 2^h) g(-k) is
    exact: for every exponent q and every scaled significand m the code
    may multiply, the real V = m 2^q / 10^k = (m 2^h) (10^-k / 2^r) / 2^128
    is either an integer or has a fractional part in [2^-66, 1 - 2^-66].
    P / 2^128 exceeds V by less than m 2^h / 2^128 < 2^-66, so P's top 64
    bits are floor(V) and the 66 bits below them are nonzero exactly when
    V is not an integer.  (The tightest case, q = 664, has a fractional
    part near 2^-65.4: 64 bits would not do.)  The search over each range
    of m uses the Euclid-like "first multiple in a residue window"
    recursion, itself checked against brute force first.

Usage:
    python3 tools/gen_pow10.py [--output PATH]
Standard library only; the output depends on nothing else, so reruns give
the same bytes (ctest's number.table_fresh checks that).
"""

import argparse
import os
import random
import sys
from fractions import Fraction

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "core", "number_pow10.h")

Q_MIN = -1074          # exponent of the least subnormal: v = c 2^q
# wj_number_parse scales w (at most 19 digits) by 10^e only when
# 0.w 10^(e + digits) >= 10^-324, so e >= -323 - 19.
PARSE_E_MIN = -342
Q_MAX = 2046 - 1075    # exponent of the largest binade
C_MIN = 1 << 52        # least normal significand
C_MAX = (1 << 53) - 1
MASK64 = (1 << 64) - 1


# -------------------------------------------------- the formulas in number.c

def floor_shift(x, s):
    """x >> s as number.c computes it: floor(x / 2^s) for any sign."""
    return x >> s  # Python's >> on negative ints is floor division


def c_floor_log10_pow2(q):
    return floor_shift(q * 1262611, 22)


def c_floor_log10_three_quarters_pow2(q):
    return floor_shift(q * 1262611 - 524031, 22)


def c_floor_log2_pow10(e):
    return floor_shift(e * 1741647, 19)


# --------------------------------------------------------- exact references

def floor_log10(x):
    """floor(log10(x)) for a positive Fraction x."""
    k = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** k > x:
        k -= 1
    while Fraction(10) ** (k + 1) <= x:
        k += 1
    return k


def floor_log2(x):
    """floor(log2(x)) for a positive Fraction x."""
    k = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** k > x:
        k -= 1
    while Fraction(2) ** (k + 1) <= x:
        k += 1
    return k


def pow10_entry(e):
    """(r, g): r = floor(log2(10^e)) - 127, g = ceil(10^e / 2^r)."""
    x = Fraction(10) ** e
    r = floor_log2(x) - 127
    y = x / Fraction(2) ** r
    g = -((-y.numerator) // y.denominator)
    assert (1 << 127) <= g < (1 << 128)
    return r, g


# -------------------------------------- residues of an arithmetic progression

def first_in_window(a, m, lo, hi):
    """Least t >= 0 with lo <= (a t) mod m <= hi (0 <= lo <= hi < m), or
    None when there is none."""
    if lo == 0:
        return 0
    a %= m
    if a == 0:
        return None
    t = -(-lo // a)
    if a * t <= hi:
        return t
    # No multiple of a lies in [lo, hi], so a t = j m + w needs j >= 1 with
    # (j m) mod a in [(-hi) mod a, (-lo) mod a]; the least j gives the
    # least t.
    j = first_in_window(m % a, a, (-hi) % a, (-lo) % a)
    if j is None:
        return None
    return -(-(lo + j * m) // a)


def hits_window(n, d, first, last, lo, hi):
    """Whether some m in [first, last] has lo <= (m n) mod d <= hi."""
    base = (first * n) % d
    # (m n) mod d = (base + t n) mod d for m = first + t.
    lo_s, hi_s = (lo - base) % d, (hi - base) % d
    windows = [(lo_s, hi_s)] if lo_s <= hi_s else [(lo_s, d - 1), (0, hi_s)]
    for wlo, whi in windows:
        t = first_in_window(n, d, wlo, whi)
        if t is not None and first + t <= last:
            return True
    return False


def self_test_windows():
    rng = random.Random(8785)
    for _ in range(20000):
        d = rng.randint(1, 300)
        n = rng.randint(0, 400)
        first = rng.randint(0, 200)
        last = first + rng.randint(0, 200)
        lo = rng.randint(0, d - 1)
        hi = rng.randint(lo, d - 1)
        want = any(lo <= (m * n) % d <= hi for m in range(first, last + 1))
        if hits_window(n, d, first, last, lo, hi) != want:
            raise AssertionError(f"window search wrong: {n} {d} {first} "
                                 f"{last} {lo} {hi}")


# ------------------------------------------------------------------- proofs

def check_formulas():
    for q in range(Q_MIN - 30, Q_MAX + 30):
        x = Fraction(2) ** q
        assert c_floor_log10_pow2(q) == floor_log10(x), q
        assert c_floor_log10_three_quarters_pow2(q) == \
            floor_log10(x * Fraction(3, 4)), q
    for e in range(-400, 400):
        assert c_floor_log2_pow10(e) == floor_log2(Fraction(10) ** e), e


def separated(n, d, first, last):
    """Whether every m in [first, last] makes m n / d an integer or puts its
    fractional part in [2^-66, 1 - 2^-66]."""
    if d == 1:
        return True
    near = -(-d // (1 << 66)) - 1  # r / d < 2^-66  <=>  r <= near
    if near >= 1 and (hits_window(n, d, first, last, 1, near) or
                      hits_window(n, d, first, last, d - near, d - 1)):
        return False
    return True


def check_scaling(entries):
    """Every (q, k, m) wj_number_format multiplies meets the conditions in
    the module's doc string; returns the range of the shift h."""
    h_seen = set()

    def check(q, k, step, first, last):
        """m = step j for j in [first, last]."""
        r, _ = entries[-k]
        h = q + r + 128
        assert h == q + c_floor_log2_pow10(-k) + 1
        assert 0 <= h and ((step * last) << h) < (1 << 62), (q, h)
        h_seen.add(h)
        x = step * Fraction(2) ** q / Fraction(10) ** k
        if not separated(x.numerator, x.denominator, first, last):
            raise AssertionError(f"round to odd may fail at q={q} k={k}")

    for q in range(Q_MIN, Q_MAX + 1):
        # Regular spacing: m = 4c - 2, 4c, 4c + 2 = 2j for every significand
        # c (subnormal ones too at Q_MIN) and j in [2c - 1, 2c + 1].
        c_low = 1 if q == Q_MIN else C_MIN
        check(q, c_floor_log10_pow2(q), 2, 2 * c_low - 1, 2 * C_MAX + 1)
        if q > Q_MIN:
            # c = 2^52 above Q_MIN: the gap below is half as wide.
            k = c_floor_log10_three_quarters_pow2(q)
            for m in (4 * C_MIN - 1, 4 * C_MIN, 4 * C_MIN + 2):
                check(q, k, 1, m, m)
    return min(h_seen), max(h_seen)


# ------------------------------------------------------------------- output

def exact_max(entries):
    """The largest E with 10^e / 2^r(e) an integer for all 0 <= e <= E."""
    e = 0
    while (Fraction(10) ** (e + 1) / Fraction(2) ** entries[e + 1][0]) \
            .denominator == 1:
        e += 1
    return e


def render(entries, e_min, e_max, h_range):
    lines = [
        "/* SPDX-License-Identifier: MIT */",
        "/*",
        " * number_pow10.h - ceil(10^e / 2^r(e)) for core/number.c,",
        " * r(e) = floor(e log2 10) - 127, as {high, low} 64-bit words.",
        " *",
        " * Generated by tools/gen_pow10.py, which also proves"
        " wj_number_format's",
        " * scaling exact for every double (shift h in "
        f"[{h_range[0]}, {h_range[1]}]).",
        " * Do not edit; rerun the script.",
        " */",
        "#ifndef WJ_NUMBER_POW10_H",
        "#define WJ_NUMBER_POW10_H",
        "",
        "#include <stdint.h>",
        "",
        f"#define POW10_E_MIN ({e_min})",
        f"#define POW10_E_MAX {e_max}",
        "/* g(e) is exactly 10^e / 2^r(e) for 0 <= e <= POW10_EXACT_MAX. */",
        f"#define POW10_EXACT_MAX {exact_max(entries)}",
        "",
        "static const uint64_t pow10_table[POW10_E_MAX - POW10_E_MIN + 1][2]"
        " = {",
    ]
    for e in range(e_min, e_max + 1):
        _, g = entries[e]
        lines.append(f"    {{0x{g >> 64:016x}, 0x{g & MASK64:016x}}}, "
                     f"/* 10^{e} */")
    lines += ["};", "", "#endif /* WJ_NUMBER_POW10_H */", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args()

    self_test_windows()
    check_formulas()
    ks = [c_floor_log10_pow2(q) for q in range(Q_MIN, Q_MAX + 1)]
    ks += [c_floor_log10_three_quarters_pow2(q)
           for q in range(Q_MIN + 1, Q_MAX + 1)]
    e_min, e_max = min(-max(ks), PARSE_E_MIN), -min(ks)
    entries = {e: pow10_entry(e) for e in range(e_min, e_max + 1)}
    h_range = check_scaling(entries)

    with open(args.output, "w", encoding="ascii", newline="\n") as out:
        out.write(render(entries, e_min, e_max, h_range))
    return 0


if __name__ == "__main__":
    sys.exit(main())
