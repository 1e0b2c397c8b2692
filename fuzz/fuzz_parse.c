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

/* Checks the subtree at node; returns the index after it. */
static uint32_t check_node(const wj_doc *doc, uint32_t node, uint32_t lo,
                           uint32_t hi)
{
    const wj_node *n = &doc->nodes[node];
    const char *s = doc->json;
    uint32_t k, child, at;

    FUZZ_CHECK(lo <= n->start && n->start < n->end && n->end <= hi);
    FUZZ_CHECK(n->next > node && n->next <= doc->n_nodes);
    switch (n->type) {
    case WJ_NULL: FUZZ_CHECK(n->end - n->start == 4 && s[n->start] == 'n'); break;
    case WJ_TRUE: FUZZ_CHECK(n->end - n->start == 4 && s[n->start] == 't'); break;
    case WJ_FALSE: FUZZ_CHECK(n->end - n->start == 5 && s[n->start] == 'f'); break;
    case WJ_NUMBER:
        FUZZ_CHECK(s[n->start] == '-' || (s[n->start] >= '0' && s[n->start] <= '9'));
        break;
    case WJ_STRING:
        FUZZ_CHECK(n->end - n->start >= 2 && s[n->start] == '"' &&
                   s[n->end - 1] == '"');
        break;
    case WJ_ARRAY:
    case WJ_OBJECT:
        FUZZ_CHECK(s[n->start] == (n->type == WJ_ARRAY ? '[' : '{'));
        FUZZ_CHECK(s[n->end - 1] == (n->type == WJ_ARRAY ? ']' : '}'));
        at = n->start + 1;
        child = node + 1;
        for (k = 0; k < n->count; k++) {
            uint32_t after;
            if (n->type == WJ_OBJECT) {
                FUZZ_CHECK(doc->nodes[child].type == WJ_STRING);
                child = check_node(doc, child, at, n->end - 1);
                at = doc->nodes[child - 1].end;
            }
            after = check_node(doc, child, at, n->end - 1);
            at = doc->nodes[child].end;
            child = after;
        }
        FUZZ_CHECK(child == n->next);
        return n->next;
    default:
        fuzz_fail(__FILE__, __LINE__, "a node of no known type");
    }
    FUZZ_CHECK(n->next == node + 1);
    return n->next;
}

/* Each object's sorted member list holds each of its name nodes once. */
static void check_orders(const wj_doc *doc)
{
    uint32_t node;
    for (node = 0; node < doc->n_nodes; node++) {
        const wj_node *n = &doc->nodes[node];
        uint32_t k, j, name;
        const uint32_t *sorted;
        if (n->type != WJ_OBJECT)
            continue;
        sorted = wj_doc_members(doc, node);
        for (k = 0, name = node + 1; k < n->count;
             k++, name = doc->nodes[name + 1].next) {
            for (j = 0; j < n->count && sorted[j] != name; j++)
                ;
            FUZZ_CHECK(j < n->count);
        }
        for (k = 1; k < n->count; k++)
            FUZZ_CHECK(wj_compare_bytes(wj_doc_name(doc, sorted[k - 1]),
                                        wj_doc_name(doc, sorted[k])) < 0);
    }
}

static void check_tree(const wj_doc *doc)
{
    uint32_t first = 0, last = (uint32_t)doc->len;
    while (is_space(doc->json[first]))
        first++;
    while (is_space(doc->json[last - 1]))
        last--;
    FUZZ_CHECK(doc->n_nodes > 0);
    FUZZ_CHECK(doc->nodes[0].start == first && doc->nodes[0].end == last);
    FUZZ_CHECK(check_node(doc, 0, first, last) == doc->n_nodes);
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
        check_tree(&doc);
        check_orders(&doc);
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
        FUZZ_CHECK(drc == WJ_OK || (wj_error_is_input(drc) &&
                                    rc == WJ_ERR_DUPLICATE &&
                                    derr.offset > err.offset));
    else
        FUZZ_CHECK(drc == rc && derr.offset == err.offset);
    if (drc == WJ_OK) {
        check_tree(&dup);
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
