/* SPDX-License-Identifier: MIT */
/*
 * elements.c - a value's parts as bytes: an error message in a buffer that
 * fits it, an array's elements as spans of its text, a string's decoded
 * bytes.
 */
#include "wj_internal.h"

char *wj_error_message(const wj_error *err, const char *func,
                       const wj_alloc *alloc, size_t *len)
{
    size_t need = wj_error_format(err, func, NULL, 0);
    char *msg = wj_malloc(alloc, need + 1);
    if (!msg)
        return NULL;
    wj_error_format(err, func, msg, need + 1);
    if (len)
        *len = need;
    return msg;
}

wj_code wj_array_elements(const char *json, size_t len, const wj_alloc *alloc,
                          wj_name **elements, size_t *n, wj_error *err)
{
    wj_doc doc;
    wj_name *spans = NULL;
    uint32_t node, k, count;
    wj_code rc = wj_doc_parse(&doc, json, len, 0, alloc, err);

    *elements = NULL;
    *n = 0;
    if (rc != WJ_OK)
        return rc;
    if (wj_node_type(&doc, 0) != WJ_ARRAY) {
        rc = wj_fail(err, WJ_ERR_TYPE, 0, "not a JSON array");
        goto done;
    }
    count = wj_node_count(&doc, 0);
    if (count > 0) {
        spans = wj_malloc(alloc, (size_t)count * sizeof *spans);
        if (!spans) {
            rc = wj_fail_nomem(err);
            goto done;
        }
    }
    node = wj_node_first(0);
    for (k = 0; k < count; k++) {
        uint32_t start = wj_node_start(&doc, node);
        spans[k].ptr = json + start;
        spans[k].len = wj_node_end(&doc, node) - start;
        node = wj_node_next(&doc, node);
    }
    *elements = spans;
    *n = count;
done:
    wj_doc_release(&doc);
    return rc;
}

wj_code wj_string_value(const char *json, size_t len, const wj_alloc *alloc,
                        char **out, size_t *out_len, wj_error *err)
{
    wj_doc doc;
    uint32_t start, end;
    wj_code rc = wj_doc_parse(&doc, json, len, 0, alloc, err);

    *out = NULL;
    *out_len = 0;
    if (rc != WJ_OK)
        return rc;
    if (wj_node_type(&doc, 0) != WJ_STRING) {
        rc = wj_fail(err, WJ_ERR_TYPE, 0, "not a JSON string");
        goto done;
    }
    start = wj_node_start(&doc, 0);
    end = wj_node_end(&doc, 0); /* past the closing quote */
    /* a decoded string is never longer than its literal; +1: never 0 */
    *out = wj_malloc(alloc, end - start - 1);
    if (!*out) {
        rc = wj_fail_nomem(err);
        goto done;
    }
    *out_len = wj_string_decode(json + start + 1, end - start - 2, *out);
done:
    wj_doc_release(&doc);
    return rc;
}
