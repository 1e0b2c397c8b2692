/* SPDX-License-Identifier: MIT */
/*
 * utf8.h - reading and writing UTF-8, the one home of its rules (RFC 3629):
 * the parser's validation, the writers' decoding and encoding, the member
 * orders' UTF-16 view and with_top_level's case folding all use these.
 *
 * Internal to libwirejson.  "Generalized" UTF-8 also admits a surrogate
 * code point (U+D800..U+DFFF) in its 3-byte form (ED A0 80 .. ED BF BF):
 * that is how a decoded string holds a lone \ud800 escape, and how Python's
 * str carries a lone surrogate.
 */
#ifndef WJ_UTF8_H
#define WJ_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The first byte of U+0300, the lowest combining mark: a byte below it
 * starts no mark (the wire rendering's rule for a mark after an escape). */
#define WJ_UTF8_MARK_LEAD 0xCC
/* The first byte of U+E000: from there on a character's UTF-16 order may
 * differ from its code point order (a surrogate pair sorts below it). */
#define WJ_UTF8_UTF16_ORDER_LEAD 0xEE

/*
 * Length of the well-formed UTF-8 sequence at s (avail >= 1 bytes there),
 * or 0: no overlong form, nothing above U+10FFFF, no truncated sequence,
 * and no surrogate unless surrogates is nonzero.  An ASCII byte is 1.
 */
static inline size_t wj_utf8_length(const unsigned char *s, size_t avail,
                                    int surrogates)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n, k;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED && !surrogates)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (k = 2; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* The code point of the well-formed (generalized) UTF-8 sequence at s, and
 * its length in *n.  s is trusted: check it with wj_utf8_length first. */
static inline uint32_t wj_utf8_decode(const unsigned char *s, size_t *n)
{
    if (s[0] < 0x80) {
        *n = 1;
        return s[0];
    }
    if (s[0] < 0xE0) {
        *n = 2;
        return (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3Fu);
    }
    if (s[0] < 0xF0) {
        *n = 3;
        return (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
               (s[2] & 0x3Fu);
    }
    *n = 4;
    return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
           (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3Fu);
}

/* Writes cp (at most U+10FFFF; a surrogate in its generalized 3-byte form)
 * at out and returns its length, 1 to 4. */
static inline size_t wj_utf8_encode(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

#endif /* WJ_UTF8_H */
