/* SPDX-License-Identifier: MIT */
/*
 * unicode.h - the Unicode properties the library needs: canonical combining
 * classes (the wire rendering, §4) and simple case folding (with_top_level's
 * member names, §7).
 *
 * Internal to libwirejson.  The tables behind them are generated from
 * Unicode 15.0's UnicodeData.txt by tools/gen_combining.py and from its
 * CaseFolding.txt by tools/gen_casefold.py, so the library reads no Unicode
 * file at run time.
 */
#ifndef WJ_UNICODE_H
#define WJ_UNICODE_H

#include <stdint.h>

/* Nonzero when code point cp has a non-zero canonical combining class. */
int wj_is_combining(uint32_t cp);

/* The code point cp folds to under simple case folding (the C and S lines
 * of CaseFolding.txt: one code point to one, U+00DF stays U+00DF), or cp
 * itself when it has none.  Any uint32_t is accepted: a surrogate or a
 * value above U+10FFFF folds to itself.  Two code points are the same
 * letter under the folding exactly when they fold to the same code point. */
uint32_t wj_case_fold(uint32_t cp);

#endif /* WJ_UNICODE_H */
