/* SPDX-License-Identifier: MIT */
/*
 * fuzz_util.c - the harness plumbing of fuzz_util.h: the abort on a
 * finding, the counting allocator, input parts, the PRNG, a byte buffer and
 * the error and result contracts.
 */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
    abort();
}

/* ------------------------------------------------------------- allocation */

/* The counting allocator the unit tests use (heap_calls, heap_fail_at,
 * heap_live). */
#include "../tests/unit/test_heap.h"

const wj_alloc fuzz_heap = {heap_malloc, heap_realloc, heap_free, NULL, NULL};

void fuzz_heap_begin(size_t fail_at)
{
    heap_calls = 0;
    heap_fail_at = fail_at;
}

size_t fuzz_heap_calls(void)
{
    return heap_calls;
}

long fuzz_heap_live(void)
{
    return heap_live;
}

void *fuzz_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        fuzz_fail(__FILE__, __LINE__, "harness out of memory");
    return p;
}

/* ------------------------------------------------------------------ input */

size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts,
                  size_t max)
{
    size_t n = 0, at = 0;
    while (n < max) {
        const uint8_t *nul =
            n + 1 < max && size > at ? memchr(data + at, 0, size - at) : NULL;
        size_t end = nul ? (size_t)(nul - data) : size;
        parts[n].len = end - at;
        parts[n].ptr = fuzz_xmalloc(parts[n].len);
        if (parts[n].len)
            memcpy(parts[n].ptr, data + at, parts[n].len);
        n++;
        if (!nul)
            break;
        at = end + 1;
    }
    return n;
}

void fuzz_parts_free(fuzz_part *parts, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        free(parts[k].ptr);
}

void fuzz_rng_seed(fuzz_rng *rng, const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a over the input */
    size_t k;
    for (k = 0; k < size; k++)
        h = (h ^ data[k]) * 0x100000001b3u;
    rng->state = h ? h : 1;
}

uint32_t fuzz_rng_below(fuzz_rng *rng, uint32_t n)
{
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return n ? (uint32_t)((x * 0x2545f4914f6cdd1du) >> 32) % n : 0;
}

void fuzz_buf_put(fuzz_buf *b, const void *bytes, size_t n)
{
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;
        while (cap - b->len < n + 1)
            cap *= 2;
        p = realloc(b->ptr, cap);
        if (!p)
            fuzz_fail(__FILE__, __LINE__, "harness out of memory");
        b->ptr = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->ptr + b->len, bytes, n);
    b->len += n;
    b->ptr[b->len] = '\0';
}

void fuzz_buf_putc(fuzz_buf *b, char c)
{
    fuzz_buf_put(b, &c, 1);
}

void fuzz_buf_free(fuzz_buf *b)
{
    free(b->ptr);
    b->ptr = NULL;
    b->len = b->cap = 0;
}

/* ----------------------------------------------------------------- checks */

void fuzz_check_error(wj_code rc, const wj_error *err, size_t len)
{
    FUZZ_CHECK(err->code == rc);
    if (rc == WJ_OK)
        return;
    FUZZ_CHECK(err->msg != NULL && err->msg[0] != '\0');
    if (!wj_error_is_input(rc))
        return;
    FUZZ_CHECK(err->offset <= len);
    if (err->offset == len)
        FUZZ_CHECK(rc == WJ_ERR_SYNTAX &&
                   strcmp(err->msg, "unexpected end of input") == 0);
}

void fuzz_check_result(const char *out, size_t out_len)
{
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(out[out_len] == '\0');
}

void fuzz_parse_valid(wj_doc *doc, const char *text, size_t len)
{
    wj_error err;
    wj_code rc = wj_doc_parse(doc, text, len, 0, NULL, &err);
    if (rc != WJ_OK) {
        fprintf(stderr, "does not parse (%s at %zu): %.*s\n",
                err.msg ? err.msg : "?", err.offset,
                len > 2000 ? 2000 : (int)len, text);
        fuzz_fail(__FILE__, __LINE__, "a rendering must parse");
    }
}

void fuzz_check_same_bytes(const char *what, const char *a, size_t a_len,
                           const char *b, size_t b_len)
{
    if (a_len == b_len && memcmp(a, b, a_len) == 0)
        return;
    fprintf(stderr, "%s differ:\n  %.*s\n  %.*s\n", what,
            a_len > 2000 ? 2000 : (int)a_len, a,
            b_len > 2000 ? 2000 : (int)b_len, b);
    fuzz_fail(__FILE__, __LINE__, what);
}

fuzz_node fuzz_node_at(const wj_doc *doc, uint32_t node)
{
    fuzz_node n;
    n.type = wj_node_type(doc, node);
    n.start = wj_node_start(doc, node);
    n.end = wj_node_end(doc, node);
    n.next = wj_node_next(doc, node);
    n.count = n.type == WJ_ARRAY || n.type == WJ_OBJECT
                  ? wj_node_count(doc, node)
                  : 0;
    return n;
}

fuzz_node fuzz_name_at(const wj_doc *doc, uint32_t name)
{
    fuzz_node n;
    n.type = WJ_STRING;
    n.start = wj_name_start(doc, name);
    n.end = wj_name_end(doc, name);
    n.next = wj_member_value(name);
    n.count = 0;
    return n;
}
