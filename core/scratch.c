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
 * Each thread keeps its own set, in thread-local storage: a call takes and
 * gives with plain loads and stores.  (Sets shared by threads, under an
 * atomic flag, cost two locked exchanges a call, each waiting for the
 * stores before it to drain: 3 % of a canonical_json of a 0.7 KiB body.)
 * A thread that keeps a block is armed once with a thread-specific key
 * whose destructor frees its set when it ends; the library's destructor
 * (it is unloaded, as SQLite unloads its extensions at close, or the
 * process exits) deletes the key first, so that no thread's end calls
 * into a library that is gone, and frees its own thread's set.  The sets
 * of other threads alive at that moment are left, and freed by no one.
 *
 * Calls with their own allocator keep nothing: SQLite counts (and may fail)
 * every allocation, and PostgreSQL's and Python's memory is theirs to
 * account for; a block must not outlive the call that made it.
 */
#include "wj_internal.h"

#include <pthread.h>
#include <stdatomic.h>

/* Larger blocks go back to the system: one huge document must not leave
 * the process holding its tape. */
#define KEEP_MAX ((size_t)4 << 20)

enum { UNARMED, ARMED, NEVER }; /* may a thread keep blocks yet? */

typedef struct kept_set {
    wj_scratch_block kept[WJ_SCRATCH_KINDS];
    int state;
} kept_set;

static _Thread_local kept_set mine;

static pthread_key_t thread_end;
static pthread_once_t thread_end_once = PTHREAD_ONCE_INIT;
static atomic_int thread_end_made; /* 1 made, -1 failed or deleted */

/* Frees a set's blocks; it keeps none from now on (a destructor run after
 * this one, still in the library, must not leave it more). */
static void free_set(kept_set *set)
{
    unsigned k;
    for (k = 0; k < WJ_SCRATCH_KINDS; k++) {
        wj_free(NULL, set->kept[k].ptr);
        set->kept[k] = (wj_scratch_block){NULL, 0};
    }
    set->state = NEVER;
}

/* thread_end's destructor: the ending thread's set. */
static void at_thread_end(void *set)
{
    free_set(set);
}

static void make_thread_end(void)
{
    atomic_store(&thread_end_made,
                 pthread_key_create(&thread_end, at_thread_end) == 0 ? 1 : -1);
}

/* Whether the calling thread may keep blocks: armed, so that its end
 * frees them. */
static int may_keep(void)
{
    if (mine.state == UNARMED) {
        pthread_once(&thread_end_once, make_thread_end);
        mine.state = atomic_load(&thread_end_made) == 1 &&
                             pthread_setspecific(thread_end, &mine) == 0
                         ? ARMED
                         : NEVER;
    }
    return mine.state == ARMED;
}

__attribute__((destructor)) static void forget_thread_end(void)
{
    if (atomic_exchange(&thread_end_made, -1) == 1)
        pthread_key_delete(thread_end);
    free_set(&mine);
}

void wj_scratch_take(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks)
{
    unsigned k;
    for (k = 0; k < n; k++) { /* one loop: GCC makes two into calls */
        blocks[k] = alloc ? (wj_scratch_block){NULL, 0} : mine.kept[first + k];
        if (!alloc)
            mine.kept[first + k] = (wj_scratch_block){NULL, 0};
    }
}

void wj_scratch_give(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks)
{
    int keep = !alloc && may_keep();
    unsigned k;
    for (k = 0; k < n; k++) {
        wj_scratch_block *slot = &mine.kept[first + k];
        if (!blocks[k].ptr)
            continue;
        if (keep && !slot->ptr && blocks[k].size <= KEEP_MAX)
            *slot = blocks[k];
        else
            wj_free(alloc, blocks[k].ptr);
        blocks[k] = (wj_scratch_block){NULL, 0};
    }
}
