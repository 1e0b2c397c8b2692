/*
 * unicode.h - the one Unicode property the wire rendering needs.
 *
 * Internal to libwirejson.  The table behind it is generated from Unicode
 * 15.0's UnicodeData.txt by tools/gen_combining.py, so the library reads no
 * Unicode file at run time.
 */
#ifndef WJ_UNICODE_H
#define WJ_UNICODE_H

#include <stdint.h>

/* Nonzero when code point cp has a non-zero canonical combining class. */
int wj_is_combining(uint32_t cp);

#endif /* WJ_UNICODE_H */
