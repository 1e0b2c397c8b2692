/* SPDX-License-Identifier: MIT */
/* dedup_lines.c - the dedup job's rules for its input lines. */
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
