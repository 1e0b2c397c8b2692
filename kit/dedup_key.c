/* SPDX-License-Identifier: MIT */
/*
 * dedup_key.c - the key of one line of the dedup job (docs/cli.md,
 * "dedup"; docs/contract.md §12, §14), the one engine the command line's
 * workers and the Python job's Tally both run.  The body is the line, or
 * with --member NAME that member's text (a string member: the bytes it
 * holds); the key is data_digest of the body, or messages_digest of the
 * body's "messages".
 *
 * A member is found by the core's wj_tool_schemas, which follows a path
 * inside each entry of a top-level "tools" array and answers what it finds
 * as a JSON string: the body is wrapped as {"tools":[BODY]} (valid JSON,
 * checked first) with the member's name as the path.  This file is the one
 * place that wrapping is written; no JSON is scanned here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson_kit.h"

int wk_string_bytes(wk_buf *out, const char *s, size_t n)
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

int wk_member_text(const char *text, size_t len, const char *name,
                   wk_buf *wrap, wk_buf *out, wj_error *err)
{
    wj_name path, *el = NULL;
    char *found = NULL;
    size_t found_len = 0, n_el = 0;
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
    if (wj_tool_schemas(wrap->ptr, wrap->len, &path, 1, NULL, &found,
                        &found_len, err) != WJ_OK)
        return -1;
    /* found: ["the member's bytes"] or [null] */
    if (found &&
        wj_array_elements(found, found_len, NULL, &el, &n_el, err) == WJ_OK &&
        n_el == 1 && el[0].ptr[0] == '"') {
        st = 1;
        if (wk_string_bytes(out, el[0].ptr, el[0].len)) {
            err->code = WJ_ERR_NOMEM;
            err->msg = "out of memory";
            st = -1;
        }
    }
    wj_free(NULL, el);
    wj_free(NULL, found);
    return st;
}

int wk_dedup_key_find(const char *name)
{
    if (strcmp(name, "data_digest") == 0)
        return 0;
    return strcmp(name, "messages_digest") == 0 ? 1 : -1;
}

/* The text of member name of the body text[0..len) into out (where: "line"
 * or "body", for the messages): 0, 1 with *msg, or -1 out of memory. */
static int body_member(const wk_dedup_keyer *k, const char *text, size_t len,
                       const char *name, const char *quoted,
                       const char *where, wk_buf *wrap, wk_buf *out,
                       char **msg)
{
    const char *fn = k->messages ? "messages_digest" : "data_digest";
    wj_error err = WJ_ERROR_INIT;
    wj_code rc = wj_validate(text, len, NULL, &err);
    int found;

    if (rc == WJ_ERR_NOMEM)
        return -1;
    if (rc != WJ_OK && !wj_error_is_input(rc))
        *msg = wj_error_message(&err, "wirejson_error", NULL, NULL);
    else if (rc != WJ_OK) {
        char small[256];
        wj_error_format(&err, NULL, small, sizeof small);
        *msg = wk_message("%s: %s", fn, small);
    } else if ((found = wk_member_text(text, len, name, wrap, out, &err)) >
               0)
        return 0;
    else if (found < 0 && err.code == WJ_ERR_NOMEM)
        return -1;
    else if (found < 0 && err.code == WJ_ERR_DEPTH)
        *msg = wk_message("%s: the %s is nested too deep to take its "
                          "member %s",
                          fn, where, quoted);
    else if (found < 0)
        *msg = wj_error_message(&err, "tool_schemas", NULL, NULL);
    else
        *msg = wk_message("%s: the %s has no member %s (or it is null)", fn,
                          where, quoted);
    return *msg ? 1 : -1;
}

int wk_dedup_key_line(const wk_dedup_keyer *k, const char *line, size_t len,
                      const wj_alloc *mem, wk_dedup_scratch *s,
                      unsigned char key[32], char **msg)
{
    const char *body = line;
    size_t blen = len;
    wj_error err = WJ_ERROR_INIT;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc;
    int st;

    *msg = NULL;
    if (k->member) {
        if ((st = body_member(k, body, blen, k->member, k->member_quoted,
                              "line", &s->wrap, &s->a, msg)))
            return st;
        body = s->a.ptr ? s->a.ptr : "";
        blen = s->a.len;
        if (blen && body[0] == '"') {
            /* a string member: the JSON text it holds */
            if (wk_string_bytes(&s->b, body, blen))
                return -1;
            body = s->b.ptr ? s->b.ptr : "";
            blen = s->b.len;
        }
    }
    if (k->messages) {
        wk_buf *dst = body == s->a.ptr ? &s->b : &s->a;
        if ((st = body_member(k, body, blen, "messages", "\"messages\"",
                              k->member ? "body" : "line", &s->wrap, dst,
                              msg)))
            return st;
        body = dst->ptr ? dst->ptr : "";
        blen = dst->len;
        rc = wj_messages_digest(body, blen, mem, hex, &err);
    } else
        rc = wj_data_digest(body, blen, mem, hex, &err);
    if (rc == WJ_ERR_NOMEM)
        return -1;
    if (rc != WJ_OK) {
        *msg = wj_error_message(&err, k->messages ? "messages_digest"
                                                  : "data_digest",
                                NULL, NULL);
        return *msg ? 1 : -1;
    }
    wj_hex_decode(hex, 32, key);
    return 0;
}

/* The data_digest keys of whole lines through the batch entry point. */
static int key_batch(const wj_arg *lines, size_t n, const wj_alloc *mem,
                     wk_dedup_scratch *s, unsigned char *keys, char **msgs)
{
    const wj_function *data_digest = wj_function_find("data_digest", 11);
    wj_batch_out out = {NULL, 0, 0}; /* from mem: an arena's, maybe */
    wj_error err = WJ_ERROR_INIT;
    wj_batch_row *rows = wk_array_grow(s->rows, &s->rows_cap, n, sizeof *rows);
    size_t i = 0;

    if (!rows)
        return -1;
    s->rows = rows;
    if (wj_function_call_batch(data_digest, lines, 1, n, mem, &out, rows,
                               &err) != WJ_OK)
        goto nomem;
    for (; i < n; i++) {
        msgs[i] = NULL;
        if (rows[i].code == WJ_ERR_NOMEM)
            goto nomem;
        if (rows[i].code == WJ_OK)
            wj_hex_decode(out.ptr + rows[i].offset, 32, keys + 32 * i);
        else if (!(msgs[i] = wj_error_message(&rows[i].error, "data_digest",
                                              NULL, NULL)))
            goto nomem;
    }
    wj_batch_out_free(mem, &out);
    return 0;
nomem:
    while (i-- > 0)
        free(msgs[i]);
    wj_batch_out_free(mem, &out);
    return -1;
}

int wk_dedup_key_lines(const wk_dedup_keyer *k, const wj_arg *lines,
                       size_t n, const wj_alloc *mem, wk_dedup_scratch *s,
                       unsigned char *keys, char **msgs)
{
    size_t i;
    if (!k->member && !k->messages)
        return key_batch(lines, n, mem, s, keys, msgs);
    for (i = 0; i < n; i++)
        if (wk_dedup_key_line(k, lines[i].ptr, lines[i].len, mem, s,
                              keys + 32 * i, &msgs[i]) < 0) {
            while (i-- > 0)
                free(msgs[i]);
            return -1;
        }
    return 0;
}

void wk_dedup_scratch_free(wk_dedup_scratch *s)
{
    wk_buf_free(&s->wrap);
    wk_buf_free(&s->a);
    wk_buf_free(&s->b);
    free(s->rows);
    memset(s, 0, sizeof *s);
}
