/* SPDX-License-Identifier: MIT */
/*
 * memory.c - large buffers: a block's records, its results, arena chunks.
 *
 * A buffer of 2 MiB or more is mapped on its own and asks for transparent
 * huge pages: the first touch of a fresh 4 KiB page costs microseconds on a
 * virtual machine, and a record of a few MB in a block of each thread would
 * otherwise pay thousands of such faults a run, as much time as the work
 * itself on inputs of 100 MB.  Where huge pages are off, the advice is
 * ignored and nothing else changes.  Smaller buffers stay with malloc, so a
 * run over short records keeps a small footprint however many threads.
 *
 * A buffer can also be lent: cut from a larger mapping that its owner
 * frees (the first buffers of a run's blocks, which share huge pages).  It
 * is never freed on its own; when it must grow, its bytes move to a buffer
 * of its own.
 */
#define _GNU_SOURCE /* mremap */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "wirejson_kit.h"

#define HUGE_PAGE ((size_t)2 << 20)

static int is_mapped(size_t cap)
{
    return cap >= HUGE_PAGE;
}

/* cap rounded up to whole huge pages once it is mapped */
static size_t mapped_size(size_t cap)
{
    return (cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* size bytes (whole huge pages) at an address that is a multiple of
 * HUGE_PAGE: only such a range can be a huge page.  mmap aligns to 4 KiB,
 * so one more huge page is mapped and the ends trimmed. */
static void *map_huge(size_t size)
{
    size_t lead;
    char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    lead = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
    if (lead)
        munmap(p, lead);
    munmap(p + lead + size, HUGE_PAGE - lead);
    p += lead;
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

void *wk_big_realloc(void *p, size_t old_cap, size_t *cap)
{
    void *n;
    if (!is_mapped(*cap))
        return realloc(p, *cap);
    *cap = mapped_size(*cap);
    if (is_mapped(old_cap)) {
        n = mremap(p, old_cap, *cap, MREMAP_MAYMOVE);
        return n == MAP_FAILED ? NULL : n;
    }
    n = map_huge(*cap);
    if (n && p) {
        memcpy(n, p, old_cap);
        free(p);
    }
    return n;
}

void *wk_big_grow(void *p, size_t len, size_t old_cap, size_t *cap, int *lent)
{
    void *n;
    if (!*lent)
        return wk_big_realloc(p, old_cap, cap);
    /* its owner keeps the new buffer from now on: worth huge pages */
    if (*cap < HUGE_PAGE)
        *cap = HUGE_PAGE;
    n = wk_big_realloc(NULL, 0, cap);
    if (n) {
        memcpy(n, p, len);
        *lent = 0;
    }
    return n;
}

void wk_big_free(void *p, size_t cap)
{
    if (!p)
        return;
    if (is_mapped(cap))
        munmap(p, cap);
    else
        free(p);
}
