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
 * with the default allocator (wj_alloc NULL), in a slot shared by every
 * thread: a call takes the kept block if it is there (else starts with
 * none) and gives its block back when it is done, kept if the slot is
 * empty and the block no larger than KEEP_MAX, else freed.  A taken block
 * belongs to one call, so threads never share one.
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

static _Atomic(void *) kept[WJ_SCRATCH_KINDS];

void *wj_scratch_take(const wj_alloc *alloc, wj_scratch_kind kind, size_t *size)
{
    void *block = alloc ? NULL : atomic_exchange(&kept[kind], NULL);
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
        if (atomic_compare_exchange_strong(&kept[kind], &empty, block))
            return;
    }
    wj_free(alloc, block);
}
