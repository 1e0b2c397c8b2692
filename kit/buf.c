/* SPDX-License-Identifier: MIT */
/* buf.c - growable byte buffers whose first failure sticks (wk_buf), and
 * growable arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson_kit.h"

int wk_buf_reserve(wk_buf *b, size_t more)
{
    return wk_buf_reserve_upto(b, more, SIZE_MAX);
}

int wk_buf_reserve_upto(wk_buf *b, size_t more, size_t limit)
{
    size_t cap;
    char *p;
    if (b->failed)
        return -1;
    if (b->cap - b->len >= more)
        return 0;
    if (more > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    cap = b->cap ? b->cap : 4096;
    while (cap - b->len < more)
        cap *= 2;
    if (cap > limit && limit >= b->len + more)
        cap = limit;
    p = wk_big_grow(b->ptr, b->len, b->cap, &cap, &b->lent);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->ptr = p;
    b->cap = cap;
    return 0;
}

int wk_buf_append(wk_buf *b, const void *p, size_t n)
{
    if (wk_buf_reserve(b, n))
        return -1;
    if (n)
        memcpy(b->ptr + b->len, p, n);
    b->len += n;
    return 0;
}

void *wk_array_grow(void *v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 1024;
    if (v && need <= *cap)
        return v; /* (NULL: even room for none is an array, not a failure) */
    while (n < need) {
        if (n > SIZE_MAX / 2 / size)
            return NULL;
        n *= 2;
    }
    v = realloc(v, n * size);
    if (v)
        *cap = n;
    return v;
}

int wk_buf_failed(const wk_buf *b)
{
    return b->failed;
}

void wk_buf_free(wk_buf *b)
{
    if (!b->lent)
        wk_big_free(b->ptr, b->cap);
    memset(b, 0, sizeof *b);
}
