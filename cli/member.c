/* SPDX-License-Identifier: MIT */
/*
 * member.c - a member of a record's object (--member, --time-member), as
 * function mode and cache-audit read it: the member's text by the kit's
 * wk_member_text (the dedup engine's, kit/dedup_key.c).  A string value is
 * then decoded to its bytes, which are the document.
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

char *cli_member_document(const char *text, size_t len, const char *name,
                          const char *quoted, const char *fn, wk_buf *tmp,
                          wk_buf *out, const char **doc, size_t *doc_len)
{
    wj_error err = WJ_ERROR_INIT;
    int found;

    if (wj_validate(text, len, NULL, &err) != WJ_OK)
        return wj_error_message(&err, fn, NULL, NULL);
    found = wk_member_text(text, len, name, tmp, out, &err);
    if (found < 0 && err.code == WJ_ERR_DEPTH)
        return wk_message("%s: the record is nested too deep to take its "
                          "member %s", fn, quoted);
    if (found < 0 && err.code == WJ_ERR_NOMEM)
        return strdup("out of memory");
    if (found < 0)
        return wj_error_message(&err, fn, NULL, NULL);
    if (found == 0)
        return wk_message("%s: the record is not a JSON object with a "
                          "member %s that is not null", fn, quoted);
    if (out->len && out->ptr[0] == '"') {
        /* a string: its bytes are the document */
        if (wk_string_bytes(tmp, out->ptr, out->len))
            return strdup("out of memory");
        *doc = tmp->ptr, *doc_len = tmp->len;
    } else
        *doc = out->ptr, *doc_len = out->len;
    return NULL;
}
