/* SPDX-License-Identifier: MIT */
/*
 * fuzz_parse.c - the parser (docs/contract.md §3) on any bytes.
 *
 * Invariants: an error names its code, a reason and an offset inside the
 * input; wj_validate, the tree parser and every renderer agree on whether
 * (and where) the input is bad; the tree is well formed (spans nested in
 * document order inside the input, counts and subtree ends consistent,
 * each object's sorted names a permutation of its members); the parse that
 * allows duplicate names differs only by accepting them; a failed n-th
 * allocation is reported as such and leaks nothing.
 */
#include "fuzz_util.h"

#include <stdlib.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Each object's sorted member list holds each of its name records once,
 * ascending; there is none exactly when they arrive in that order. */
static void check_order(const wj_doc *doc, uint32_t obj)
{
    uint32_t count = wj_node_count(doc, obj), k, j, name, in_order = 1;
    const uint32_t *sorted = wj_doc_sorted(doc, obj);
    uint32_t *names = malloc((count + 1) * sizeof *names);

    FUZZ_CHECK(names != NULL);
    for (k = 0, name = wj_node_first(obj); k < count;
         k++, name = wj_member_next(doc, name)) {
        if (k && wj_compare_bytes(wj_doc_name(doc, names[k - 1]),
                                  wj_doc_name(doc, name)) >= 0)
            in_order = 0;
        names[k] = name;
    }
    FUZZ_CHECK(count == 0 || (sorted == NULL) == in_order);
    if (sorted) {
        for (k = 0; k < count; k++) {
            for (j = 0; j < count && sorted[j] != names[k]; j++)
                ;
            FUZZ_CHECK(j < count);
        }
        for (k = 1; k < count; k++)
            FUZZ_CHECK(wj_compare_bytes(wj_doc_name(doc, sorted[k - 1]),
                                        wj_doc_name(doc, sorted[k])) < 0);
    }
    free(names);
}

/* Checks the subtree at record node, a value (or a member name when
 * is_name); returns the record after it.  With orders, each object's
 * sorted names too. */
static uint32_t check_node(const wj_doc *doc, uint32_t node, uint32_t lo,
                           uint32_t hi, int is_name, int orders)
{
    const char *s = doc->json;
    uint32_t start, end, next, k, child, at, count;
    wj_type type, type_k;
    int scalars;

    if (is_name) {
        start = wj_name_start(doc, node);
        end = wj_name_end(doc, node);
        FUZZ_CHECK(lo <= start && start < end && end <= hi);
        FUZZ_CHECK(end - start >= 2 && s[start] == '"' && s[end - 1] == '"');
        FUZZ_CHECK(wj_name_escaped(doc, node) ==
                   (memchr(s + start, '\\', end - start) != NULL));
        return wj_member_value(node);
    }
    start = wj_node_start(doc, node);
    end = wj_node_end(doc, node);
    type = wj_node_type(doc, node);
    FUZZ_CHECK(lo <= start && start < end && end <= hi);
    next = wj_node_next(doc, node);
    FUZZ_CHECK(next > node && next <= doc->n_tape);
    switch (type) {
    case WJ_NULL: FUZZ_CHECK(end - start == 4 && s[start] == 'n'); break;
    case WJ_TRUE: FUZZ_CHECK(end - start == 4 && s[start] == 't'); break;
    case WJ_FALSE: FUZZ_CHECK(end - start == 5 && s[start] == 'f'); break;
    case WJ_NUMBER:
        FUZZ_CHECK(s[start] == '-' || (s[start] >= '0' && s[start] <= '9'));
        break;
    case WJ_STRING:
        FUZZ_CHECK(end - start >= 2 && s[start] == '"' && s[end - 1] == '"');
        break;
    case WJ_ARRAY:
    case WJ_OBJECT:
        FUZZ_CHECK(s[start] == (type == WJ_ARRAY ? '[' : '{'));
        FUZZ_CHECK(s[end - 1] == (type == WJ_ARRAY ? ']' : '}'));
        count = wj_node_count(doc, node);
        at = start + 1;
        for (k = start + 1; k < end - 1 && is_space(s[k]); k++)
            ;
        FUZZ_CHECK((count == 0) == (k == end - 1)); /* only blanks inside */
        child = wj_node_first(node);
        scalars = 1;
        for (k = 0; k < count; k++) {
            uint32_t after;
            if (type == WJ_OBJECT) {
                uint32_t name = child;
                child = check_node(doc, name, at, end - 1, 1, orders);
                at = wj_name_end(doc, name);
            }
            after = check_node(doc, child, at, end - 1, 0, orders);
            at = wj_node_end(doc, child);
            type_k = wj_node_type(doc, child);
            scalars &= type_k != WJ_STRING && type_k != WJ_ARRAY &&
                       type_k != WJ_OBJECT;
            child = after;
        }
        if (type == WJ_ARRAY)
            FUZZ_CHECK(wj_array_of_scalars(doc, node) == scalars);
        /* then an object's sorted names, then a count slot but for an
         * empty container or an array of scalars */
        if (type == WJ_OBJECT && orders && wj_doc_sorted(doc, node))
            child += count;
        if (count && !(type == WJ_ARRAY && scalars))
            child++;
        FUZZ_CHECK(child == next);
        if (type == WJ_OBJECT && orders)
            check_order(doc, node);
        return next;
    default: fuzz_fail(__FILE__, __LINE__, "a record of no known type");
    }
    FUZZ_CHECK(next == node + (type == WJ_STRING ? 2u : 1u));
    return next;
}

