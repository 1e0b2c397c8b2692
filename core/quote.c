/* SPDX-License-Identifier: MIT */
/*
 * quote.c - raw text as a JSON string literal with the wire rendering's
 * escapes (docs/contract.md §4): how tool_schemas carries a schema's bytes,
 * how the SQL with_top_level quotes a plain-text VALUE, and how the JSON
 * writer (writer.c) writes names and strings.  The escapes themselves are
 * escape.c's (wj_write_text), checked and written in one pass.  And any
 * bytes as json.dumps writes a string (wj_quote_bytes), for reports that a
 * program in another language writes too.
 */
#include "wj_internal.h"
#include "utf8.h"

#include <stdio.h>

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

/* True when text[0..len) is strict UTF-8. */
static int all_utf8(const unsigned char *p, size_t len)
{
    size_t i = 0, l;
    while (i < len && (l = wj_utf8_length(p + i, len - i, 0)) != 0)
        i += l;
    return i == len;
}

wj_code wj_quote_bytes(const char *text, size_t len, unsigned flags,
                       const wj_alloc *alloc, char **out, size_t *out_len,
                       wj_error *err)
{
    const unsigned char *p = (const unsigned char *)text;
    wj_buf buf = WJ_BUF_INIT(alloc);
    size_t i = 0;

    *out = NULL;
    wj_error_clear(err);
    if (len > WJ_MAX_INPUT)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "input too large");
    if ((flags & WJ_QUOTE_ASCII_IF_STRAYS) && !all_utf8(p, len))
        flags |= WJ_QUOTE_ASCII | WJ_QUOTE_STRAYS;
    /* each step writes at most 12 bytes (a pair of \uxxxx), the quotes 1 */
    if (wj_buf_reserve(&buf, 1) != 0)
        return wj_buf_fail(&buf, err);
    wj_buf_put(&buf, "\"", 1);
    while (i < len) {
        unsigned c = p[i];
        size_t l;
        uint32_t cp;
        char esc[13];
        const char *e = NULL;
        if (wj_buf_reserve(&buf, 12) != 0) {
            wj_free(alloc, buf.ptr);
            return wj_buf_fail(&buf, err);
        }
        switch (c) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        default: break;
        }
        if (e) {
            wj_buf_put(&buf, e, 2);
            i++;
        } else if (c < 0x20 || (c == 0x7F && (flags & WJ_QUOTE_ASCII))) {
            wj_buf_put(&buf, esc, (size_t)snprintf(esc, sizeof esc,
                                                   "\\u%04x", c));
            i++;
        } else if (c < 0x80) {
            wj_buf_put(&buf, text + i, 1);
            i++;
        } else if ((l = wj_utf8_length(p + i, len - i, 0)) == 0) {
            if (flags & WJ_QUOTE_STRAYS)
                wj_buf_put(&buf, esc, (size_t)snprintf(esc, sizeof esc,
                                                       "\\udc%02x", c));
            else
                wj_buf_put(&buf, text + i, 1);
            i++;
        } else {
            if (!(flags & WJ_QUOTE_ASCII))
                wj_buf_put(&buf, text + i, l);
            else if ((cp = wj_utf8_decode(p + i, &l)) >= 0x10000)
                wj_buf_put(&buf, esc,
                           (size_t)snprintf(esc, sizeof esc,
                                            "\\u%04x\\u%04x",
                                            0xD800 + ((cp - 0x10000) >> 10),
                                            0xDC00 + ((cp - 0x10000) & 0x3FF)));
            else
                wj_buf_put(&buf, esc, (size_t)snprintf(esc, sizeof esc,
                                                       "\\u%04x", cp));
            i += l;
        }
    }
    if (wj_buf_reserve(&buf, 1) != 0) {
        wj_free(alloc, buf.ptr);
        return wj_buf_fail(&buf, err);
    }
    wj_buf_put(&buf, "\"", 1);
    return wj_buf_finish(&buf, out, out_len, err);
}
