/* SPDX-License-Identifier: MIT */
/*
 * sqlite_args.c - SQL values in, results and errors out: the conversions every
 * wirejson SQL function shares (docs/contract.md §8).
 */
#include "sqlite_ext.h"

#include <limits.h>

/* sqlite3_malloc64 and sqlite3_realloc64 refuse this many bytes or more
 * whatever memory is free (sqlite3Malloc's own bound). */
#define SQLITE_ALLOC_MAX 0x7fffff00u

/* Notes, for the call that ctx points to (NULL: none), whether a refused
 * request was one SQLite refuses by its size alone. */
static void *noted(void *ctx, void *p, size_t size)
{
    if (ctx)
        ((wirejson_call *)ctx)->refused_by_size =
            !p && size >= SQLITE_ALLOC_MAX;
    return p;
}

static void *sqlite_malloc(void *ctx, size_t size)
{
    return noted(ctx, sqlite3_malloc64(size), size);
}

static void *sqlite_realloc(void *ctx, void *ptr, size_t size)
{
    return noted(ctx, sqlite3_realloc64(ptr, size), size);
}

static void sqlite_free(void *ctx, void *ptr)
{
    (void)ctx;
    sqlite3_free(ptr);
}

const wj_alloc wirejson_sqlite_alloc = {sqlite_malloc, sqlite_realloc,
                                        sqlite_free, NULL, NULL};

void wirejson_call_init(wirejson_call *call, sqlite3_context *ctx)
{
    call->ctx = ctx;
    call->alloc = wirejson_sqlite_alloc;
    call->alloc.ctx = call;
    call->refused_by_size = 0;
}

const char *wirejson_func_name(sqlite3_context *ctx)
{
    return ((const wj_function *)sqlite3_user_data(ctx))->name;
}

int wirejson_arg_json(wirejson_call *call, sqlite3_value *arg, const char *name,
                      wirejson_json *out)
{
    int type = sqlite3_value_type(arg);
    const void *p;

    if (type == SQLITE_NULL)
        return 1;
    if (type == SQLITE_FLOAT) {
        /* never SQLite's 15-digit text, which merges different doubles */
        wj_error err;
        char msg[128];
        if (wj_number_from_double(sqlite3_value_double(arg), out->number,
                                  &out->len, &err) == WJ_OK) {
            out->ptr = out->number;
            return 0;
        }
        sqlite3_snprintf(sizeof msg, msg, "%s: %s is %s",
                         wirejson_func_name(call->ctx), name, err.msg);
        sqlite3_result_error(call->ctx, msg, -1);
        return -1;
    }
    /* TEXT, an INTEGER in decimal, BLOB bytes as they are; all the bytes,
     * NULs too. */
    p = type == SQLITE_BLOB ? sqlite3_value_blob(arg)
                            : (const void *)sqlite3_value_text(arg);
    out->len = (size_t)sqlite3_value_bytes(arg);
    if (!p && out->len == 0)
        p = "";
    if (!p) {
        sqlite3_result_error_nomem(call->ctx);
        return -1;
    }
    out->ptr = p;
    return 0;
}

void wirejson_result_error(wirejson_call *call, wj_code rc, const wj_error *err)
{
    wj_error e;
    char *msg;
    size_t len;

    if (rc == WJ_ERR_NOMEM && call->refused_by_size)
        rc = WJ_ERR_TOOBIG;
    if (rc == WJ_ERR_NOMEM) {
        sqlite3_result_error_nomem(call->ctx);
        return;
    }
    if (rc == WJ_ERR_TOOBIG) {
        sqlite3_result_error_toobig(call->ctx);
        return;
    }
    e = *err;
    e.code = rc;
    msg = wj_error_message(&e, wirejson_func_name(call->ctx),
                           &wirejson_sqlite_alloc, &len);
    if (!msg || len > INT_MAX) {
        sqlite3_free(msg);
        sqlite3_result_error_nomem(call->ctx);
        return;
    }
    sqlite3_result_error(call->ctx, msg, (int)len);
    sqlite3_free(msg);
}

void wirejson_result_digest(sqlite3_context *ctx,
                            const char hex[WJ_DIGEST_HEX_SIZE])
{
    sqlite3_result_text(ctx, hex, WJ_DIGEST_HEX_SIZE - 1, SQLITE_TRANSIENT);
}

void wirejson_result_text(wirejson_call *call, char *out, size_t len,
                          int is_json)
{
    if (!out) {
        sqlite3_result_null(call->ctx);
        return;
    }
    /* Both check SQLITE_LIMIT_LENGTH and report SQLITE_TOOBIG.  JSON text
     * holds no NUL byte, so SQLite may measure it and so knows it is
     * NUL-terminated: readers such as length() then need no copy. */
    if (is_json && len <= INT_MAX)
        sqlite3_result_text(call->ctx, out, -1, sqlite3_free);
    else
        sqlite3_result_text64(call->ctx, out, len, sqlite3_free, SQLITE_UTF8);
    if (is_json)
        sqlite3_result_subtype(call->ctx, WIREJSON_SUBTYPE);
}
