/* SPDX-License-Identifier: MIT */
/*
 * member.c - a member of a record's object (--member, --time-member), as
 * function mode, dedup, cache-audit and the Python job read it.  The
 * core's wj_tool_schemas follows a path inside each entry of a top-level
 * `tools` array and answers the bytes it finds as a JSON string, so the
 * record is wrapped as {"tools":[RECORD]} and the member's name is the
 * path: no JSON is scanned here.  A string value is then decoded to its
 * bytes, which are the document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "member.h"

int cli_json_quote(wk_buf *b, const char *s, size_t n)
{
    size_t i;
    char esc[8];
    if (wk_buf_append(b, "\"", 1))
        return -1;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c;
            if (wk_buf_append(b, esc, 2))
                return -1;
        } else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            if (wk_buf_append(b, esc, 6))
                return -1;
        } else if (wk_buf_append(b, &c, 1))
            return -1;
    }
    return wk_buf_append(b, "\"", 1);
}

/* Decodes the JSON string at s[0..n) (quotes included) into out, through
 * the core's wj_string_value. */
int cli_unquote(wk_buf *out, const char *s, size_t n)
{
    wj_error err = WJ_ERROR_INIT;
    char *bytes = NULL;
    size_t len = 0;
    int st;

    out->len = 0;
    if (wj_string_value(s, n, NULL, &bytes, &len, &err) != WJ_OK)
        return -1;
    st = wk_buf_append(out, bytes, len);
    wj_free(NULL, bytes);
    return st;
}

int cli_member_text(const char *text, size_t len, const char *name,
                    wk_buf *wrap, wk_buf *out, wj_error *err)
{
    wj_name path, *el = NULL;
    char *found = NULL;
    size_t found_len = 0, n_el = 0;
    wj_code rc;
    int st = 0;

    wrap->len = 0;
    if (wk_buf_append(wrap, "{\"tools\":[", 10) ||
        wk_buf_append(wrap, text, len) || wk_buf_append(wrap, "]}", 2)) {
        err->code = WJ_ERR_NOMEM;
        err->msg = "out of memory";
        return -1;
    }
    path.ptr = name;
    path.len = strlen(name);
    rc = wj_tool_schemas(wrap->ptr, wrap->len, &path, 1, NULL, &found,
                         &found_len, err);
    if (rc != WJ_OK)
        return -1;
    /* found: ["the member's bytes"] or [null] */
    if (found &&
        wj_array_elements(found, found_len, NULL, &el, &n_el, err) == WJ_OK &&
        n_el == 1 && el[0].ptr[0] == '"') {
        st = 1;
        if (cli_unquote(out, el[0].ptr, el[0].len)) {
            err->code = WJ_ERR_NOMEM;
            err->msg = "out of memory";
            st = -1;
        }
    }
    wj_free(NULL, el);
    wj_free(NULL, found);
    return st;
}

static char *message(const char *fn, const char *what, const char *quoted)
{
    size_t n = strlen(fn) + strlen(what) + strlen(quoted) + 1;
    char *m = malloc(n);
    if (m)
        snprintf(m, n, what, fn, quoted);
    return m;
}

char *cli_member_document(const char *text, size_t len, const char *name,
                          const char *quoted, const char *fn, wk_buf *tmp,
                          wk_buf *out, const char **doc, size_t *doc_len)
{
    wj_error err = WJ_ERROR_INIT;
    int found;

    if (wj_validate(text, len, NULL, &err) != WJ_OK)
        return wj_error_message(&err, fn, NULL, NULL);
    found = cli_member_text(text, len, name, tmp, out, &err);
    if (found < 0 && err.code == WJ_ERR_DEPTH)
        return message(fn, "%s: the record is nested too deep to take its "
                           "member %s", quoted);
    if (found < 0 && err.code == WJ_ERR_NOMEM)
        return strdup("out of memory");
    if (found < 0)
        return wj_error_message(&err, fn, NULL, NULL);
    if (found == 0)
        return message(fn, "%s: the record is not a JSON object with a "
                           "member %s that is not null", quoted);
    if (out->len && out->ptr[0] == '"') {
        /* a string: its bytes are the document */
        if (cli_unquote(tmp, out->ptr, out->len))
            return strdup("out of memory");
        *doc = tmp->ptr, *doc_len = tmp->len;
    } else
        *doc = out->ptr, *doc_len = out->len;
    return NULL;
}
