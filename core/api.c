/* SPDX-License-Identifier: MIT */
/*
 * api.c - the public one-call functions: parse, render, hand the bytes over.
 */
#include "batch.h"
#include "wj_internal.h"

const char *wj_version(void)
{
    return WJ_VERSION_STRING;
}

wj_code wj_validate(const char *json, size_t len, const wj_alloc *alloc,
                    wj_error *err)
{
    wj_doc doc;
    wj_code rc =
        wj_doc_parse(&doc, json, len, WJ_PARSE_VERDICT_ONLY, alloc, err);
    if (rc == WJ_OK)
        wj_doc_release(&doc);
    return rc;
}

/* Parses json and renders it whole with opts into a new buffer. */
static wj_code render_text(const char *json, size_t len,
                           const wj_render_opts *opts, const wj_alloc *alloc,
                           char **out, size_t *out_len, wj_error *err)
{
    wj_doc doc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_code rc;

    *out = NULL;
    rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    /* Renderings are about as long as their input: size the buffer once. */
    if (wj_buf_presize(&buf, wj_render_reserve(len)) != 0)
        rc = wj_buf_fail(&buf, err);
    else
        rc = wj_buf_code(&buf, wj_render(&doc, 0, opts, &buf, err), err);
    wj_doc_release(&doc);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}

wj_code wj_wire_json(const char *json, size_t len, const wj_name *data_members,
                     size_t n_data_members, const wj_alloc *alloc, char **out,
                     size_t *out_len, wj_error *err)
{
    wj_render_opts opts = {WJ_STYLE_WIRE, data_members, n_data_members};
    return render_text(json, len, &opts, alloc, out, out_len, err);
}

wj_code wj_wire_json_sorted(const char *json, size_t len, const wj_alloc *alloc,
                            char **out, size_t *out_len, wj_error *err)
{
    wj_render_opts opts = {WJ_STYLE_WIRE_SORTED, NULL, 0};
    return render_text(json, len, &opts, alloc, out, out_len, err);
}

wj_code wj_canonical_json(const char *json, size_t len, const wj_alloc *alloc,
                          char **out, size_t *out_len, wj_error *err)
{
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_code rc = wj_digest_text(json, len, 0, NULL, 0, &buf, err);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    *out = NULL;
    return rc;
}

wj_code wj_canonical_arguments(const char *text, size_t len,
                               const wj_alloc *alloc, char **out,
                               size_t *out_len, wj_error *err)
{
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_code rc = wj_canonical_json(text, len, alloc, out, out_len, err);
    if (!wj_error_is_input(rc))
        return rc;
    /* Not JSON we can canonicalise: the text itself is the identity. */
    wj_error_clear(err);
    if (wj_buf_reserve(&buf, len) != 0)
        return wj_buf_fail(&buf, err);
    wj_buf_put(&buf, text, len);
    return wj_buf_finish(&buf, out, out_len, err);
}
