/* SPDX-License-Identifier: MIT */
/*
 * fuzz_encode_with_schemas.c - wj_encode_with_schemas (docs/contract.md §7).  Input:
 * body, then optionally NUL and texts; without texts the body's own
 * tool_schemas(body, function, parameters) are used, so that most tools
 * have a text to splice.
 *
 * Invariants: a bad body or texts is an error inside the bad one; texts
 * that are not an array of strings and nulls is an argument error; no tools
 * to spell, or not one text per tool, gives no result; otherwise the result
 * is exactly the body's wire rendering (data member `messages`) with each
 * tool's members put in function-calling order (type, function, the rest;
 * name, description, parameters, the rest) and each `parameters` replaced
 * by its text when that text's canonical JSON equals the parameters' own;
 * a respelling of the body (members shuffled, whitespace, escapes) gives
 * the same result; a failed n-th allocation is out of memory and leaks
 * nothing.
 */
#include "fuzz_rendering.h"

#include <stdlib.h>
#include <string.h>

static const wj_name messages = {"messages", 8};

/* The value of the member called name in obj (a tree without escapes in
 * names: a wire rendering), or 0. */
static uint32_t member(const wj_doc *doc, uint32_t obj, const char *name)
{
    uint32_t k, m = wj_node_first(obj);
    size_t len = strlen(name);
    if (wj_node_type(doc, obj) != WJ_OBJECT)
        return 0;
    for (k = 0; k < wj_node_count(doc, obj);
         k++, m = wj_node_next(doc, wj_member_value(m)))
        if (wj_name_end(doc, m) - wj_name_start(doc, m) == len + 2 &&
            memcmp(doc->json + wj_name_start(doc, m) + 1, name, len) == 0)
            return wj_member_value(m);
    return 0;
}

static void put_node(const wj_doc *doc, uint32_t node, fuzz_buf *out)
{
    fuzz_buf_put(out, doc->json + wj_node_start(doc, node),
                 wj_node_end(doc, node) - wj_node_start(doc, node));
}

static void put_name(const wj_doc *doc, uint32_t name, fuzz_buf *out)
{
    fuzz_buf_put(out, doc->json + wj_name_start(doc, name),
                 wj_name_end(doc, name) - wj_name_start(doc, name));
}

/* A tool's text to splice, when its canonical JSON equals that of params
 * (the raw text of the body's parameters value). */
typedef struct splice {
    char *text;
    size_t len;
} splice;

static int same_canonical(const char *a, size_t a_len, const char *b,
                          size_t b_len)
{
    char *ca = NULL, *cb = NULL;
    size_t la = 0, lb = 0;
    int same = wj_canonical_json(a, a_len, NULL, &ca, &la, NULL) == WJ_OK &&
               wj_canonical_json(b, b_len, NULL, &cb, &lb, NULL) == WJ_OK &&
               la == lb && memcmp(ca, cb, la) == 0;
    wj_free(NULL, ca);
    wj_free(NULL, cb);
    return same;
}

/* Writes obj with the members named in leaders first (those present, in
 * that order), then the others as they are; function objects recurse. */
static void put_reordered(const wj_doc *doc, uint32_t obj,
                          const char *const *leaders, size_t n_leaders,
                          int is_tool, const splice *sp, fuzz_buf *out)
{
    static const char *const fn_leaders[] = {"name", "description",
                                             "parameters"};
    uint32_t k, m, first = 1;
    size_t j;

    fuzz_buf_putc(out, '{');
    for (j = 0; j <= n_leaders; j++) {
        for (k = 0, m = wj_node_first(obj); k < wj_node_count(doc, obj);
             k++, m = wj_node_next(doc, wj_member_value(m))) {
            size_t lead;
            for (lead = 0; lead < n_leaders; lead++)
                if (member(doc, obj, leaders[lead]) == wj_member_value(m))
                    break;
            if (lead != j) /* j == n_leaders: the rest, in their order */
                continue;
            if (!first)
                fuzz_buf_putc(out, ',');
            first = 0;
            put_name(doc, m, out);
            fuzz_buf_putc(out, ':');
            if (is_tool && lead == 1 &&
                wj_node_type(doc, wj_member_value(m)) == WJ_OBJECT)
                put_reordered(doc, wj_member_value(m), fn_leaders, 3, 0, sp,
                              out);
            else if (!is_tool && lead == 2 && sp->text)
                fuzz_buf_put(out, sp->text, sp->len);
            else
                put_node(doc, wj_member_value(m), out);
        }
    }
    fuzz_buf_putc(out, '}');
}

