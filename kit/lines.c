/* SPDX-License-Identifier: MIT */
/* lines.c - the dedup job's rules for its input lines and its keys. */
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
