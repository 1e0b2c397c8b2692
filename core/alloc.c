/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the allocator hook, the one growth policy of the library's
 * buffers and arrays, and the growable output buffer.
 *
 * A first block is as large as asked for (or `first`, the smallest worth
 * having).  Growth doubles, so that appending is linear, but a request is
 * never larger than it has to be when that could fail where a smaller one
 * would not: it stops at what the caller says the data can need; it stays
 * under the largest block SQLite's allocator serves (sqlite3_malloc64
 * refuses 0x7fffff00 bytes and more, whatever memory is free) while the
 * need is below that; and when a large request is refused anyway (another
 * allocator's limit, or memory short of the doubled size) it asks again
 * with half the increment, and half again, down to just what is needed.
 */
#include "wj_internal.h"

#include <stdlib.h>

/* The largest block requested while the need is smaller: just under what
 * sqlite3_malloc64 serves. */
#define SERVED_MAX ((size_t)0x7ffffe00u)

/* A refused request at least this large is tried again smaller; smaller
 * ones fail as they are (an allocator that cannot give 64 MiB is out of
 * memory, and the allocation-failure tests see every failure). */
#define RETRY_SMALLER ((size_t)1 << 26)

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

void *wj_grow(const wj_alloc *alloc, void *ptr, size_t cap, size_t need,
              size_t first, size_t most, size_t *new_cap)
{
    /* a first block: what is needed, or `first` if that is more */
    size_t c = cap ? cap : first > need ? first : need;
    void *p;

    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    if (c > most)
        c = most > need ? most : need;
    if (c > SERVED_MAX && need <= SERVED_MAX)
        c = SERVED_MAX;
    p = wj_realloc(alloc, ptr, c);
    if (!p && c > need && c >= RETRY_SMALLER) {
        /* Halve the increment until a block is given or only the need is
         * left: each growth then takes at least half the room there is,
         * so a buffer near the allocator's limit grows a logarithmic
         * number of times, not once per element. */
        size_t inc = (c - cap) / 2;
        for (;;) {
            c = inc > need - cap ? cap + inc : need;
            p = wj_realloc(alloc, ptr, c);
            if (p || c == need)
                break;
            inc /= 2;
        }
    }
    if (p)
        *new_cap = c;
    return p;
}

/* Where buf's room ends for a need of `need` bytes: the block's end, or with
 * an interrupted hook where the hook is next due (never short of need). */
static size_t room_end(const wj_buf *buf, size_t need)
{
    size_t end;
    if (!wj_pollable(buf->alloc))
        return buf->size;
    end = buf->poll_at > buf->done ? buf->poll_at - buf->done : 0;
    if (end < need)
        end = need;
    return end < buf->size ? end : buf->size;
}

int wj_buf_grow(wj_buf *buf, size_t extra)
{
    size_t need = buf->len + extra, cap;
    char *p;

    /* Asked once a MiB of output: room_end stops the room where it is due. */
    if (wj_pollable(buf->alloc) && buf->done + buf->len >= buf->poll_at) {
        if (wj_interrupted(buf->alloc)) {
            buf->stopped = 1;
            return -1;
        }
        buf->poll_at = buf->done + buf->len + WJ_POLL_BYTES;
    }
    if (buf->hash && buf->len) {
        wj_sha256_update(buf->hash, buf->ptr, buf->len);
        buf->done += buf->len;
        buf->len = 0;
        need = extra;
    }
    if (need < buf->len)
        return -1;
    if (need > buf->size) {
        p = wj_grow(buf->alloc, buf->ptr, buf->size, need, 256, SIZE_MAX, &cap);
        if (!p)
            return -1;
        buf->ptr = p;
        buf->size = cap;
    }
    buf->cap = room_end(buf, need);
    return 0;
}

char *wj_buf_grow_at(wj_buf *buf, char *at, size_t n)
{
    buf->len = (size_t)(at - buf->ptr);
    if (wj_buf_grow(buf, n) != 0)
        return NULL;
    return buf->ptr + buf->len;
}

int wj_buf_presize(wj_buf *buf, size_t extra)
{
    if (wj_buf_reserve(buf, extra) != 0)
        return -1;
    buf->cap = room_end(buf, buf->len);
    return 0;
}

wj_code wj_buf_fail(const wj_buf *buf, wj_error *err)
{
    return buf->stopped ? wj_fail_interrupted(err) : wj_fail_nomem(err);
}

size_t wj_render_reserve(size_t len)
{
    size_t slack = len / 8 < 65536 ? len / 8 : 65536;
    return len + slack + 16;
}

wj_code wj_buf_finish(wj_buf *buf, char **out, size_t *out_len, wj_error *err)
{
    if (wj_buf_reserve(buf, 1) != 0) {
        wj_free(buf->alloc, buf->ptr);
        buf->ptr = NULL;
        return wj_buf_fail(buf, err);
    }
    buf->ptr[buf->len] = '\0';
    *out = buf->ptr;
    if (out_len)
        *out_len = buf->len;
    buf->ptr = NULL;
    return WJ_OK;
}
