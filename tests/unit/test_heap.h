/* SPDX-License-Identifier: MIT */
/*
 * test_heap.h - a wj_alloc over malloc that counts its calls and the blocks
 * it holds, and that can refuse one chosen call: the unit tests check that
 * a function frees everything, and fails cleanly at every allocation.
 *
 *   heap_calls = 0; heap_fail_at = 3;   -- the third call returns NULL
 *   ... run with &heap ...
 *   CHECK(heap_live == 0);
 */
#ifndef WJ_TEST_HEAP_H
#define WJ_TEST_HEAP_H

#include "wirejson.h"

#include <stdlib.h>

static size_t heap_calls, heap_fail_at; /* fail_at 0: never */
static long heap_live;

static int heap_refuse(void)
{
    return ++heap_calls == heap_fail_at;
}

static void *heap_malloc(void *ctx, size_t size)
{
    void *p;
    (void)ctx;
    if (heap_refuse())
        return NULL;
    p = malloc(size ? size : 1);
    heap_live += p != NULL;
    return p;
}

static void *heap_realloc(void *ctx, void *ptr, size_t size)
{
    void *p;
    (void)ctx;
    if (heap_refuse())
        return NULL;
    p = realloc(ptr, size ? size : 1);
    heap_live += p != NULL && ptr == NULL;
    return p;
}

static void heap_free(void *ctx, void *ptr)
{
    (void)ctx;
    if (ptr) {
        heap_live--;
        free(ptr);
    }
}

static const wj_alloc heap = {heap_malloc, heap_realloc, heap_free, NULL, NULL};

#endif /* WJ_TEST_HEAP_H */
