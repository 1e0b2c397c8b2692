/* SPDX-License-Identifier: MIT */
/*
 * test_scratch.c - the working arrays kept between calls (scratch.c): a
 * block given back with the default allocator is the next call's, at most
 * one of a kind is kept, large ones and a caller's allocator's are freed;
 * and calls that reuse a block left by a larger or smaller document, in
 * one thread or in four at once, give the bytes they would give afresh
 * (expected texts spelled by this file, not by the library).  The four
 * threads end with blocks kept: under valgrind and LeakSanitizer, a set
 * their ends did not free is a leak.
 */
#include "check.h"
#include "test_heap.h"
#include "wj_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Takes the kept block of kind alone. */
static wj_scratch_block take(const wj_alloc *alloc, wj_scratch_kind kind)
{
    wj_scratch_block got;
    wj_scratch_take(alloc, kind, 1, &got);
    return got;
}

/* Gives back ptr (size bytes) as a block of kind alone. */
static void give(const wj_alloc *alloc, wj_scratch_kind kind, void *ptr,
                 size_t size)
{
    wj_scratch_block block = {ptr, size};
    wj_scratch_give(alloc, kind, 1, &block);
    CHECK(block.ptr == NULL); /* emptied, kept or freed */
}

static void test_take_and_give(void)
{
    void *a = malloc(256), *b = malloc(256);
    wj_scratch_block got, two[2];

    /* whatever an earlier test left is drained first */
    free(take(NULL, WJ_SCRATCH_SORT).ptr);
    got = take(NULL, WJ_SCRATCH_SORT);
    CHECK(got.ptr == NULL && got.size == 0);
    give(NULL, WJ_SCRATCH_SORT, a, 256);
    give(NULL, WJ_SCRATCH_SORT, b, 256); /* slot full: freed */
    got = take(NULL, WJ_SCRATCH_SORT);
    CHECK(got.ptr == a);
    CHECK(got.size == 256);
    CHECK(take(NULL, WJ_SCRATCH_SORT).ptr == NULL);
    free(got.ptr);

    /* a block of 4 MiB is kept, one byte more is not */
    give(NULL, WJ_SCRATCH_SORT, malloc((size_t)4 << 20), (size_t)4 << 20);
    got = take(NULL, WJ_SCRATCH_SORT);
    CHECK(got.ptr != NULL && got.size == (size_t)4 << 20);
    free(got.ptr);
    give(NULL, WJ_SCRATCH_SORT, malloc(((size_t)4 << 20) + 1),
         ((size_t)4 << 20) + 1);
    CHECK(take(NULL, WJ_SCRATCH_SORT).ptr == NULL);

    /* kinds side by side go and come back together, each in its slot */
    free(take(NULL, WJ_SCRATCH_KEYS).ptr);
    free(take(NULL, WJ_SCRATCH_KEY_ENDS).ptr);
    a = malloc(32), b = malloc(48);
    two[0] = (wj_scratch_block){a, 32};
    two[1] = (wj_scratch_block){b, 48};
    wj_scratch_give(NULL, WJ_SCRATCH_KEYS, 2, two);
    CHECK(two[0].ptr == NULL && two[1].ptr == NULL);
    got = take(NULL, WJ_SCRATCH_KEY_ENDS);
    CHECK(got.ptr == b && got.size == 48);
    free(got.ptr);
    wj_scratch_take(NULL, WJ_SCRATCH_KEYS, 2, two);
    CHECK(two[0].ptr == a && two[0].size == 32);
    CHECK(two[1].ptr == NULL && two[1].size == 0);
    free(a);

    /* a caller's allocator: nothing kept, the block freed through it */
    heap_live = 0;
    give(&heap, WJ_SCRATCH_SORT, heap.malloc(NULL, 64), 64);
    CHECK(heap_live == 0);
    CHECK(take(NULL, WJ_SCRATCH_SORT).ptr == NULL);
    CHECK(take(&heap, WJ_SCRATCH_SORT).ptr == NULL);
}

/* An object of n members named "k<number>\u0041" (an escape, so every name
 * is decoded into doc->names) in descending order, each holding an array
 * of its number, spelled into json; its canonical rendering, with the
 * members in ascending order, into canon.  Both buffers are the caller's. */
static void make_object(unsigned n, char *json, char *canon)
{
    size_t j = 0, c = 0;
    unsigned k;
    json[j++] = '{';
    canon[c++] = '{';
    for (k = 0; k < n; k++) {
        unsigned down = n - 1 - k;
        j += (size_t)sprintf(json + j, "%s\"k%06u\\u0041\": [ %u ]",
                             k ? ", " : "", down, down);
        c +=
            (size_t)sprintf(canon + c, "%s\"k%06uA\":[%u]", k ? "," : "", k, k);
    }
    json[j++] = '}';
    canon[c++] = '}';
    json[j] = canon[c] = '\0';
}

/* The sizes the calls cycle through: large, small, empty, medium. */
static const unsigned sizes[] = {20000, 3, 0, 700};
#define N_SIZES (sizeof sizes / sizeof *sizes)
static char *jsons[N_SIZES], *canons[N_SIZES];

/* Renders every document `rounds` times in turn; the number of wrong
 * renderings. */
static int render_rounds(int rounds)
{
    int wrong = 0, r;
    size_t k;
    for (r = 0; r < rounds; r++) {
        for (k = 0; k < N_SIZES; k++) {
            char *out = NULL;
            size_t len = 0;
            if (wj_canonical_json(jsons[k], strlen(jsons[k]), NULL, &out, &len,
                                  NULL) != WJ_OK ||
                len != strlen(canons[k]) || memcmp(out, canons[k], len) != 0)
                wrong++;
            wj_free(NULL, out);
        }
    }
    return wrong;
}

static void *render_thread(void *arg)
{
    *(int *)arg = render_rounds(30);
    return NULL;
}

static void test_reuse(void)
{
    pthread_t threads[4];
    int wrong[4];
    size_t k;
    int t;

    for (k = 0; k < N_SIZES; k++) {
        jsons[k] = malloc(32 * (size_t)sizes[k] + 3);
        canons[k] = malloc(32 * (size_t)sizes[k] + 3);
        make_object(sizes[k], jsons[k], canons[k]);
    }
    CHECK(render_rounds(3) == 0);
    for (t = 0; t < 4; t++)
        CHECK(pthread_create(&threads[t], NULL, render_thread, &wrong[t]) == 0);
    for (t = 0; t < 4; t++) {
        pthread_join(threads[t], NULL);
        CHECK(wrong[t] == 0);
    }
    for (k = 0; k < N_SIZES; k++) {
        free(jsons[k]);
        free(canons[k]);
    }
}

int main(void)
{
    test_take_and_give();
    test_reuse();
    return check_report("test_scratch");
}
