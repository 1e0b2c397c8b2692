/* SPDX-License-Identifier: MIT */
/*
 * fuzz_digest.c - wj_message_digest and wj_messages_digest (docs/contract.md
 * §6). Input: the JSON text, then optionally NUL and ignored member names,
 * NUL-separated.
 *
 * Invariants: bad input gets the parser's error; message_digest(m, k...) is
 * SHA-256 of the canonical JSON of m written again without its null
 * members, `extra` and the names k; messages_digest(a) is SHA-256 of the
 * elements' message digests concatenated; a respelling of the input has the
 * same digests; a failed n-th allocation is out of memory and leaks nothing.
 * The conversation object (wj_conversation) fed the elements one at a time
 * gives messages_digest of what it holds, after pushes and after drops.
 */
#include "fuzz_rendering.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 4

static int is_ignored(wj_span name, const wj_name *ignored, size_t n)
{
    size_t k;
    if (name.len == 5 && memcmp(name.ptr, "extra", 5) == 0)
        return 1;
    for (k = 0; k < n; k++)
        if (ignored[k].len == name.len &&
            memcmp(ignored[k].ptr, name.ptr, name.len) == 0)
            return 1;
    return 0;
}

/* The digest message_digest must give for the object at node, from the
 * object's own text with the left-out members dropped. */
static wj_code expected_message(const wj_doc *doc, uint32_t node,
                                const wj_name *ignored, size_t n_ignored,
                                char hex[WJ_DIGEST_HEX_SIZE])
{
    fuzz_buf text = {NULL, 0, 0};
    uint32_t k, name = wj_node_first(node);
    int first = 1;
    wj_code rc;

    fuzz_buf_putc(&text, '{');
    for (k = 0; k < wj_node_count(doc, node);
         k++, name = wj_node_next(doc, wj_member_value(name))) {
        fuzz_node v_at = fuzz_node_at(doc, wj_member_value(name)), *v = &v_at;
        if (v->type == WJ_NULL ||
            is_ignored(wj_doc_name(doc, name), ignored, n_ignored))
            continue;
        if (!first)
            fuzz_buf_putc(&text, ',');
        first = 0;
        fuzz_buf_put(&text, doc->json + wj_name_start(doc, name),
                     v->end - wj_name_start(doc, name));
    }
    fuzz_buf_putc(&text, '}');
    rc = wj_data_digest(text.ptr, text.len, NULL, hex, NULL);
    fuzz_buf_free(&text);
    return rc;
}

