/* SPDX-License-Identifier: MIT */
/*
 * pg_alloc.c - the core's allocator hook on PostgreSQL's memory contexts.
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
 *
 * The interrupted hook lets a query cancel, a statement_timeout or a
 * backend's termination stop a long call: the core asks it about once a MiB
 * and stops with WJ_ERR_INTERRUPTED; it only reads the flags the signal
 * handlers set (raising an error here would longjmp out of the core), and
 * wjpg_raise then lets CHECK_FOR_INTERRUPTS raise the cancel.
 */
#include "wirejson_pg.h"

#include "miscadmin.h"

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

static int pg_interrupted(void *ctx)
{
    (void)ctx;
    return InterruptPending && (QueryCancelPending || ProcDiePending);
}

const wj_alloc wjpg_current_alloc = {pg_malloc, pg_realloc, pg_free, NULL,
                                     pg_interrupted};

void wjpg_alloc_init(wj_alloc *alloc, MemoryContext ctx)
{
    alloc->malloc = pg_malloc;
    alloc->realloc = pg_realloc;
    alloc->free = pg_free;
    alloc->ctx = ctx;
    alloc->interrupted = pg_interrupted;
}
