/* SPDX-License-Identifier: MIT */
/*
 * number.h - JSON number lexemes to doubles and doubles to ECMAScript text.
 *
 * Internal to libwirejson.  Both directions are exact and independent of the
 * process locale: parsing rounds correctly (nearest, ties to even) and
 * formatting is ECMAScript's Number::toString (the shortest digits that read
 * back to the same double), which RFC 8785 prescribes.
 */
#ifndef WJ_NUMBER_H
#define WJ_NUMBER_H

#include <stddef.h>

/* Longest text wj_number_format writes: "-1.2345678901234567e-308" and kin. */
#define WJ_NUMBER_MAX_CHARS 32

/*
 * Reads a lexeme that already matched RFC 8259's number grammar into *out,
 * correctly rounded.  Returns 0, or -1 when its magnitude rounds to infinity
 * (*out untouched).  A lexeme that rounds to zero gives 0.0 or -0.0.
 */
int wj_number_parse(const char *lexeme, size_t len, double *out);

/*
 * Writes the finite double d as ECMAScript's Number::toString does (-0 as
 * "0", 1e21 as "1e+21", 1e-7 as "1e-7", 123 as "123") into buf, which has
 * room for WJ_NUMBER_MAX_CHARS bytes, and returns the length (no NUL).
 */
size_t wj_number_format(double d, char *buf);

/* The most significant digits a decimal is written with as it is read. */
#define WJ_SHORT_DIGITS 15

/* Whether an integer lexeme (digits, after a '-' or not) is its own RFC
 * 8785 spelling: up to WJ_SHORT_DIGITS digits, and not -0. */
static inline int wj_integer_as_written(const char *lexeme, size_t len)
{
    size_t sign = lexeme[0] == '-';
    return len - sign <= WJ_SHORT_DIGITS && !(sign && lexeme[sign] == '0');
}

/*
 * The RFC 8785 spelling of a number lexeme: wj_number_parse then
 * wj_number_format, or the lexeme itself when that is what they would write
 * (a plain decimal of at most 15 digits: number.c).  Returns the length
 * written to buf (room for WJ_NUMBER_MAX_CHARS), or 0 when the number rounds
 * to infinity.
 */
size_t wj_number_canonical(const char *lexeme, size_t len, char *buf);

#endif /* WJ_NUMBER_H */