static void check_message(const char *json, size_t len, const wj_doc *doc,
                          const wj_name *ignored, size_t n_ignored,
                          char hex[WJ_DIGEST_HEX_SIZE])
{
    char want[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc =
        wj_message_digest(json, len, ignored, n_ignored, &fuzz_heap, hex, &err);
    fuzz_check_error(rc, &err, len);
    if (wj_node_type(doc, 0) != WJ_OBJECT) {
        FUZZ_CHECK(rc == WJ_ERR_TYPE);
        return;
    }
    FUZZ_CHECK(rc == expected_message(doc, 0, ignored, n_ignored, want));
    if (rc == WJ_OK)
        FUZZ_CHECK(memcmp(hex, want, WJ_DIGEST_HEX_SIZE) == 0);
}

static void check_messages(const char *json, size_t len, const wj_doc *doc,
                           char hex[WJ_DIGEST_HEX_SIZE])
{
    char want[WJ_DIGEST_HEX_SIZE], one[WJ_DIGEST_HEX_SIZE];
    fuzz_buf cat = {NULL, 0, 0};
    wj_error err;
    wj_code rc = wj_messages_digest(json, len, &fuzz_heap, hex, &err), erc;
    uint32_t k, e = wj_node_first(0);

    fuzz_check_error(rc, &err, len);
    if (wj_node_type(doc, 0) != WJ_ARRAY) {
        FUZZ_CHECK(rc == WJ_ERR_TYPE);
        return;
    }
    for (k = 0; k < wj_node_count(doc, 0); k++, e = wj_node_next(doc, e)) {
        erc = wj_node_type(doc, e) == WJ_OBJECT
                  ? expected_message(doc, e, NULL, 0, one)
                  : WJ_ERR_TYPE;
        if (erc != WJ_OK) {
            FUZZ_CHECK(rc == erc);
            fuzz_buf_free(&cat);
            return;
        }
        fuzz_buf_put(&cat, one, 64);
    }
    FUZZ_CHECK(rc == WJ_OK);
    wj_sha256_hex(cat.ptr ? cat.ptr : "", cat.len, want);
    FUZZ_CHECK(memcmp(hex, want, WJ_DIGEST_HEX_SIZE) == 0);
    fuzz_buf_free(&cat);
}

/* The elements of the array at the root pushed into a conversation one at
 * a time, then some dropped from the front: its digest is messages_digest
 * of the same elements written as an array. */
static void check_conversation(const wj_doc *doc, const char hex[65],
                               fuzz_rng *rng)
{
    wj_conversation *conv = NULL;
    char got[WJ_DIGEST_HEX_SIZE], want[WJ_DIGEST_HEX_SIZE];
    uint32_t k, e = wj_node_first(0), n, drop;
    uint32_t *elems;
    fuzz_buf tail = {NULL, 0, 0};

    if (wj_node_type(doc, 0) != WJ_ARRAY)
        return;
    n = wj_node_count(doc, 0);
    elems = malloc((n + 1) * sizeof *elems);
    FUZZ_CHECK(elems != NULL);
    FUZZ_CHECK(wj_conversation_new(&fuzz_heap, &conv) == WJ_OK);
    for (k = 0; k < n; k++, e = wj_node_next(doc, e)) {
        wj_code rc = wj_conversation_push(
            conv, doc->json + wj_node_start(doc, e),
            wj_node_end(doc, e) - wj_node_start(doc, e), NULL);
        elems[k] = e;
        if (rc != WJ_OK) { /* not an object: messages_digest failed too */
            FUZZ_CHECK(rc == WJ_ERR_TYPE || rc == WJ_ERR_RANGE);
            FUZZ_CHECK(wj_conversation_length(conv) == k);
            goto done;
        }
    }
    FUZZ_CHECK(wj_conversation_length(conv) == n);
    FUZZ_CHECK(wj_conversation_digest(conv, got, NULL) == WJ_OK);
    FUZZ_CHECK(memcmp(got, hex, WJ_DIGEST_HEX_SIZE) == 0);
    drop = n ? fuzz_rng_below(rng, n + 1) : 0;
    for (k = 0; k < drop; k++)
        FUZZ_CHECK(wj_conversation_drop(conv, NULL) == WJ_OK);
    fuzz_buf_putc(&tail, '[');
    for (k = drop; k < n; k++) {
        if (k > drop)
            fuzz_buf_putc(&tail, ',');
        fuzz_buf_put(&tail, doc->json + wj_node_start(doc, elems[k]),
                     wj_node_end(doc, elems[k]) - wj_node_start(doc, elems[k]));
    }
    fuzz_buf_putc(&tail, ']');
    FUZZ_CHECK(wj_messages_digest(tail.ptr, tail.len, NULL, want, NULL) ==
               WJ_OK);
    FUZZ_CHECK(wj_conversation_digest(conv, got, NULL) == WJ_OK);
    FUZZ_CHECK(memcmp(got, want, WJ_DIGEST_HEX_SIZE) == 0);
    if (drop == n)
        FUZZ_CHECK(wj_conversation_drop(conv, NULL) == WJ_ERR_ARGUMENT);
done:
    fuzz_buf_free(&tail);
    free(elems);
    wj_conversation_free(conv);
    FUZZ_CHECK(fuzz_heap_live() == 0);
}

/* The fail_at-th allocation of each digest fails. */
static void check_nomem(const char *json, size_t len, const wj_name *ignored,
                        size_t n_ignored, fuzz_rng *rng)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    size_t calls;
    wj_code rc;

    fuzz_heap_begin(0);
    wj_message_digest(json, len, ignored, n_ignored, &fuzz_heap, hex, &err);
    calls = fuzz_heap_calls();
    if (calls) {
        fuzz_heap_begin(1 + fuzz_rng_below(rng, (uint32_t)calls));
        rc = wj_message_digest(json, len, ignored, n_ignored, &fuzz_heap, hex,
                               &err);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM && fuzz_heap_live() == 0);
    }
    fuzz_heap_begin(0);
    wj_messages_digest(json, len, &fuzz_heap, hex, &err);
    calls = fuzz_heap_calls();
    if (calls) {
        fuzz_heap_begin(1 + fuzz_rng_below(rng, (uint32_t)calls));
        rc = wj_messages_digest(json, len, &fuzz_heap, hex, &err);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM && fuzz_heap_live() == 0);
    }
    fuzz_heap_begin(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[MAX_PARTS];
    wj_name ignored[MAX_PARTS];
    size_t n = fuzz_split(data, size, parts, MAX_PARTS), n_ignored;
    const char *json = parts[0].ptr;
    size_t len = parts[0].len;
    char hex[WJ_DIGEST_HEX_SIZE], again[WJ_DIGEST_HEX_SIZE];
    fuzz_buf respelled = {NULL, 0, 0};
    wj_error err, verr;
    wj_code rc, vrc;
    fuzz_rng rng;
    wj_doc doc;

    fuzz_rng_seed(&rng, data, size);
    n_ignored = fuzz_names(parts + 1, n - 1, ignored);
    vrc = wj_validate(json, len, NULL, &verr);
    if (vrc != WJ_OK) {
        rc = wj_message_digest(json, len, ignored, n_ignored, &fuzz_heap, hex,
                               &err);
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset);
        rc = wj_messages_digest(json, len, &fuzz_heap, hex, &err);
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset);
        FUZZ_CHECK(fuzz_heap_live() == 0);
        fuzz_parts_free(parts, n);
        return 0;
    }
    fuzz_parse_valid(&doc, json, len);
    fuzz_respell(&doc, 0, &rng, &respelled);

    check_message(json, len, &doc, ignored, n_ignored, hex);
    if (wj_node_type(&doc, 0) == WJ_OBJECT &&
        wj_message_digest(respelled.ptr, respelled.len, ignored, n_ignored,
                          NULL, again, NULL) == WJ_OK)
        FUZZ_CHECK(memcmp(hex, again, WJ_DIGEST_HEX_SIZE) == 0);
    check_messages(json, len, &doc, hex);
    check_conversation(&doc, hex, &rng);
    if (wj_messages_digest(respelled.ptr, respelled.len, NULL, again, NULL) ==
        WJ_OK)
        FUZZ_CHECK(memcmp(hex, again, WJ_DIGEST_HEX_SIZE) == 0);
    FUZZ_CHECK(fuzz_heap_live() == 0);
    check_nomem(json, len, ignored, n_ignored, &rng);

    fuzz_buf_free(&respelled);
    wj_doc_release(&doc);
    fuzz_parts_free(parts, n);
    return 0;
}
