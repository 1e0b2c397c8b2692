/* SPDX-License-Identifier: MIT */
/*
 * fuzz_canonical_writer.c - the canonical and digest writers
 * (wj_writer_new_canonical, wj_writer_new_digest) against the canonical
 * rendering of text (wj_canonical_json, wj_data_digest): two ways to the
 * same bytes.
 *
 * A valid input is parsed and replayed into both writers the way a host
 * would: each object's names sorted by wj_name_compare, numbers as their
 * lexemes, and each string, chosen by the input's own PRNG, as WTF-8 or as
 * UTF-16 code units, code points or Latin-1 (read by the harness's own
 * decoder, fuzz_decode).  Invariants: the canonical writer's text is
 * wj_canonical_json of the input and the digest writer's digest its
 * wj_data_digest; a number that rounds to infinity fails both ways with
 * WJ_ERR_RANGE; a name given out of order (the harness swaps two, sometimes) is
 * WJ_ERR_ARGUMENT.
 */
#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct replay {
    const wj_doc *doc;
    wj_writer *w[2]; /* canonical, digest */
    fuzz_rng *rng;
    int swapped; /* names were given out of order somewhere */
} replay;

static const wj_doc *sort_doc;

static int compare_names(const void *a, const void *b)
{
    wj_span x = wj_doc_name(sort_doc, *(const uint32_t *)a);
    wj_span y = wj_doc_name(sort_doc, *(const uint32_t *)b);
    return wj_name_compare(x.ptr, x.len, y.ptr, y.len);
}

/* A string value into every writer, in one of four spellings: text is
 * its decoded WTF-8, raw the literal's body (its code points are the
 * harness's own reading of it, fuzz_decode). */
static void put_string(replay *r, const char *text, size_t len, const char *raw,
                       size_t raw_len)
{
    uint32_t *cps = fuzz_xmalloc((raw_len + 1) * sizeof *cps);
    uint16_t *units = fuzz_xmalloc((2 * raw_len + 1) * sizeof *units);
    uint8_t *latin1 = fuzz_xmalloc(raw_len + 1);
    size_t n = fuzz_decode(raw, raw_len, cps), m = 0, k;
    int narrow = 1, how = (int)fuzz_rng_below(r->rng, 4), j;

    for (k = 0; k < n; k++) {
        narrow &= cps[k] < 0x100;
        latin1[k] = (uint8_t)cps[k];
        if (cps[k] >= 0x10000) {
            units[m++] = (uint16_t)(0xD800 + ((cps[k] - 0x10000) >> 10));
            units[m++] = (uint16_t)(0xDC00 + ((cps[k] - 0x10000) & 0x3FF));
        } else {
            units[m++] = (uint16_t)cps[k];
        }
    }
    for (j = 0; j < 2; j++) {
        wj_writer *w = r->w[j];
        if (how == 1)
            wj_writer_string_units(w, units, m, 2);
        else if (how == 2)
            wj_writer_string_units(w, cps, n, 4);
        else if (how == 3 && narrow)
            wj_writer_string_units(w, latin1, n, 1);
        else
            wj_writer_string(w, text, len);
    }
    free(cps);
    free(units);
    free(latin1);
}

