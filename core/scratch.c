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
 * with the default allocator (wj_alloc NULL): a call takes the kept block
 * if it is there (else starts with none) and gives its block back when it
 * is done, kept if the slot is empty and the block no larger than KEEP_MAX,
 * else freed.  A taken block belongs to one call, so threads never share
 * one.
 *
 * The slots come in STRIPES sets, each on a cache line of its own, and a
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
 *
 * While a block waits in its slot, its first bytes hold its size.
 */
#include "wj_internal.h"

#include <stdatomic.h>

/* Larger blocks go back to the system: one huge document must not leave
 * the process holding its tape. */
#define KEEP_MAX ((size_t)4 << 20)

/* Sets of slots: as many threads as this run side by side without sharing. */
#define STRIPES 8

static struct {
    _Alignas(64) _Atomic(void *) kept[WJ_SCRATCH_KINDS];
} stripes[STRIPES];

static atomic_uint next_stripe;

/* The calling thread's set: 1 + its index once given, 0 before. */
static _Thread_local unsigned my_stripe;

static _Atomic(void *) *slot(wj_scratch_kind kind)
{
    if (!my_stripe)
        my_stripe = 1 + atomic_fetch_add_explicit(&next_stripe, 1,
                                                  memory_order_relaxed) %
                            STRIPES;
    return &stripes[my_stripe - 1].kept[kind];
}

void *wj_scratch_take(const wj_alloc *alloc, wj_scratch_kind kind, size_t *size)
{
    void *block = alloc ? NULL : atomic_exchange(slot(kind), NULL);
    *size = 0;
    if (block)
        memcpy(size, block, sizeof *size);
    return block;
}

void wj_scratch_give(const wj_alloc *alloc, wj_scratch_kind kind, void *block,
                     size_t size)
{
    void *empty = NULL;
    if (!block)
        return;
    if (!alloc && size >= sizeof size && size <= KEEP_MAX) {
        memcpy(block, &size, sizeof size);
        if (atomic_compare_exchange_strong(slot(kind), &empty, block))
            return;
    }
    wj_free(alloc, block);
}
