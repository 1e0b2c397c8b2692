/* SPDX-License-Identifier: MIT */
/*
 * hex.c - hexadecimal, its one home: the lowercase digits digests and every
 * \u escape the library writes use (docs/contract.md §3, §6), and the value
 * of a digit the parser and the writers read.
 */
#include "wj_internal.h"

const char wj_hex_digits[] = "0123456789abcdef";

void wj_hex_encode(const unsigned char *bytes, size_t n, char *out)
{
    size_t k;
    for (k = 0; k < n; k++) {
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
