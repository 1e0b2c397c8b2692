/* SPDX-License-Identifier: MIT */
/*
 * --member NAME: the JSON document a record holds in a member, as dedup
 * --member and the Python job read it.  The member's bytes are found with
 * the core's wj_tool_schemas (a path of one step into the record, wrapped
 * as the one tool of a request), so no JSON is scanned here; a string
 * value is then decoded to its bytes, which are the document.
 *
 * dedup.c keeps an older copy of this reading (member_text, unquote) to be
 * folded into this file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_json_quote(cli_buf *b, const char *s, size_t n)
{
    size_t i;
    char esc[8];
    if (cli_buf_append(b, "\"", 1))
        return -1;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c;
            if (cli_buf_append(b, esc, 2))
                return -1;
        } else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            if (cli_buf_append(b, esc, 6))
                return -1;
        } else if (cli_buf_append(b, &c, 1))
            return -1;
    }
    return cli_buf_append(b, "\"", 1);
}

static size_t utf8_put(char *u, uint32_t cp)
{
    if (cp < 0x80)
        return u[0] = (char)cp, 1;
    if (cp < 0x800)
        return u[0] = (char)(0xC0 | (cp >> 6)),
               u[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000)
        return u[0] = (char)(0xE0 | (cp >> 12)),
               u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
               u[2] = (char)(0x80 | (cp & 0x3F)), 3;
    return u[0] = (char)(0xF0 | (cp >> 18)),
           u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
           u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)),
           u[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

static uint32_t hex4(const char *s)
{
    char h[5] = {s[0], s[1], s[2], s[3], 0};
    return (uint32_t)strtoul(h, NULL, 16);
}

/* Decodes the valid JSON string s[0..n) (quotes included) into out. */
static int unquote(cli_buf *out, const char *s, size_t n)
{
    size_t i = 1;
    out->len = 0;
    while (i + 1 < n) {
        const char *run = s + i;
        char c, u[4];
        uint32_t cp;
        while (i + 1 < n && s[i] != '\\')
            i++;
        if (cli_buf_append(out, run, (size_t)(s + i - run)))
            return -1;
        if (i + 1 >= n)
            break;
        c = s[i + 1];
        i += 2;
        switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        default: break; /* " \ / and u */
        }
        if (c != 'u') {
            if (cli_buf_append(out, &c, 1))
                return -1;
            continue;
        }
        cp = hex4(s + i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' &&
            s[i + 1] == 'u') {
            uint32_t lo = hex4(s + i + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
        }
        if (cli_buf_append(out, u, utf8_put(u, cp)))
            return -1;
    }
    return 0;
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
                          const char *quoted, const char *fn, cli_buf *tmp,
                          cli_buf *out, const char **doc, size_t *doc_len)
{
    wj_error err = WJ_ERROR_INIT;
    wj_name path, *el = NULL;
    char *found = NULL, *msg = NULL;
    size_t found_len = 0, n_el = 0;
    wj_code rc = wj_validate(text, len, NULL, &err);

    if (rc != WJ_OK)
        return wj_error_message(&err, fn, NULL, NULL);
    tmp->len = 0;
    if (cli_buf_append(tmp, "{\"tools\":[", 10) ||
        cli_buf_append(tmp, text, len) || cli_buf_append(tmp, "]}", 2))
        return strdup("out of memory");
    path.ptr = name;
    path.len = strlen(name);
    rc = wj_tool_schemas(tmp->ptr, tmp->len, &path, 1, NULL, &found,
                         &found_len, &err);
    if (rc == WJ_ERR_DEPTH)
        return message(fn, "%s: the record is nested too deep to take its "
                           "member %s", quoted);
    if (rc != WJ_OK)
        return wj_error_message(&err, fn, NULL, NULL);
    /* found: ["..."] (the member's bytes as a string) or [null] */
    if (!found || wj_array_elements(found, found_len, NULL, &el, &n_el,
                                    &err) != WJ_OK ||
        n_el != 1 || el[0].ptr[0] != '"')
        msg = message(fn, "%s: the record is not a JSON object with a "
                          "member %s that is not null", quoted);
    else if (unquote(out, el[0].ptr, el[0].len))
        msg = strdup("out of memory");
    else if (out->len && out->ptr[0] == '"') {
        /* a string: its bytes are the document */
        if (unquote(tmp, out->ptr, out->len))
            msg = strdup("out of memory");
        else
            *doc = tmp->ptr, *doc_len = tmp->len;
    } else
        *doc = out->ptr, *doc_len = out->len;
    wj_free(NULL, el);
    wj_free(NULL, found);
    return msg;
}