/* What the result must be, from the wire rendering w of the body; 0 when
 * there must be none.  texts is a valid array of strings and nulls. */
static int expected(const char *body, size_t body_len, const wj_doc *texts,
                    fuzz_buf *out)
{
    static const char *const tool_leaders[] = {"type", "function"};
    char *w = NULL;
    size_t w_len = 0;
    wj_doc wd, bd;
    uint32_t tools, btools, k, i, t, bt, e, m;
    int ok = 0;

    if (wj_wire_json(body, body_len, &messages, 1, NULL, &w, &w_len, NULL) !=
        WJ_OK)
        return 0;
    fuzz_parse_valid(&wd, w, w_len);
    fuzz_parse_valid(&bd, body, body_len);
    tools = member(&wd, 0, "tools");
    btools = wj_doc_tools(&bd);
    if (tools && wj_node_type(&wd, tools) == WJ_ARRAY &&
        wj_node_count(&wd, tools) > 0 &&
        wj_node_count(&wd, tools) == wj_node_count(texts, 0)) {
        FUZZ_CHECK(btools != 0);
        ok = 1;
        fuzz_buf_putc(out, '{');
        for (k = 0, m = wj_node_first(0); k < wj_node_count(&wd, 0);
             k++, m = wj_node_next(&wd, wj_member_value(m))) {
            if (k)
                fuzz_buf_putc(out, ',');
            put_name(&wd, m, out);
            fuzz_buf_putc(out, ':');
            if (wj_member_value(m) != tools) {
                put_node(&wd, wj_member_value(m), out);
                continue;
            }
            fuzz_buf_putc(out, '[');
            for (t = wj_node_first(tools), bt = wj_node_first(btools),
                e = wj_node_first(0), i = 0;
                 i < wj_node_count(&wd, tools); i++, t = wj_node_next(&wd, t),
                bt = wj_node_next(&bd, bt), e = wj_node_next(texts, e)) {
                splice sp = {NULL, 0};
                uint32_t fn = wj_doc_value(&bd, bt, "function", 8);
                uint32_t params =
                    fn ? wj_doc_value(&bd, fn, "parameters", 10) : 0;
                fuzz_node s_at = fuzz_node_at(texts, e), *s = &s_at;
                if (i)
                    fuzz_buf_putc(out, ',');
                if (params && s->type == WJ_STRING) {
                    sp.text = fuzz_xmalloc(s->end - s->start);
                    sp.len = fuzz_decode_utf8(texts->json + s->start + 1,
                                              s->end - s->start - 2, sp.text);
                    if (!same_canonical(sp.text, sp.len,
                                        body + wj_node_start(&bd, params),
                                        wj_node_end(&bd, params) -
                                            wj_node_start(&bd, params))) {
                        free(sp.text);
                        sp.text = NULL;
                    }
                }
                if (wj_node_type(&wd, t) == WJ_OBJECT)
                    put_reordered(&wd, t, tool_leaders, 2, 1, &sp, out);
                else
                    put_node(&wd, t, out);
                free(sp.text);
            }
            fuzz_buf_putc(out, ']');
        }
        fuzz_buf_putc(out, '}');
    }
    wj_doc_release(&wd);
    wj_doc_release(&bd);
    wj_free(NULL, w);
    return ok;
}

static int texts_are_valid(const wj_doc *texts)
{
    uint32_t k, e = wj_node_first(0);
    if (wj_node_type(texts, 0) != WJ_ARRAY)
        return 0;
    for (k = 0; k < wj_node_count(texts, 0); k++, e = wj_node_next(texts, e))
        if (wj_node_type(texts, e) != WJ_STRING &&
            wj_node_type(texts, e) != WJ_NULL)
            return 0;
    return 1;
}

/* The body respelled (members shuffled, whitespace, escapes) with the same
 * texts gives the same result. */
