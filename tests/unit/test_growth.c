/* SPDX-License-Identifier: MIT */
/*
 * test_growth.c - the one growth policy (wj_grow, alloc.c) and the sizes
 * the parser and the renderings ask for (docs/contract.md §8: no allocation
 * larger than needed, nor larger than the allocator serves when a smaller one
 * would do).  An allocator that records every request checks the sizes; for
 * wj_grow alone, one that hands out a dummy block checks requests far
 * larger than this machine should really allocate.
 */
#include "check.h"
#include "wj_internal.h"

#include <stdlib.h>

/* ------------------------------------------- a recording allocator */

static size_t largest, n_requests, refuse_over; /* refuse_over 0: never */

static void *r_malloc(void *ctx, size_t size)
{
    (void)ctx;
    n_requests++;
    if (size > largest)
        largest = size;
    if (refuse_over && size > refuse_over)
        return NULL;
    return malloc(size ? size : 1);
}

static void *r_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    n_requests++;
    if (size > largest)
        largest = size;
    if (refuse_over && size > refuse_over)
        return NULL;
    return realloc(ptr, size ? size : 1);
}

static void r_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const wj_alloc recording = {r_malloc, r_realloc, r_free, NULL, NULL};

/* ------------------------------- a dummy allocator for wj_grow alone */

static size_t dummy_sizes[8], n_dummy, dummy_refuse_over;
static char dummy_block;

static void *d_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx, (void)ptr;
    if (n_dummy < 8)
        dummy_sizes[n_dummy] = size;
    n_dummy++;
    return size > dummy_refuse_over ? NULL : &dummy_block;
}

static void *d_malloc(void *ctx, size_t size)
{
    return d_realloc(ctx, NULL, size);
}

static void d_free(void *ctx, void *ptr)
{
    (void)ctx, (void)ptr;
}

static const wj_alloc dummy = {d_malloc, d_realloc, d_free, NULL, NULL};

#define GiB ((size_t)1 << 30)
#define MiB ((size_t)1 << 20)
#define SERVED ((size_t)0x7fffff00u) /* sqlite3_malloc64 refuses this */

/* wj_grow from cap to need; returns the new capacity, 0 when refused. */
static size_t grow_to(size_t cap, size_t need, size_t most, size_t refuse)
{
    size_t got = 0;
    n_dummy = 0;
    dummy_refuse_over = refuse;
    if (!wj_grow(&dummy, cap ? &dummy_block : NULL, cap, need, 256, most, &got))
        return 0;
    return got;
}

static void test_policy(void)
{
    /* a first block is exactly what is asked for, or the smallest */
    CHECK(grow_to(0, 10, SIZE_MAX, SIZE_MAX) == 256);
    CHECK(grow_to(0, 1000000, SIZE_MAX, SIZE_MAX) == 1000000);
    /* growth doubles ... */
    CHECK(grow_to(256, 257, SIZE_MAX, SIZE_MAX) == 512);
    CHECK(grow_to(256, 5000, SIZE_MAX, SIZE_MAX) == 8192);
    /* ... but not past what the data can need */
    CHECK(grow_to(4096, 4097, 6000, SIZE_MAX) == 6000);
    CHECK(grow_to(4096, 7000, 6000, SIZE_MAX) == 7000);
    /* ... nor to what sqlite3_malloc64 refuses while the need is less */
    CHECK(grow_to(GiB + GiB / 2, GiB + GiB / 2 + 1, SIZE_MAX, SIZE_MAX) <
          SERVED);
    CHECK(dummy_sizes[0] < SERVED && dummy_sizes[0] > GiB + GiB / 2);
    CHECK(n_dummy == 1);
    /* a need of that much or more is asked for as it is */
    CHECK(grow_to(GiB + GiB / 2, SERVED + 1, SIZE_MAX, SIZE_MAX) ==
          2 * (GiB + GiB / 2));
    /* a large refused request is tried again with half the increment,
     * and half again, down to the need: 1 GiB, 768, 640, 576 MiB */
    CHECK(grow_to(512 * MiB, 512 * MiB + 1, SIZE_MAX, 600 * MiB) ==
          512 * MiB + 64 * MiB);
    CHECK(n_dummy == 4 && dummy_sizes[0] == GiB &&
          dummy_sizes[1] == 768 * MiB && dummy_sizes[2] == 640 * MiB);
    CHECK(grow_to(512 * MiB, 580 * MiB, SIZE_MAX, 590 * MiB) == 580 * MiB);
    CHECK(n_dummy == 4 && dummy_sizes[3] == 580 * MiB);
    CHECK(grow_to(512 * MiB, 580 * MiB, SIZE_MAX, 570 * MiB) == 0);
    CHECK(n_dummy == 4);
    /* near the limit, each growth takes at least half the room left: a
     * block grown by one byte at a time up to the limit grows a few dozen
     * times, not a million */
    {
        size_t cap = 0, need, growths = 0, limit = 100 * MiB;
        for (need = 99 * MiB; need <= limit; need++) {
            if (need <= cap)
                continue;
            cap = grow_to(cap, need, SIZE_MAX, limit);
            growths++;
            if (!cap)
                break;
        }
        CHECK(cap == limit);
        CHECK(growths < 60);
    }
    /* a small refused request is not: that is out of memory */
    CHECK(grow_to(1 * MiB, 1 * MiB + 1, SIZE_MAX, 1 * MiB + 10) == 0);
    CHECK(n_dummy == 1);
}

