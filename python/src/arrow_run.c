/* SPDX-License-Identifier: MIT */
/*
 * arrow_run.c - a function of the table over the rows of Arrow columns,
 * into Arrow buffers, the rows split over threads in contiguous ranges
 * whose parts are joined in row order (so any number of threads gives the
 * same bytes).  Runs without the GIL and touches no Python object.
 *
 * The rows of a range are called one by one (run_range, wj_function_call):
 * that loop is the one place to change for the core's batch entry point.
 */
#include "wjpy_arrow.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int wjpy_arrow_kind_of(const wj_function *fn)
{
    if (fn->flags & WJ_FN_AGGREGATE)
        return -1;
    switch (fn->result) {
    case WJ_RESULT_JSON:
    case WJ_RESULT_BODY:
    case WJ_RESULT_TEXT:
    case WJ_RESULT_DIGEST:
        return WJPY_ARROW_UTF8;
    case WJ_RESULT_INTEGER:
        return WJPY_ARROW_INT64;
    case WJ_RESULT_DIGESTS:
        return WJPY_ARROW_LIST;
    case WJ_RESULT_TEXTS: /* list<utf8>, strings decoded, nulls kept */
        return WJPY_ARROW_LIST;
    }
    return -1;
}

/* The results of rows [begin, end), and its first failure. */
typedef struct part {
    const wj_function *fn;
    const wjpy_arrow_arg *args;
    size_t n_args, begin, end;
    int null_on_error;
    wjpy_arrow_kind kind;
    uint8_t *valid;  /* a byte a row */
    int64_t *sizes;  /* UTF8: string length a row; LIST: elements a row;
                        INT64: the value */
    wk_buf data;     /* the string bytes */
    wk_buf child;    /* LIST: int32 length of each element */
    int nomem;
    wjpy_arrow_failure fail;
} part;

/* One element of a list result: a digest's hex, a text decoded, null. */
static int add_child(part *p, const wj_name *el)
{
    int32_t len = -1;
    char *decoded = NULL;
    size_t n = 0;
    wj_error err = WJ_ERROR_INIT;
    int st = 0;

    if (el->ptr[0] != '"') /* null */
        return wk_buf_append(&p->child, &len, sizeof len);
    if (!memchr(el->ptr, '\\', el->len)) { /* no escape: its bytes as they are */
        len = (int32_t)(el->len - 2);
        st = wk_buf_append(&p->data, el->ptr + 1, el->len - 2);
    } else {
        if (wj_string_value(el->ptr, el->len, NULL, &decoded, &n, &err) != WJ_OK)
            return -1;
        len = (int32_t)n;
        st = wk_buf_append(&p->data, decoded, n);
        wj_free(NULL, decoded);
    }
    return st < 0 ? -1 : wk_buf_append(&p->child, &len, sizeof len);
}

static int add_result(part *p, size_t i, const wj_result *res)
{
    const char *text = res->text;
    wj_name *els = NULL;
    size_t n = 0, k;
    wj_error err = WJ_ERROR_INIT;

    switch (p->kind) {
    case WJPY_ARROW_INT64:
        p->sizes[i] = res->integer;
        return 0;
    case WJPY_ARROW_UTF8:
        p->sizes[i] = (int64_t)res->len;
        return wk_buf_append(&p->data, text, res->len);
    case WJPY_ARROW_LIST:
        if (p->fn->result == WJ_RESULT_DIGESTS) { /* read by position */
            const char *hex = wk_digests(text, res->len, &n);
            int32_t len = 64;
            for (k = 0; k < n; k++)
                if (wk_buf_append(&p->data, hex + k * WK_DIGEST_STRIDE, 64) <
                        0 ||
                    wk_buf_append(&p->child, &len, sizeof len) < 0)
                    return -1;
            p->sizes[i] = (int64_t)n;
            return 0;
        }
        /* a JSON array of strings and nulls: each element's bytes, a
         * length a child (-1: a NULL child) */
        if (wj_array_elements(text, res->len, NULL, &els, &n, &err) != WJ_OK)
            return -1;
        for (k = 0; k < n; k++)
            if (add_child(p, &els[k]) < 0)
                break;
        wj_free(NULL, els);
        p->sizes[i] = (int64_t)n;
        return k == n ? 0 : -1;
    }
    return -1;
}

/* Rows a call of the core's batch entry point takes (a few hundred KB of
 * small bodies; the digests of a batch are hashed side by side). */
#define BATCH_ROWS 1024