static void put_value(replay *r, uint32_t node)
{
    const wj_doc *doc = r->doc;
    uint32_t start = wj_node_start(doc, node), count, child, k, *names;
    wj_type type = wj_node_type(doc, node);
    int j;

    if (type == WJ_STRING) {
        size_t raw_len = wj_node_end(doc, node) - start - 2;
        char *decoded = fuzz_xmalloc(raw_len + 1);
        const char *raw = doc->json + start + 1;
        size_t len = wj_string_decode(raw, raw_len, decoded);
        put_string(r, decoded, len, raw, raw_len);
        free(decoded);
        return;
    }
    for (j = 0; j < 2; j++) {
        wj_writer *w = r->w[j];
        switch (type) {
        case WJ_NULL: wj_writer_null(w); break;
        case WJ_FALSE: wj_writer_bool(w, 0); break;
        case WJ_TRUE: wj_writer_bool(w, 1); break;
        case WJ_NUMBER:
            wj_writer_number(w, doc->json + start,
                             wj_number_end(doc->json, doc->len, start) - start);
            break;
        case WJ_ARRAY: wj_writer_begin_array(w); break;
        default: wj_writer_begin_object(w); break;
        }
    }
    if (type != WJ_ARRAY && type != WJ_OBJECT)
        return;
    count = wj_node_count(doc, node);
    if (type == WJ_ARRAY) {
        for (k = 0, child = wj_node_first(node); k < count; k++) {
            put_value(r, child);
            child = wj_node_next(doc, child);
        }
        for (j = 0; j < 2; j++)
            wj_writer_end_array(r->w[j]);
        return;
    }
    names = fuzz_xmalloc((count + 1) * sizeof *names);
    wj_members_list(doc, node, names);
    sort_doc = doc;
    qsort(names, count, sizeof *names, compare_names);
    if (count >= 2 && fuzz_rng_below(r->rng, 16) == 0) {
        uint32_t t = names[0];
        names[0] = names[1];
        names[1] = t;
        r->swapped = 1;
    }
    for (k = 0; k < count; k++) {
        wj_span name = wj_doc_name(doc, names[k]);
        for (j = 0; j < 2; j++)
            wj_writer_name(r->w[j], name.ptr, name.len);
        put_value(r, wj_member_value(names[k]));
    }
    for (j = 0; j < 2; j++)
        wj_writer_end_object(r->w[j]);
    free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part in;
    fuzz_rng rng;
    wj_doc doc;
    replay r;
    char *canon = NULL, hex[WJ_DIGEST_HEX_SIZE], want[WJ_DIGEST_HEX_SIZE];
    size_t canon_len = 0, len = 0;
    const char *text;
    wj_error err, derr;
    wj_code rc;

    fuzz_split(data, size, &in, 1);
    fuzz_rng_seed(&rng, data, size);
    if (wj_doc_parse(&doc, in.ptr, in.len, 0, &fuzz_heap, NULL) != WJ_OK) {
        fuzz_parts_free(&in, 1);
        FUZZ_CHECK(fuzz_heap_live() == 0);
        return 0;
    }
    memset(&r, 0, sizeof r);
    r.doc = &doc;
    r.rng = &rng;
    FUZZ_CHECK(wj_writer_new_canonical(&fuzz_heap, &r.w[0]) == WJ_OK);
    FUZZ_CHECK(wj_writer_new_digest(&fuzz_heap, &r.w[1]) == WJ_OK);
    put_value(&r, 0);

    rc =
        wj_canonical_json(in.ptr, in.len, &fuzz_heap, &canon, &canon_len, NULL);
    text = wj_writer_text(r.w[0], &len, &err);
    wj_writer_digest(r.w[1], hex, &derr);
    FUZZ_CHECK(rc == WJ_OK || rc == WJ_ERR_RANGE);
    if (!text) {
        FUZZ_CHECK((r.swapped && err.code == WJ_ERR_ARGUMENT) ||
                   (rc == WJ_ERR_RANGE && err.code == WJ_ERR_RANGE));
        FUZZ_CHECK(derr.code == err.code);
    } else {
        FUZZ_CHECK(!r.swapped && rc == WJ_OK && derr.code == WJ_OK);
        FUZZ_CHECK(len == canon_len && memcmp(text, canon, len) == 0);
        FUZZ_CHECK(wj_data_digest(in.ptr, in.len, NULL, want, NULL) == WJ_OK);
        FUZZ_CHECK(memcmp(hex, want, WJ_DIGEST_HEX_SIZE) == 0);
    }
    wj_free(&fuzz_heap, canon);
    wj_writer_free(r.w[0]);
    wj_writer_free(r.w[1]);
    wj_doc_release(&doc);
    fuzz_parts_free(&in, 1);
    FUZZ_CHECK(fuzz_heap_live() == 0);
    return 0;
}