static void check_tree(const wj_doc *doc, int orders)
{
    uint32_t first = 0, last = (uint32_t)doc->len;
    while (is_space(doc->json[first]))
        first++;
    while (is_space(doc->json[last - 1]))
        last--;
    FUZZ_CHECK(doc->n_tape > 0);
    FUZZ_CHECK(wj_node_start(doc, 0) == first && wj_node_end(doc, 0) == last);
    FUZZ_CHECK(check_node(doc, 0, first, last, 0, orders) == doc->n_tape);
}

/* Every renderer refuses bad input with the parser's error. */
static void check_renderers(const char *json, size_t len, wj_code want,
                            const wj_error *want_err)
{
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE];
    size_t out_len = 0;
    wj_error err;
    wj_code rc;

    rc = wj_wire_json(json, len, NULL, 0, &fuzz_heap, &out, &out_len, &err);
    fuzz_check_error(rc, &err, len);
    FUZZ_CHECK(rc == want && (rc == WJ_OK) == (out != NULL));
    if (rc != WJ_OK)
        FUZZ_CHECK(err.offset == want_err->offset);
    wj_free(&fuzz_heap, out);

    rc = wj_data_digest(json, len, &fuzz_heap, hex, &err);
    fuzz_check_error(rc, &err, len);
    FUZZ_CHECK(rc == want || (want == WJ_OK && rc == WJ_ERR_RANGE));
    if (want != WJ_OK)
        FUZZ_CHECK(err.offset == want_err->offset);

    /* canonical_arguments never fails on text */
    rc = wj_canonical_arguments(json, len, &fuzz_heap, &out, &out_len, &err);
    fuzz_check_error(rc, &err, len);
    FUZZ_CHECK(rc == WJ_OK);
    fuzz_check_result(out, out_len);
    wj_free(&fuzz_heap, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part in;
    wj_doc doc, dup;
    wj_error err = {(wj_code)-1, 0, NULL, NULL, 0}, derr;
    wj_code rc, drc;
    size_t calls, fail_at;
    fuzz_rng rng;

    fuzz_split(data, size, &in, 1);
    fuzz_rng_seed(&rng, data, size);

    fuzz_heap_begin(0);
    rc = wj_validate(in.ptr, in.len, &fuzz_heap, &err);
    fuzz_check_error(rc, &err, in.len);
    FUZZ_CHECK(fuzz_heap_live() == 0);
    calls = fuzz_heap_calls();

    drc = wj_doc_parse(&doc, in.ptr, in.len, 0, &fuzz_heap, &derr);
    FUZZ_CHECK(drc == rc);
    if (rc == WJ_OK) {
        check_tree(&doc, 1);
        wj_doc_release(&doc);
    } else {
        FUZZ_CHECK(derr.offset == err.offset);
    }
    check_renderers(in.ptr, in.len, rc, &err);

    /* Allowing duplicates changes nothing but accepting them. */
    drc = wj_doc_parse(&dup, in.ptr, in.len, WJ_PARSE_ALLOW_DUPLICATES,
                       &fuzz_heap, &derr);
    fuzz_check_error(drc, &derr, in.len);
    if (rc == WJ_OK || rc == WJ_ERR_DUPLICATE)
        FUZZ_CHECK(drc == WJ_OK ||
                   (wj_error_is_input(drc) && rc == WJ_ERR_DUPLICATE &&
                    derr.offset > err.offset));
    else
        FUZZ_CHECK(drc == rc && derr.offset == err.offset);
    if (drc == WJ_OK) {
        check_tree(&dup, 0);
        wj_doc_release(&dup);
    }
    FUZZ_CHECK(fuzz_heap_live() == 0);

    /* The n-th allocation fails: out of memory, nothing leaked. */
    if (calls > 0) {
        fail_at = 1 + fuzz_rng_below(&rng, (uint32_t)calls);
        fuzz_heap_begin(fail_at);
        rc = wj_validate(in.ptr, in.len, &fuzz_heap, &err);
        fuzz_check_error(rc, &err, in.len);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM);
        FUZZ_CHECK(fuzz_heap_live() == 0);
        fuzz_heap_begin(0);
    }
    fuzz_parts_free(&in, 1);
    return 0;
}
