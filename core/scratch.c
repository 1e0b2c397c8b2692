/* SPDX-License-Identifier: MIT */
/*
 * scratch.c - the parser's working arrays, kept from one call to the next.
 *
 * A call's tape and member lists die with the call, but allocating them
 * afresh each time costs more than filling them: once a call's blocks are
 * freed, the C library gives the top of its heap back to the system (glibc
 * trims beyond 128 KiB), and the next call faults every page in again,
 * zeroed by the kernel - on a virtual machine more time than the parse
 * itself.  So the library keeps one block of each kind between calls made
 * with the default allocator (wj_alloc NULL): a call takes the kept blocks
 * if they are there (else starts with none) and gives its blocks back when
 * it is done, each kept if its slot is empty and it is no larger than
 * KEEP_MAX, else freed.  A taken block belongs to one call, so threads
 * never share one.
 *
 * The slots come in STRIPES sets, each on cache lines of its own, and a
 * thread uses the set its first call was given (round robin).  With one
 * set for every thread, threads running side by side (DuckDB's, a pool's)
 * took each other's blocks, left each other without one (a fresh malloc
 * and free a call) and passed the slots' cache line to and fro on every
 * call.  A set is not the thread's own (threads beyond STRIPES share one)
 * and holds nothing a thread must free when it ends: a library that is
 * unloaded (SQLite closes its extensions) leaves no destructor behind, and
 * a thread that ends leaves its blocks to the next thread given its set.
 *
 * Calls with their own allocator keep nothing: SQLite counts (and may fail)
 * every allocation, and PostgreSQL's and Python's memory is theirs to
 * account for; a block must not outlive the call that made it.
 */
#include "wj_internal.h"

#include <stdatomic.h>

/* Larger blocks go back to the system: one huge document must not leave
 * the process holding its tape. */
#define KEEP_MAX ((size_t)4 << 20)

/* Sets of slots: as many threads as this run side by side without sharing. */
#define STRIPES 8

/* A set's blocks are taken and given together, under one flag: a call
 * pays one atomic exchange for all its kinds, not one a kind (on a body of
 * half a KiB, ten exchanges were some 4 % of a canonical_json in DuckDB).
 * A thread that finds the flag set (another thread of its set is busy
 * there) just goes without: it allocates, or frees what it gives. */
typedef struct stripe {
    _Alignas(64) atomic_bool busy;
    wj_scratch_block kept[WJ_SCRATCH_KINDS];
} stripe;

static stripe stripes[STRIPES];

static atomic_uint next_stripe;

/* The calling thread's set: 1 + its index once given, 0 before. */
static _Thread_local unsigned my_stripe;

/* The calling thread's set, locked; NULL when another thread holds it. */
static stripe *lock_stripe(void)
{
    stripe *st;
    if (!my_stripe)
        my_stripe = 1 + atomic_fetch_add_explicit(&next_stripe, 1,
                                                  memory_order_relaxed) %
                            STRIPES;
    st = &stripes[my_stripe - 1];
    return atomic_exchange_explicit(&st->busy, 1, memory_order_acquire)
               ? NULL
               : st;
}

static void unlock_stripe(stripe *st)
{
    atomic_store_explicit(&st->busy, 0, memory_order_release);
}

void wj_scratch_take(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks)
{
    stripe *st = alloc ? NULL : lock_stripe();
    unsigned k;
    memset(blocks, 0, (size_t)n * sizeof *blocks);
    if (!st)
        return;
    for (k = 0; k < n; k++) {
        blocks[k] = st->kept[first + k];
        st->kept[first + k] = (wj_scratch_block){NULL, 0};
    }
    unlock_stripe(st);
}

void wj_scratch_give(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks)
{
    stripe *st = alloc ? NULL : lock_stripe(); /* NULL: all is freed */
    unsigned k;
    for (k = 0; k < n; k++) {
        wj_scratch_block *slot = st ? &st->kept[first + k] : NULL;
        if (!blocks[k].ptr)
            continue;
        if (slot && !slot->ptr && blocks[k].size <= KEEP_MAX)
            *slot = blocks[k];
        else
            wj_free(alloc, blocks[k].ptr);
        blocks[k] = (wj_scratch_block){NULL, 0};
    }
    if (st)
        unlock_stripe(st);
}
