/* SPDX-License-Identifier: MIT */
/* lines.c - the dedup job's rules for its input lines and its keys. */
#include <string.h>

#include "wirejson_kit.h"

int wk_line_is_blank(const char *line, size_t len)
{
    size_t k;
    for (k = 0; k < len; k++)
        if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
            return 0;
    return 1;
}

static unsigned hex_value(char c)
{
    return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

void wk_digest_bytes(const char *hex, unsigned char bytes[32])
{
    size_t k;
    for (k = 0; k < 32; k++)
        bytes[k] = (unsigned char)(hex_value(hex[2 * k]) << 4 |
                                   hex_value(hex[2 * k + 1]));
}

void wk_digest_hex(const unsigned char bytes[32], char hex[64])
{
    static const char digits[] = "0123456789abcdef";
    size_t k;
    for (k = 0; k < 32; k++) {
        hex[2 * k] = digits[bytes[k] >> 4];
        hex[2 * k + 1] = digits[bytes[k] & 0xF];
    }
}

int wk_next_line(const char *p, size_t size, size_t at, int final,
                 size_t *len, size_t *next)
{
    const char *nl;
    if (at >= size)
        return 0;
    nl = memchr(p + at, '\n', size - at);
    if (!nl && !final)
        return 0;
    *len = nl ? (size_t)(nl - (p + at)) : size - at;
    *next = at + *len + (nl != NULL);
    return 1;
}
