/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tool_schemas.c - wj_tool_schemas (docs/contract.md §7).  Input: body, then
 * optionally NUL and the path names, NUL-separated.
 *
 * Invariants: bad input gets the parser's error; no top-level `tools`
 * array gives no result; otherwise the result is a wire-rendered array
 * with one element per tool: null where the path is missing, lands on a
 * non-object or on null, else a string holding exactly the bytes the body
 * spells that value with; a failed n-th allocation is out of memory and
 * leaks nothing.
 */
#include "fuzz_rendering.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 4

/* The member called name (UTF-8 bytes) of obj, or 0. */
static uint32_t member(const wj_doc *doc, uint32_t obj, const wj_name *name)
{
    uint32_t k, m = wj_node_first(obj), found = 0;
    char *decoded;
    if (wj_node_type(doc, obj) != WJ_OBJECT)
        return 0;
    decoded = fuzz_xmalloc(doc->len);
    for (k = 0; k < wj_node_count(doc, obj) && !found;
         k++, m = wj_node_next(doc, wj_member_value(m))) {
        fuzz_node n_at = fuzz_name_at(doc, m), *n = &n_at;
        size_t len = fuzz_decode_utf8(doc->json + n->start + 1,
                                      n->end - n->start - 2, decoded);
        if (len == name->len && memcmp(decoded, name->ptr, len) == 0)
            found = wj_member_value(m);
    }
    free(decoded);
    return found;
}

static void check_result(const wj_doc *body, const wj_name *path, size_t n_path,
                         const char *out, size_t out_len)
{
    static const wj_name tools_name = {"tools", 5};
    uint32_t tools = member(body, 0, &tools_name), k, tool,
             e = wj_node_first(0);
    wj_doc res;
    size_t j;

    if (!tools || wj_node_type(body, tools) != WJ_ARRAY) {
        FUZZ_CHECK(out == NULL);
        return;
    }
    fuzz_check_result(out, out_len);
    fuzz_check_form(out, out_len, WJ_STYLE_WIRE);
    fuzz_parse_valid(&res, out, out_len);
    FUZZ_CHECK(wj_node_type(&res, 0) == WJ_ARRAY &&
               wj_node_count(&res, 0) == wj_node_count(body, tools));
    for (k = 0, tool = wj_node_first(tools); k < wj_node_count(body, tools);
         k++, tool = wj_node_next(body, tool), e = wj_node_next(&res, e)) {
        uint32_t v = tool;
        for (j = 0; j < n_path && v; j++)
            v = member(body, v, &path[j]);
        if (!v || wj_node_type(body, v) == WJ_NULL) {
            FUZZ_CHECK(wj_node_type(&res, e) == WJ_NULL);
        } else {
            fuzz_node s_at = fuzz_node_at(&res, e), *s = &s_at;
            size_t raw_len = wj_node_end(body, v) - wj_node_start(body, v);
            char *text = fuzz_xmalloc(s->end - s->start);
            size_t len = fuzz_decode_utf8(out + s->start + 1,
                                          s->end - s->start - 2, text);
            FUZZ_CHECK(s->type == WJ_STRING);
            fuzz_check_same_bytes("a tool's schema and its bytes in the body",
                                  body->json + wj_node_start(body, v), raw_len,
                                  text, len);
            free(text);
        }
    }
    wj_doc_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[MAX_PARTS];
    wj_name path[MAX_PARTS];
    size_t n = fuzz_split(data, size, parts, MAX_PARTS), n_path, out_len = 0;
    size_t calls;
    char *out = NULL;
    wj_error err, verr;
    wj_code rc, vrc;
    fuzz_rng rng;
    wj_doc body;

    fuzz_rng_seed(&rng, data, size);
    n_path = fuzz_names(parts + 1, n - 1, path);
    fuzz_heap_begin(0);
    rc = wj_tool_schemas(parts[0].ptr, parts[0].len, path, n_path, &fuzz_heap,
                         &out, &out_len, &err);
    calls = fuzz_heap_calls();
    fuzz_check_error(rc, &err, parts[0].len);
    vrc = wj_validate(parts[0].ptr, parts[0].len, NULL, &verr);
    if (vrc != WJ_OK) {
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset && out == NULL);
    } else {
        FUZZ_CHECK(rc == WJ_OK);
        fuzz_parse_valid(&body, parts[0].ptr, parts[0].len);
        check_result(&body, path, n_path, out, out_len);
        wj_doc_release(&body);
    }
    wj_free(&fuzz_heap, out);
    FUZZ_CHECK(fuzz_heap_live() == 0);

    if (calls > 0) {
        fuzz_heap_begin(1 + fuzz_rng_below(&rng, (uint32_t)calls));
        out = NULL;
        rc = wj_tool_schemas(parts[0].ptr, parts[0].len, path, n_path,
                             &fuzz_heap, &out, &out_len, &err);
        fuzz_heap_begin(0);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM && out == NULL);
        FUZZ_CHECK(fuzz_heap_live() == 0);
    }
    fuzz_parts_free(parts, n);
    return 0;
}
