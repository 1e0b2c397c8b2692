/* SPDX-License-Identifier: MIT */
/*
 * rawbody.c - edits and reads of a request body as the client's bytes
 * (docs/contract.md §7): with_top_level swaps the values of chosen top-level
 * members and leaves every other byte alone; tool_schemas returns each tool's
 * schema as the exact text the client sent.
 *
 * Both read the parser's spans: a value's first to last byte.
 *
 * with_top_level matches a member name the way Go's encoding/json does:
 * after decoding escapes and under Unicode simple case folding (unicode.h),
 * so "Model", "MODEL" and "\u017ftream" (for stream) are the names it
 * replaces too, and no spelling carries a second value past it to a server
 * that reads names so.
 */
#include "wj_internal.h"
#include "utf8.h"
#include "unicode.h"

/* What a byte that does not start a well-formed sequence reads as: a value
 * above U+10FFFF, so it equals nothing a decoded name holds. */
#define NOT_A_CHARACTER 0x110000u

/*
 * The code point at s[*i] (*i < len), moving *i past it.  s is a decoded
 * member name, generalized UTF-8 (a lone surrogate in its 3-byte form, as
 * wj_string_decode writes it: surrogates nonzero), or the caller's name,
 * which may be any bytes (surrogates 0): there a byte that starts no
 * well-formed UTF-8 sequence reads alone as NOT_A_CHARACTER + the byte.
 */
static uint32_t next_code_point(const unsigned char *s, size_t len, size_t *i,
                                int surrogates)
{
    size_t n = wj_utf8_length(s + *i, len - *i, surrogates);
    uint32_t cp;
    if (!n)
        return NOT_A_CHARACTER + s[(*i)++];
    cp = wj_utf8_decode(s + *i, &n);
    *i += n;
    return cp;
}

/* ASCII's simple case folding: A-Z to a-z. */
static unsigned char fold_ascii(unsigned char c)
{
    return (unsigned)(c - 'A') < 26u ? (unsigned char)(c + 0x20) : c;
}

/* True when the decoded member name a[0..a_len) and the caller's name
 * b[0..b_len) are the same code points under simple case folding, folded
 * one code point at a time as they are read. */
static int fold_equal(const char *a, size_t a_len, const char *b, size_t b_len)
{
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    size_t i = 0, j = 0;

    while (i < a_len && j < b_len) {
        if (x[i] < 0x80 && y[j] < 0x80) {
            if (fold_ascii(x[i++]) != fold_ascii(y[j++]))
                return 0;
        } else if (wj_case_fold(next_code_point(x, a_len, &i, 1)) !=
                   wj_case_fold(next_code_point(y, b_len, &j, 0))) {
            return 0;
        }
    }
    return i == a_len && j == b_len;
}

/* True when the member name at record name_node, its escapes decoded (the
 * parser keeps decoded names), is name under simple case folding. */
static int name_matches(const wj_doc *doc, uint32_t name_node, const char *name,
                        size_t name_len)
{
    wj_span s = wj_doc_name(doc, name_node);
    return fold_equal(s.ptr, s.len, name, name_len);
}

/* Collects in hits the value records of the root object's members called
 * name (under folding), in document order; returns how many. */
static uint32_t find_top_level(const wj_doc *doc, const char *name,
                               size_t name_len, uint32_t *hits)
{
    uint32_t count = wj_node_count(doc, 0), member = wj_node_first(0), k, n = 0;

    for (k = 0; k < count; k++) {
        if (name_matches(doc, member, name, name_len))
            hits[n++] = wj_member_value(member);
        member = wj_member_next(doc, member);
    }
    return n;
}

/* Writes body with the values at hits[0..n) replaced by value. */
static wj_code splice_values(const wj_doc *doc, const uint32_t *hits,
                             uint32_t n, const char *value, size_t value_len,
                             wj_buf *buf, wj_error *err)
{
    size_t size = doc->len, at = 0;
    uint32_t k;

    for (k = 0; k < n; k++)
        size -= wj_node_end(doc, hits[k]) - wj_node_start(doc, hits[k]);
    if (value_len > (WJ_MAX_INPUT - size) / n)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "result too large");
    if (wj_buf_reserve(buf, size + n * value_len) != 0)
        return wj_buf_fail(buf, err);
    for (k = 0; k < n; k++) {
        uint32_t start = wj_node_start(doc, hits[k]);
        wj_buf_put(buf, doc->json + at, start - at);
        wj_buf_put(buf, value, value_len);
        at = wj_node_end(doc, hits[k]);
    }
    wj_buf_put(buf, doc->json + at, doc->len - at);
    return WJ_OK;
}

