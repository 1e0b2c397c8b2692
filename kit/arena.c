/* SPDX-License-Identifier: MIT */
/*
 * arena.c - a thread's memory for the core's calls on one record at a
 * time: every block the core asks for is cut from one large chunk, in
 * order, and the whole chunk is made free again after the record
 * (wk_arena_reset).
 *
 * With the C library's allocator, a worker thread's arena gave the pages of
 * a large record's tape and result back and faulted them in again, and its
 * first touches of a 4 KiB page cost microseconds each on a virtual
 * machine: as much time as rendering the record.  A chunk here is mapped
 * with huge pages (memory.c) and kept from record to record.
 *
 * Each block has a header with its size, so a block can grow: in place
 * when it is the last one cut (the parser's tape, the rendering's buffer),
 * else by a copy.  Freeing the last block gives its room back; other frees
 * wait for the reset.  A record that needs more than the chunk holds gets a
 * larger chunk; the old one stays until the reset, since its blocks may be
 * live.  After a record, a chunk above KEEP_MAX is given back, so one huge
 * record does not leave the thread holding its memory.
 */
#include <stdint.h>
#include <string.h>

#include "wirejson_kit.h"

#define FIRST_CHUNK ((size_t)4 << 20)
#define KEEP_MAX ((size_t)64 << 20)
#define ALIGN 16

typedef struct wk_arena_header {
    size_t size;
    size_t pad; /* the blocks stay 16-byte aligned */
} header;

typedef struct wk_arena_chunk {
    struct wk_arena_chunk *older; /* a chunk outgrown during this record */
    size_t cap;
} chunk;

static size_t round_up(size_t n)
{
    return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

static chunk *chunk_new(size_t at_least)
{
    size_t cap = at_least;
    chunk *c = wk_big_realloc(NULL, 0, &cap);
    if (c) {
        c->older = NULL;
        c->cap = cap;
    }
    return c;
}

static void chunk_free(chunk *c)
{
    wk_big_free(c, c->cap);
}

void wk_arena_release(wk_arena *a)
{
    wk_arena_reset(a);
    if (a->now)
        chunk_free(a->now);
    a->now = NULL;
}

void wk_arena_reset(wk_arena *a)
{
    chunk *c = a->now ? a->now->older : NULL;
    while (c) {
        chunk *older = c->older;
        chunk_free(c);
        c = older;
    }
    if (a->now) {
        a->now->older = NULL;
        if (a->now->cap > KEEP_MAX) {
            chunk_free(a->now);
            a->now = NULL;
        }
    }
    a->used = round_up(sizeof(chunk));
    a->last = NULL;
}

static void *cut(wk_arena *a, size_t size)
{
    size_t need;
    header *h;
    if (size > SIZE_MAX / 2)
        return NULL;
    need = sizeof(header) + round_up(size);
    if (!a->now || a->now->cap - a->used < need) {
        size_t want = round_up(sizeof(chunk)) + need;
        chunk *c;
        if (a->now && want < 2 * a->now->cap)
            want = 2 * a->now->cap;
        if (want < FIRST_CHUNK)
            want = FIRST_CHUNK;
        if (!(c = chunk_new(want)))
            return NULL;
        c->older = a->now;
        a->now = c;
        a->used = round_up(sizeof(chunk));
    }
    h = (header *)((char *)a->now + a->used);
    h->size = size;
    a->used += need;
    a->last = h;
    return h + 1;
}

static void *arena_malloc(void *ctx, size_t size)
{
    return cut(ctx, size);
}

static void *arena_realloc(void *ctx, void *p, size_t size)
{
    wk_arena *a = ctx;
    header *h;
    void *n;
    if (!p)
        return cut(a, size);
    h = (header *)p - 1;
    if (h == a->last) {
        size_t start = (size_t)((char *)h - (char *)a->now);
        if (size <= SIZE_MAX / 2 &&
            a->now->cap - start - sizeof(header) >= round_up(size)) {
            h->size = size;
            a->used = start + sizeof(header) + round_up(size);
            return p;
        }
    }
    if (!(n = cut(a, size)))
        return NULL;
    memcpy(n, p, h->size < size ? h->size : size);
    return n;
}

static void arena_free(void *ctx, void *p)
{
    wk_arena *a = ctx;
    if (p && (header *)p - 1 == a->last) {
        a->used = (size_t)((char *)a->last - (char *)a->now);
        a->last = NULL;
    }
}

wj_alloc wk_arena_alloc(wk_arena *a)
{
    wj_alloc al = {arena_malloc, arena_realloc, arena_free, a, NULL};
    return al;
}
