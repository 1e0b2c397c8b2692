/* SPDX-License-Identifier: MIT */
/*
 * hex.c - lowercase hexadecimal, the one spelling of it: digests and every
 * \u escape the library writes use these digits (docs/contract.md §3, §6).
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