wj_code wj_with_top_level(const char *body, size_t len, const char *name,
                          size_t name_len, const char *value, size_t value_len,
                          const wj_alloc *alloc, char **out, size_t *out_len,
                          wj_error *err)
{
    wj_doc doc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    uint32_t *hits, n;
    wj_code rc;

    *out = NULL;
    if (out_len)
        *out_len = 0;
    /* The value goes in as given, but only when it is JSON. */
    rc = wj_doc_parse(&doc, value, value_len, WJ_PARSE_ALLOW_DUPLICATES, alloc,
                      err);
    if (rc != WJ_OK) {
        if (err && wj_error_is_input(rc))
            err->argument = "value";
        return rc;
    }
    wj_doc_release(&doc);
    rc = wj_doc_parse(&doc, body, len, WJ_PARSE_ALLOW_DUPLICATES, alloc, err);
    if (wj_error_is_input(rc) ||
        (rc == WJ_OK && wj_node_type(&doc, 0) != WJ_OBJECT)) {
        /* Not an object this scanner follows: no result, no error. */
        if (rc == WJ_OK)
            wj_doc_release(&doc);
        if (err)
            err->code = WJ_OK;
        return WJ_OK;
    }
    if (rc != WJ_OK)
        return rc;
    hits = wj_malloc(alloc, (wj_node_count(&doc, 0) + 1) * sizeof *hits);
    n = hits ? find_top_level(&doc, name ? name : "", name_len, hits)
             : UINT32_MAX;
    if (n == UINT32_MAX)
        rc = wj_buf_fail(&buf, err);
    else if (n > 0)
        rc = splice_values(&doc, hits, n, value, value_len, &buf, err);
    wj_free(alloc, hits);
    wj_doc_release(&doc);
    if (rc == WJ_OK && n > 0)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}

/* The value reached from node by the member names path[0..n_path), or
 * UINT32_MAX when a step is missing or lands on a non-object, or the value
 * is null.  Names with a NULL ptr are skipped. */
static uint32_t follow_path(const wj_doc *doc, uint32_t node,
                            const wj_name *path, size_t n_path)
{
    size_t k;
    for (k = 0; k < n_path && node; k++)
        if (path[k].ptr)
            node = wj_doc_value(doc, node, path[k].ptr, path[k].len);
    return node && wj_node_type(doc, node) != WJ_NULL ? node : UINT32_MAX;
}

uint32_t wj_doc_tools(const wj_doc *doc)
{
    uint32_t v = wj_doc_value(doc, 0, "tools", 5);
    return v && wj_node_type(doc, v) == WJ_ARRAY ? v : 0;
}

wj_code wj_tool_schemas(const char *body, size_t len, const wj_name *path,
                        size_t n_path, const wj_alloc *alloc, char **out,
                        size_t *out_len, wj_error *err)
{
    wj_doc doc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    uint32_t tools, tool, k;
    wj_code rc;

    *out = NULL;
    if (out_len)
        *out_len = 0;
    rc = wj_doc_parse(&doc, body, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    tools = wj_doc_tools(&doc);
    if (!tools) {
        wj_doc_release(&doc);
        return WJ_OK;
    }
    if (wj_buf_reserve(&buf, 2) != 0)
        rc = wj_buf_fail(&buf, err);
    else
        wj_buf_putc(&buf, '[');
    tool = wj_node_first(tools);
    for (k = 0; rc == WJ_OK && k < wj_node_count(&doc, tools); k++) {
        uint32_t v = follow_path(&doc, tool, path, n_path);
        if (wj_buf_reserve(&buf, 6) != 0) {
            rc = wj_buf_fail(&buf, err);
            break;
        }
        if (k)
            wj_buf_putc(&buf, ',');
        if (v == UINT32_MAX)
            wj_buf_put(&buf, "null", 4);
        else
            rc = wj_buf_put_quoted(
                &buf, body + wj_node_start(&doc, v),
                wj_node_end(&doc, v) - wj_node_start(&doc, v), err);
        tool = wj_node_next(&doc, tool);
    }
    if (rc == WJ_OK && wj_buf_reserve(&buf, 1) != 0)
        rc = wj_buf_fail(&buf, err);
    if (rc == WJ_OK)
        wj_buf_putc(&buf, ']');
    wj_doc_release(&doc);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}