/* An array of n zeros: "[0,0,...,0]". */
static char *zeros(size_t n, size_t *len)
{
    char *s = malloc(2 * n + 2);
    size_t k;
    s[0] = '[';
    for (k = 0; k < n; k++) {
        s[1 + 2 * k] = '0';
        s[2 + 2 * k] = ',';
    }
    s[2 * n] = ']';
    s[2 * n + 1] = '\0';
    *len = 2 * n + 1;
    return s;
}

static void test_parser_bound(void)
{
    /* 3,000,000 zeros: the array's record (WJ_CONTAINER_SLOTS slots) and
     * one slot a number.  The tape is asked for no more than the input can
     * need (2.5 slots a byte, `[[[]]]`), and at least what it holds. */
    size_t n = 3000000, len;
    char *json = zeros(n, &len);
    wj_doc doc;
    largest = n_requests = 0;
    CHECK(wj_doc_parse(&doc, json, len, 0, &recording, NULL) == WJ_OK);
    CHECK(doc.n_tape == n + WJ_CONTAINER_SLOTS);
    CHECK(largest <= (5 * len / 2 + 16) * sizeof(uint32_t));
    CHECK(largest >= (n + WJ_CONTAINER_SLOTS) * sizeof(uint32_t));
    wj_doc_release(&doc);
    free(json);

    /* 10,000,000 zeros and 15 MB of blanks after them: the tape (4 bytes a
     * number, 40 MB needed) doubles from its first guess (a slot per 16
     * bytes) to 8.75 Mi slots, then asks for 17.5 Mi (70 MB); an allocator
     * that refuses blocks over 60 MiB makes it grow by smaller steps (half
     * the increment, and half again) instead, a few times, not once a
     * slot */
    n = 10000000;
    json = zeros(n, &len);
    json = realloc(json, len + 15000000);
    memset(json + len, ' ', 15000000);
    len += 15000000;
    refuse_over = 60 * MiB;
    largest = n_requests = 0;
    CHECK(wj_doc_parse(&doc, json, len, 0, &recording, NULL) == WJ_OK);
    CHECK(doc.n_tape == n + WJ_CONTAINER_SLOTS);
    CHECK(largest > 60 * MiB); /* a doubled request was refused */
    CHECK(n_requests < 100);
    refuse_over = 0;
    wj_doc_release(&doc);
    free(json);
}

static void test_render_reserve(void)
{
    /* a 50 MB string: the output is its input, reserved once, at most
     * 64 KiB more than that (not an eighth more), and never grown; the
     * parser's first guess of the tape (at most 4 Mi slots, 16 MiB) is
     * smaller */
    size_t len = 50000000;
    char *json = malloc(len), *out = NULL;
    size_t out_len;
    memset(json, 'x', len);
    json[0] = json[len - 1] = '"';
    largest = n_requests = 0;
    CHECK(wj_wire_json(json, len, NULL, 0, &recording, &out, &out_len, NULL) ==
          WJ_OK);
    CHECK(out_len == len);
    CHECK(largest <= len + 65536 + 16);
    wj_free(&recording, out);
    CHECK(wj_canonical_json(json, len, &recording, &out, &out_len, NULL) ==
          WJ_OK);
    CHECK(largest <= len + 65536 + 16);
    wj_free(&recording, out);
    free(json);
}

int main(void)
{
    test_policy();
    test_parser_bound();
    test_render_reserve();
    return check_report("test_growth");
}
