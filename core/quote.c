/* SPDX-License-Identifier: MIT */
/*
 * quote.c - raw text as a JSON string literal with the wire rendering's
 * escapes (docs/contract.md §4): how tool_schemas carries a schema's bytes,
 * how the SQL with_top_level quotes a plain-text VALUE, and how the JSON
 * writer (writer.c) writes names and strings.  The escapes themselves are
 * escape.c's (wj_write_text), checked and written in one pass.
 */
#include "wj_internal.h"

wj_code wj_buf_put_text(wj_buf *buf, const char *text, size_t len,
                        unsigned flags, const char *invalid, wj_error *err)
{
    if (len > WJ_MAX_INPUT)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "input too large");
    switch (wj_write_text(buf, text, len, flags)) {
    case 0: return WJ_OK;
    case 1: return wj_fail(err, WJ_ERR_ARGUMENT, 0, invalid);
    default: return wj_buf_fail(buf, err);
    }
}

wj_code wj_buf_put_quoted(wj_buf *buf, const char *text, size_t len,
                          wj_error *err)
{
    return wj_buf_put_text(buf, text, len, 0, "value is not valid UTF-8", err);
}

wj_code wj_quote_text(const char *text, size_t len, const wj_alloc *alloc,
                      char **out, size_t *out_len, wj_error *err)
{
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_code rc;

    *out = NULL;
    wj_error_clear(err);
    rc = wj_buf_put_quoted(&buf, text, len, err);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}
