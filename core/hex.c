/* SPDX-License-Identifier: MIT */
/*
 * hex.c - hexadecimal, its one home: the lowercase digits digests and every
 * \u escape the library writes use (docs/contract.md §3, §6), and the value
 * of a digit the parser and the writers read.
 */
#include "wj_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const char wj_hex_digits[] = "0123456789abcdef";

#if defined(__SSE2__)
/* The hex digit of each nibble (0-15) of v: '0' + x, and 39 more from 10
 * on ('a' is '0' + 49). */
static inline __m128i hex_digits16(__m128i v)
{
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(9)),
                                   _mm_set1_epi8(39));
    return _mm_add_epi8(_mm_add_epi8(v, _mm_set1_epi8('0')), letter);
}
#endif

/* 16 bytes at a time where SSE2 is there (a digest is two steps: these
 * were 1.5% of a small body's wj_data_digest a nibble at a time). */
void wj_hex_encode(const unsigned char *bytes, size_t n, char *out)
{
    size_t k = 0;
#if defined(__SSE2__)
    const __m128i low = _mm_set1_epi8(0x0F);
    for (; n - k >= 16; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(bytes + k));
        __m128i hi = hex_digits16(_mm_and_si128(_mm_srli_epi16(v, 4), low));
        __m128i lo = hex_digits16(_mm_and_si128(v, low));
        _mm_storeu_si128((__m128i *)(void *)(out + 2 * k),
                         _mm_unpacklo_epi8(hi, lo));
        _mm_storeu_si128((__m128i *)(void *)(out + 2 * k + 16),
                         _mm_unpackhi_epi8(hi, lo));
    }
#endif
    for (; k < n; k++) {
        out[2 * k] = wj_hex_digits[bytes[k] >> 4];
        out[2 * k + 1] = wj_hex_digits[bytes[k] & 0xF];
    }
}

int wj_hex_decode(const char *hex, size_t n, unsigned char *bytes)
{
    size_t k;
    for (k = 0; k < n; k++) {
        unsigned hi = wj_hex_value[(unsigned char)hex[2 * k]];
        unsigned lo = wj_hex_value[(unsigned char)hex[2 * k + 1]];
        if (!hi || !lo)
            return -1;
        bytes[k] = (unsigned char)((hi - 1) << 4 | (lo - 1));
    }
    return 0;
}

/* clang-format off */
const unsigned char wj_hex_value[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
    ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};
/* clang-format on */
