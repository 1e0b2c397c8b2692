/*
 * args.c - SQL values in, results and errors out: the conversions every
 * wirejson SQL function shares (SPEC §8).
 */
#include "ext.h"

#include <limits.h>

static void *sqlite_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return sqlite3_malloc64(size);
}

static void *sqlite_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    return sqlite3_realloc64(ptr, size);
}

static void sqlite_free(void *ctx, void *ptr)
{
    (void)ctx;
    sqlite3_free(ptr);
}

const wj_alloc wirejson_sqlite_alloc = {sqlite_malloc, sqlite_realloc,
                                        sqlite_free, NULL};

const char *wirejson_func_name(sqlite3_context *ctx)
{
    return (const char *)sqlite3_user_data(ctx);
}

int wirejson_arg_json(sqlite3_context *ctx, sqlite3_value *arg,
                      const char **json, size_t *len)
{
    int type = sqlite3_value_type(arg);
    const void *p;

    if (type == SQLITE_NULL)
        return 1;
    /* TEXT, and INTEGER/REAL spelled as SQLite's text conversion spells
     * them; BLOB bytes as they are.  Either way all the bytes, NULs too. */
    p = type == SQLITE_BLOB ? sqlite3_value_blob(arg)
                            : (const void *)sqlite3_value_text(arg);
    *len = (size_t)sqlite3_value_bytes(arg);
    if (!p && *len == 0)
        p = "";
    if (!p) {
        sqlite3_result_error_nomem(ctx);
        return -1;
    }
    *json = p;
    return 0;
}

int wirejson_arg_names(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                       wj_name **names, size_t *n_names)
{
    wj_name *v;
    size_t n = 0;
    int k;

    *names = NULL;
    *n_names = 0;
    if (argc <= 0)
        return 0;
    v = sqlite3_malloc64((sqlite3_uint64)argc * sizeof *v);
    if (!v) {
        sqlite3_result_error_nomem(ctx);
        return -1;
    }
    for (k = 0; k < argc; k++) {
        const unsigned char *text;
        if (sqlite3_value_type(argv[k]) == SQLITE_NULL)
            continue; /* a NULL name is skipped */
        text = sqlite3_value_text(argv[k]);
        if (!text) {
            sqlite3_free(v);
            sqlite3_result_error_nomem(ctx);
            return -1;
        }
        v[n].ptr = (const char *)text;
        v[n].len = (size_t)sqlite3_value_bytes(argv[k]);
        n++;
    }
    *names = v;
    *n_names = n;
    return 0;
}

void wirejson_result_error(sqlite3_context *ctx, wj_code rc,
                           const wj_error *err)
{
    char msg[256];
    wj_error e;

    if (rc == WJ_ERR_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (rc == WJ_ERR_TOOBIG) {
        sqlite3_result_error_toobig(ctx);
        return;
    }
    e = *err;
    e.code = rc;
    wj_error_format(&e, wirejson_func_name(ctx), msg, sizeof msg);
    sqlite3_result_error(ctx, msg, -1);
}

void wirejson_result_text(sqlite3_context *ctx, char *out, size_t len,
                          int is_json)
{
    if (!out) {
        sqlite3_result_null(ctx);
        return;
    }
    /* Both check SQLITE_LIMIT_LENGTH and report SQLITE_TOOBIG.  JSON text
     * holds no NUL byte, so SQLite may measure it and so knows it is
     * NUL-terminated: readers such as length() then need no copy. */
    if (is_json && len <= INT_MAX)
        sqlite3_result_text(ctx, out, -1, sqlite3_free);
    else
        sqlite3_result_text64(ctx, out, len, sqlite3_free, SQLITE_UTF8);
    if (is_json)
        sqlite3_result_subtype(ctx, WIREJSON_SUBTYPE);
}
