/* SPDX-License-Identifier: MIT */
/*
 * member.c - a member's bytes of a line's object.  The core's
 * wj_tool_schemas follows a path inside each entry of a top-level `tools`
 * array and answers the bytes it finds as a JSON string, so the line is
 * wrapped as {"tools":[LINE]} and the member's name is the path.
 */
#include <stdlib.h>
#include <string.h>

#include "member.h"

/* Decodes the JSON string at s[0..n) (quotes included) into out. */
int cli_unquote(cli_buf *out, const char *s, size_t n)
{
    size_t i = 1;
    out->len = 0;
    while (i + 1 < n) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        char u[4];
        size_t ul;
        if (c != '\\') {
            if (cli_buf_append(out, &c, 1))
                return -1;
            i++;
            continue;
        }
        c = (unsigned char)s[i + 1];
        i += 2;
        switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u': break;
        default: break; /* " \ / */
        }
        if (c != 'u') {
            if (cli_buf_append(out, &c, 1))
                return -1;
            continue;
        }
        cp = (uint32_t)strtoul((char[5]){s[i], s[i + 1], s[i + 2], s[i + 3], 0},
                               NULL, 16);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' &&
            s[i + 1] == 'u') {
            uint32_t lo = (uint32_t)strtoul(
                (char[5]){s[i + 2], s[i + 3], s[i + 4], s[i + 5], 0}, NULL, 16);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
        }
        if (cp < 0x80)
            u[0] = (char)cp, ul = 1;
        else if (cp < 0x800)
            u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)),
            ul = 2;
        else if (cp < 0x10000)
            u[0] = (char)(0xE0 | (cp >> 12)),
            u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
            u[2] = (char)(0x80 | (cp & 0x3F)), ul = 3;
        else
            u[0] = (char)(0xF0 | (cp >> 18)),
            u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
            u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)),
            u[3] = (char)(0x80 | (cp & 0x3F)), ul = 4;
        if (cli_buf_append(out, u, ul))
            return -1;
    }
    return 0;
}

int cli_member_text(const char *text, size_t len, const char *name,
                    cli_buf *wrap, cli_buf *out, wj_error *err)
{
    wj_name path, *el = NULL;
    char *found = NULL;
    size_t found_len = 0, n_el = 0;
    wj_code rc;
    int st = 0;

    wrap->len = 0;
    if (cli_buf_append(wrap, "{\"tools\":[", 10) ||
        cli_buf_append(wrap, text, len) || cli_buf_append(wrap, "]}", 2)) {
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
