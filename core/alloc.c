/*
 * alloc.c - the allocator hook and the growable output buffer.
 */
#include "wj_internal.h"

#include <stdlib.h>

void *wj_malloc(const wj_alloc *alloc, size_t size)
{
    return alloc ? alloc->malloc(alloc->ctx, size) : malloc(size);
}

void *wj_realloc(const wj_alloc *alloc, void *ptr, size_t size)
{
    return alloc ? alloc->realloc(alloc->ctx, ptr, size) : realloc(ptr, size);
}

void wj_free(const wj_alloc *alloc, void *ptr)
{
    if (!ptr)
        return;
    if (alloc)
        alloc->free(alloc->ctx, ptr);
    else
        free(ptr);
}

int wj_buf_grow(wj_buf *buf, size_t extra)
{
    size_t need = buf->len + extra;
    size_t cap;
    char *p;

    if (buf->hash && buf->len) {
        wj_sha256_update(buf->hash, buf->ptr, buf->len);
        buf->len = 0;
        if (extra <= buf->cap)
            return 0;
        need = extra;
    }
    if (need < buf->len)
        return -1;
    cap = buf->cap ? buf->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    p = wj_realloc(buf->alloc, buf->ptr, cap);
    if (!p)
        return -1;
    buf->ptr = p;
    buf->cap = cap;
    return 0;
}

wj_code wj_buf_finish(wj_buf *buf, char **out, size_t *out_len, wj_error *err)
{
    if (wj_buf_reserve(buf, 1) != 0) {
        wj_free(buf->alloc, buf->ptr);
        buf->ptr = NULL;
        return wj_fail_nomem(err);
    }
    buf->ptr[buf->len] = '\0';
    *out = buf->ptr;
    if (out_len)
        *out_len = buf->len;
    buf->ptr = NULL;
    return WJ_OK;
}