/* The rows of the part, BATCH_ROWS at a time through the core's batch
 * entry point: results into one buffer, then into the part's. */
static void run_range(part *p)
{
    size_t n_args = p->n_args, batch = BATCH_ROWS, r, k, i;
    wj_arg *args = malloc((n_args ? n_args : 1) * batch * sizeof *args);
    wj_batch_row *rows = malloc(batch * sizeof *rows);
    wj_batch_out out = {NULL, 0, 0};

    if (!args || !rows)
        p->nomem = 1;
    for (r = p->begin; r < p->end && !p->nomem; r += batch) {
        size_t n = p->end - r < batch ? p->end - r : batch;
        wj_error err = WJ_ERROR_INIT;
        wj_code rc;
        for (i = 0; i < n; i++)
            for (k = 0; k < n_args; k++)
                args[i * n_args + k] = p->args[k].src[(r + i) * p->args[k].step];
        out.len = 0;
        rc = wj_function_call_batch(p->fn, args, n_args, n, NULL, &out, rows,
                                    &err);
        if (rc != WJ_OK) {
            p->nomem = 1; /* the only failure of a whole batch here */
            break;
        }
        for (i = 0; i < n; i++) {
            size_t at = r + i - p->begin;
            const wj_batch_row *row = &rows[i];
            wj_result res = {0, out.ptr + row->offset, row->len, row->integer,
                             {0}};
            if (row->code == WJ_ERR_NOMEM) {
                p->nomem = 1;
                break;
            }
            if (row->code != WJ_OK) {
                if (!p->null_on_error) {
                    p->fail.row = r + i;
                    p->fail.rc = row->code;
                    p->fail.err = row->error;
                    goto done;
                }
                p->valid[at] = 0;
                continue;
            }
            p->valid[at] = !row->is_null;
            if (!row->is_null && add_result(p, at, &res) < 0) {
                p->nomem = 1;
                break;
            }
        }
    }
done:
    wj_batch_out_free(NULL, &out);
    free(rows);
    free(args);
}

static void *run_thread(void *arg)
{
    run_range(arg);
    return NULL;
}

/* Child k of a list result is NULL: its validity bitmap is made (every
 * child valid) at the first NULL.  0 when out of memory. */
static int mark_child_null(wjpy_arrow_out *out, size_t k)
{
    if (!out->child_validity) {
        size_t size = (size_t)(out->n_child + 7) / 8 + 1;
        if (!(out->child_validity = malloc(size)))
            return 0;
        memset(out->child_validity, 0xFF, size);
    }
    out->child_validity[k >> 3] &= (uint8_t)~(1u << (k & 7));
    out->child_null_count++;
    return 1;
}

/* Joins the parts (in row order) into one result. */
static wjpy_arrow_out *join(part *parts, int n_parts, size_t n,
                            wjpy_arrow_kind kind)
{
    wjpy_arrow_out *out = calloc(1, sizeof *out);
    size_t total = 0, children = 0, row = 0, at = 0, child_at = 0;
    int t;

    if (!out)
        return NULL;
    atomic_init(&out->refs, 1);
    out->kind = kind;
    out->n = (int64_t)n;
    for (t = 0; t < n_parts; t++) {
        total += parts[t].data.len;
        children += parts[t].child.len / sizeof(int32_t);
    }
    out->len = total;
    out->wide = kind == WJPY_ARROW_UTF8 && total > INT32_MAX;
    out->validity = calloc((n + 7) / 8 + 1, 1);
    out->data = malloc(total + 1);
    if (kind == WJPY_ARROW_INT64)
        out->ints = malloc((n + 1) * sizeof(int64_t));
    else
        out->offsets = malloc((n + 1) * (out->wide ? 8 : 4));
    if (kind == WJPY_ARROW_LIST) {
        out->n_child = (int64_t)children;
        out->child_offsets = malloc((children + 1) * sizeof(int32_t));
    }
    if (!out->validity || !out->data ||
        (kind == WJPY_ARROW_INT64 ? !out->ints : !out->offsets) ||
        (kind == WJPY_ARROW_LIST && !out->child_offsets) ||
        (kind == WJPY_ARROW_LIST && total > INT32_MAX) ||
        children > INT32_MAX) {
        wjpy_arrow_out_unref(out);
        return NULL;
    }
    if (kind == WJPY_ARROW_LIST)
        out->child_offsets[0] = 0;
    if (out->offsets) {
        if (out->wide)
            ((int64_t *)out->offsets)[0] = 0;
        else
            ((int32_t *)out->offsets)[0] = 0;
    }
    for (t = 0; t < n_parts; t++) {
        const part *p = &parts[t];
        const int32_t *lens = (const int32_t *)p->child.ptr;
        size_t i, k, n_lens = p->child.len / sizeof(int32_t);
        if (p->data.len)
            memcpy(out->data + at, p->data.ptr, p->data.len);
        for (k = 0; k < n_lens; k++) {
            int32_t len = lens[k] < 0 ? 0 : lens[k];
            out->child_offsets[child_at + k + 1] =
                out->child_offsets[child_at + k] + len;
            if (lens[k] < 0 && !mark_child_null(out, child_at + k))
                goto nomem;
        }
        for (i = 0; i < p->end - p->begin; i++, row++) {
            int64_t size = p->valid[i] ? p->sizes[i] : 0;
            if (p->valid[i])
                out->validity[row >> 3] |= (uint8_t)(1u << (row & 7));
            else
                out->null_count++;
            if (kind == WJPY_ARROW_INT64) {
                out->ints[row] = size;
                continue;
            }
            if (out->wide)
                ((int64_t *)out->offsets)[row + 1] =
                    ((int64_t *)out->offsets)[row] + size;
            else
                ((int32_t *)out->offsets)[row + 1] =
                    ((int32_t *)out->offsets)[row] + (int32_t)size;
        }
        at += p->data.len;
        child_at += n_lens;
    }
    if (out->null_count == 0) {
        free(out->validity);
        out->validity = NULL;
    }
    return out;
nomem:
    wjpy_arrow_out_unref(out);
    return NULL;
}