static void check_respelled(const fuzz_part *body, const fuzz_part *texts,
                            const char *want, size_t want_len, fuzz_rng *rng)
{
    fuzz_buf respelled = {NULL, 0, 0};
    char *out = NULL;
    size_t out_len = 0;
    wj_doc doc;

    fuzz_parse_valid(&doc, body->ptr, body->len);
    fuzz_respell(&doc, 0, rng, &respelled);
    wj_doc_release(&doc);
    FUZZ_CHECK(wj_encode_with_schemas(respelled.ptr, respelled.len, texts->ptr,
                                      texts->len, &fuzz_heap, &out, &out_len,
                                      NULL) == WJ_OK);
    fuzz_check_same_bytes("encode_with_schemas of a respelled body", want,
                          want_len, out, out_len);
    wj_free(&fuzz_heap, out);
    fuzz_buf_free(&respelled);
}

static void check(const fuzz_part *body, const fuzz_part *texts, fuzz_rng *rng)
{
    char *out = NULL;
    size_t out_len = 0, calls;
    wj_error err, verr;
    wj_code rc, vrc;
    fuzz_buf want = {NULL, 0, 0};
    wj_doc tdoc;

    fuzz_heap_begin(0);
    rc = wj_encode_with_schemas(body->ptr, body->len, texts->ptr, texts->len,
                                &fuzz_heap, &out, &out_len, &err);
    calls = fuzz_heap_calls();
    vrc = wj_validate(body->ptr, body->len, NULL, &verr);
    if (vrc != WJ_OK) {
        fuzz_check_error(rc, &err, body->len);
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset && out == NULL);
    } else if ((vrc = wj_doc_parse(&tdoc, texts->ptr, texts->len, 0, NULL,
                                   &verr)) != WJ_OK) {
        fuzz_check_error(rc, &err, texts->len);
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset && out == NULL);
    } else {
        if (!texts_are_valid(&tdoc)) {
            fuzz_check_error(rc, &err, texts->len);
            FUZZ_CHECK(rc == WJ_ERR_ARGUMENT && out == NULL);
        } else if (!expected(body->ptr, body->len, &tdoc, &want)) {
            fuzz_check_error(rc, &err, body->len);
            FUZZ_CHECK(rc == WJ_OK && out == NULL);
        } else {
            fuzz_check_error(rc, &err, body->len);
            FUZZ_CHECK(rc == WJ_OK);
            fuzz_check_result(out, out_len);
            fuzz_check_same_bytes("encode_with_schemas and the expected text",
                                  want.ptr, want.len, out, out_len);
            check_respelled(body, texts, out, out_len, rng);
        }
        wj_doc_release(&tdoc);
    }
    wj_free(&fuzz_heap, out);
    fuzz_buf_free(&want);
    FUZZ_CHECK(fuzz_heap_live() == 0);

    if (calls > 0) {
        fuzz_heap_begin(1 + fuzz_rng_below(rng, (uint32_t)calls));
        out = NULL;
        rc =
            wj_encode_with_schemas(body->ptr, body->len, texts->ptr, texts->len,
                                   &fuzz_heap, &out, &out_len, &err);
        fuzz_heap_begin(0);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM && out == NULL);
        FUZZ_CHECK(fuzz_heap_live() == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const wj_name path[2] = {{"function", 8}, {"parameters", 10}};
    fuzz_part parts[2];
    size_t n = fuzz_split(data, size, parts, 2);
    fuzz_rng rng;

    fuzz_rng_seed(&rng, data, size);
    if (n == 1) {
        char *texts = NULL;
        size_t texts_len = 0;
        if (wj_tool_schemas(parts[0].ptr, parts[0].len, path, 2, NULL, &texts,
                            &texts_len, NULL) != WJ_OK ||
            !texts) {
            fuzz_parts_free(parts, n);
            return 0;
        }
        parts[1].ptr = fuzz_xmalloc(texts_len);
        memcpy(parts[1].ptr, texts, texts_len);
        parts[1].len = texts_len;
        wj_free(NULL, texts);
        n = 2;
    }
    check(&parts[0], &parts[1], &rng);
    fuzz_parts_free(parts, n);
    return 0;
}
