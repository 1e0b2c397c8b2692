/* SPDX-License-Identifier: MIT */
/*
 * fuzz_rendering.c - the invariants every rendering (wire, wire sorted,
 * canonical) must keep, shared by their fuzz targets:
 *
 *   - bad input is refused with the parser's own error and offset;
 *   - the output has the rendering's exact form (fuzz_check_form) and
 *     member order (fuzz_check_order);
 *   - it parses back to the same value as the input;
 *   - rendering is idempotent: render(render(x)) == render(x);
 *   - a respelling of x (members shuffled, whitespace, escapes) renders to
 *     the same bytes;
 *   - the n-th allocation failing is reported as out of memory and leaks
 *     nothing.
 */
#include "fuzz_rendering.h"

#include <stdlib.h>

wj_code fuzz_render(wj_style style, const char *json, size_t len,
                    const wj_name *data, size_t n_data, char **out,
                    size_t *out_len, wj_error *err)
{
    switch (style) {
    case WJ_STYLE_WIRE:
        return wj_wire_json(json, len, data, n_data, &fuzz_heap, out, out_len,
                            err);
    case WJ_STYLE_WIRE_SORTED:
        return wj_wire_json_sorted(json, len, &fuzz_heap, out, out_len, err);
    default:
        return wj_canonical_json(json, len, &fuzz_heap, out, out_len, err);
    }
}

/* render(text) must give exactly want. */
static void check_renders_to(wj_style style, const char *text, size_t len,
                             const wj_name *data, size_t n_data,
                             const char *what, const char *want,
                             size_t want_len)
{
    char *out = NULL;
    size_t out_len = 0;
    wj_error err;
    wj_code rc = fuzz_render(style, text, len, data, n_data, &out, &out_len,
                             &err);
    fuzz_check_error(rc, &err, len);
    FUZZ_CHECK(rc == WJ_OK);
    fuzz_check_same_bytes(what, want, want_len, out, out_len);
    wj_free(&fuzz_heap, out);
}

/* The fail_at-th allocation fails: WJ_ERR_NOMEM, no result, no leak. */
static void check_nomem(wj_style style, const char *json, size_t len,
                        const wj_name *data, size_t n_data, size_t fail_at)
{
    char *out = NULL;
    size_t out_len = 0;
    wj_error err;
    wj_code rc;

    fuzz_heap_begin(fail_at);
    rc = fuzz_render(style, json, len, data, n_data, &out, &out_len, &err);
    fuzz_heap_begin(0);
    fuzz_check_error(rc, &err, len);
    FUZZ_CHECK(rc == WJ_ERR_NOMEM && out == NULL);
    FUZZ_CHECK(fuzz_heap_live() == 0);
}

void fuzz_check_rendering(wj_style style, const char *json, size_t len,
                          const wj_name *data, size_t n_data, fuzz_rng *rng)
{
    char *out = NULL;
    size_t out_len = 0, calls;
    wj_error err, verr;
    wj_code rc, vrc;
    wj_doc in_doc, out_doc;
    fuzz_buf respelled = {NULL, 0, 0};

    fuzz_heap_begin(0);
    rc = fuzz_render(style, json, len, data, n_data, &out, &out_len, &err);
    calls = fuzz_heap_calls();
    fuzz_check_error(rc, &err, len);
    vrc = wj_validate(json, len, NULL, &verr);
    if (vrc != WJ_OK) {
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset && out == NULL);
        FUZZ_CHECK(fuzz_heap_live() == 0);
        return;
    }
    if (rc == WJ_ERR_RANGE) { /* canonical only, at a number */
        FUZZ_CHECK(style == WJ_STYLE_CANONICAL && out == NULL);
        FUZZ_CHECK(json[err.offset] == '-' ||
                   (json[err.offset] >= '0' && json[err.offset] <= '9'));
        FUZZ_CHECK(fuzz_heap_live() == 0);
        return;
    }
    FUZZ_CHECK(rc == WJ_OK);
    fuzz_check_result(out, out_len);
    fuzz_check_form(out, out_len, style);

    fuzz_parse_valid(&in_doc, json, len);
    fuzz_parse_valid(&out_doc, out, out_len);
    FUZZ_CHECK(fuzz_same_value(&in_doc, 0, &out_doc, 0,
                               style == WJ_STYLE_CANONICAL));
    fuzz_check_order(&out_doc, style, data, n_data);
    wj_doc_release(&out_doc);

    check_renders_to(style, out, out_len, data, n_data,
                     "rendering twice and once", out, out_len);
    fuzz_respell(&in_doc, 0, rng, &respelled);
    check_renders_to(style, respelled.ptr, respelled.len, data, n_data,
                     "rendering of a respelling and of the input", out,
                     out_len);
    fuzz_buf_free(&respelled);
    wj_doc_release(&in_doc);
    wj_free(&fuzz_heap, out);
    FUZZ_CHECK(fuzz_heap_live() == 0);

    if (calls > 0)
        check_nomem(style, json, len, data, n_data,
                    1 + fuzz_rng_below(rng, (uint32_t)calls));
}

size_t fuzz_names(const fuzz_part *parts, size_t n, wj_name *names)
{
    size_t k;
    for (k = 0; k < n; k++) {
        names[k].ptr = parts[k].ptr;
        names[k].len = parts[k].len;
    }
    return n;
}