void wjpy_arrow_out_unref(wjpy_arrow_out *out)
{
    if (!out || atomic_fetch_sub(&out->refs, 1) != 1)
        return;
    free(out->validity);
    free(out->ints);
    free(out->offsets);
    free(out->child_offsets);
    free(out->child_validity);
    free(out->data);
    free(out);
}

wjpy_arrow_out *wjpy_arrow_run(const wj_function *fn,
                               const wjpy_arrow_arg *args, size_t n_args,
                               size_t n, int null_on_error, int n_threads,
                               wjpy_arrow_failure *fail)
{
    part *parts;
    pthread_t *ids;
    wjpy_arrow_out *out = NULL;
    int t, started = 0, nomem = 0;

    fail->row = SIZE_MAX;
    if (n_threads < 1)
        n_threads = 1;
    if ((size_t)n_threads > n)
        n_threads = n ? (int)n : 1;
    parts = calloc((size_t)n_threads, sizeof *parts);
    ids = calloc((size_t)n_threads, sizeof *ids);
    if (!parts || !ids)
        goto done;
    for (t = 0; t < n_threads; t++) {
        part *p = &parts[t];
        p->fn = fn;
        p->args = args;
        p->n_args = n_args;
        p->begin = n * (size_t)t / (size_t)n_threads;
        p->end = n * (size_t)(t + 1) / (size_t)n_threads;
        p->null_on_error = null_on_error;
        p->kind = (wjpy_arrow_kind)wjpy_arrow_kind_of(fn);
        p->fail.row = SIZE_MAX;
        p->valid = malloc(p->end - p->begin + 1);
        p->sizes = malloc((p->end - p->begin + 1) * sizeof *p->sizes);
        if (!p->valid || !p->sizes)
            nomem = 1;
    }
    if (nomem)
        goto done;
    /* threads 1.. on their ranges, this thread on the first */
    for (t = 1; t < n_threads; t++, started++)
        if (pthread_create(&ids[t], NULL, run_thread, &parts[t]) != 0)
            break;
    for (t = started + 1; t < n_threads; t++)
        run_range(&parts[t]);
    run_range(&parts[0]);
    for (t = 1; t <= started; t++)
        pthread_join(ids[t], NULL);
    for (t = 0; t < n_threads; t++) {
        if (parts[t].fail.row != SIZE_MAX) {
            *fail = parts[t].fail; /* the first range's first failure */
            goto done;
        }
        nomem |= parts[t].nomem;
    }
    if (!nomem)
        out = join(parts, n_threads, n, parts[0].kind);
done:
    for (t = 0; parts && t < n_threads; t++) {
        free(parts[t].valid);
        free(parts[t].sizes);
        wk_buf_free(&parts[t].data);
        wk_buf_free(&parts[t].child);
    }
    free(parts);
    free(ids);
    return out;
}
