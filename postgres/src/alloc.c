/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the core's allocator hook on PostgreSQL's memory contexts.
 *
 * Every buffer the core asks for comes from palloc in a memory context
 * (CurrentMemoryContext for a function call, the aggregate context for
 * messages_digest_agg's state).  The *_extended calls with MCXT_ALLOC_NO_OOM
 * return NULL instead of raising an error, so the core sees a failed
 * allocation, releases what it holds and returns WJ_ERR_NOMEM; the caller then
 * raises the error, outside the core.  MCXT_ALLOC_HUGE lets the core work on
 * documents up to PostgreSQL's 1 GB value limit, whose trees and results may
 * be larger than 1 GB; a request beyond what palloc can ever give is a NULL,
 * not an error.
 */
#include "wirejson_pg.h"

#define ALLOC_FLAGS (MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM)

static void *pg_malloc(void *ctx, size_t size)
{
    if (size > MaxAllocHugeSize)
        return NULL;
    return MemoryContextAllocExtended(
        ctx ? (MemoryContext)ctx : CurrentMemoryContext, size, ALLOC_FLAGS);
}

static void *pg_realloc(void *ctx, void *ptr, size_t size)
{
    if (!ptr)
        return pg_malloc(ctx, size);
    if (size > MaxAllocHugeSize)
        return NULL;
    return repalloc_extended(ptr, size, ALLOC_FLAGS);
}

static void pg_free(void *ctx, void *ptr)
{
    (void)ctx;
    if (ptr)
        pfree(ptr);
}

const wj_alloc wjpg_current_alloc = {pg_malloc, pg_realloc, pg_free, NULL, NULL};

void wjpg_alloc_init(wj_alloc *alloc, MemoryContext ctx)
{
    alloc->malloc = pg_malloc;
    alloc->realloc = pg_realloc;
    alloc->free = pg_free;
    alloc->ctx = ctx;
}
