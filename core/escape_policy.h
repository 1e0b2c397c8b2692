/* SPDX-License-Identifier: MIT */
/*
 * escape_policy.h - the one statement of which bytes a string holds as
 * themselves and which escapes each rendering writes.  The parser's tables
 * (parse.c), the writers' kept sets and escapes (escape.c) are derived from
 * it; the SIMD compares test the same bytes ('"', '\\', below 0x20), the
 * escape-letter nibble tables of string_skip.c are checked against it, and
 * tests/unit/test_simd.c checks every path against a rule of its own.
 *
 * Internal to libwirejson.
 */
#ifndef WJ_ESCAPE_POLICY_H
#define WJ_ESCAPE_POLICY_H

/* Which renderings write a short escape as it is. */
#define WJ_ESC_WIRE 1
#define WJ_ESC_CANONICAL 2

/*
 * The short escapes JSON has: the code point, the letter after the
 * backslash, the renderings that write it so.  The others decode it: \/ is
 * written '/', and the wire rendering writes \b \f as \u0008 \u000c.
 */
#define WJ_SHORT_ESCAPES(X)                                                    \
    X('"', '"', WJ_ESC_WIRE | WJ_ESC_CANONICAL)                                \
    X('\\', '\\', WJ_ESC_WIRE | WJ_ESC_CANONICAL)                              \
    X('\n', 'n', WJ_ESC_WIRE | WJ_ESC_CANONICAL)                               \
    X('\r', 'r', WJ_ESC_WIRE | WJ_ESC_CANONICAL)                               \
    X('\t', 't', WJ_ESC_WIRE | WJ_ESC_CANONICAL)                               \
    X('\b', 'b', WJ_ESC_CANONICAL)                                             \
    X('\f', 'f', WJ_ESC_CANONICAL)                                             \
    X('/', '/', 0)

/* The letters each rendering keeps, as the SIMD compares take them: the
 * list above, filtered (test_simd.c checks they agree). */
#define WJ_ESC_WIRE_KEPT "\"\\nrt"
#define WJ_ESC_CANONICAL_KEPT "\"\\nrtbf"

/* A code point every rendering escapes: '"', '\\' and the controls (and,
 * written as \u escapes, lone surrogates). */
#define WJ_ESC_MUST(c) ((c) == '"' || (c) == '\\' || (c) < 0x20)

#endif /* WJ_ESCAPE_POLICY_H */
