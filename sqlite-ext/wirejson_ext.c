/* SPDX-License-Identifier: MIT */
/*
 * wirejson_ext.c - the SQLite extension (docs/contract.md §8): every row of
 * the core's table of functions (wj_functions) that exists in SQLite is
 * registered in one loop, the scalars with one callback that converts the
 * arguments by the row's parameter kinds, runs wj_function_call and sets
 * the result by the row's result kind.  The aggregate's callbacks are in
 * sqlite_aggregate.c.
 *
 *   .load ./build/wirejson        -- sqlite3 shell
 *   SELECT wire_json('{"b":1,"a":2}');                 -- {"a":2,"b":1}
 *   SELECT data_digest('{"a":1.0}') = data_digest('{"a":1}');   -- 1
 *
 * Every function is deterministic and innocuous, so it may be used in
 * indexes, generated columns, CHECK constraints and views under
 * PRAGMA trusted_schema=OFF.
 */
#include "sqlite_ext.h"

#include <string.h>

SQLITE_EXTENSION_INIT1

/* Headers older than 3.45 lack the flag for functions that set a subtype. */
#ifndef SQLITE_RESULT_SUBTYPE
#define SQLITE_RESULT_SUBTYPE 0x001000000
#endif
/* ... and, older still, the flag for functions that read one. */
#ifndef SQLITE_SUBTYPE
#define SQLITE_SUBTYPE 0x000100000
#endif

/* How an error message calls parameter k of fn: "argument 1" for the
 * first, else its name in lower case ("texts", "value"), in buf. */
static const char *param_label(const wj_function *fn, size_t k, char *buf,
                               size_t size)
{
    size_t i;
    if (k == 0)
        return "argument 1";
    for (i = 0; i + 1 < size && fn->params[k].name[i]; i++) {
        char c = fn->params[k].name[i];
        buf[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    buf[i] = '\0';
    return buf;
}

/* The JSON text of a VALUE argument, as json_set takes it: NULL is JSON
 * null (left to wj_function_call), plain TEXT a string to quote (into
 * *owned, released by the caller), JSON-subtype TEXT, BLOB and numbers
 * JSON text.  Returns 0, or -1 when an error is already reported. */
static int value_arg(wirejson_call *call, sqlite3_value *arg, const char *name,
                     wirejson_json *value, char **owned)
{
    int type = sqlite3_value_type(arg);
    wj_error err = WJ_ERROR_INIT;
    const char *text;
    wj_code rc;

    if (type == SQLITE_NULL) {
        value->ptr = NULL;
        value->len = 0;
        return 0;
    }
    if (type != SQLITE_TEXT || sqlite3_value_subtype(arg) == WIREJSON_SUBTYPE)
        return wirejson_arg_json(call, arg, name, value) == 0 ? 0 : -1;
    text = (const char *)sqlite3_value_text(arg);
    if (!text) {
        sqlite3_result_error_nomem(call->ctx);
        return -1;
    }
    rc = wj_quote_text(text, (size_t)sqlite3_value_bytes(arg), &call->alloc,
                       owned, &value->len, &err);
    if (rc != WJ_OK) {
        wirejson_result_error(call, rc, &err);
        return -1;
    }
    value->ptr = *owned;
    return 0;
}

/* A trailing name: its text as SQLite spells it (NULL: skipped).  Returns
 * 0, or -1 when out of memory (reported). */
static int name_arg(wirejson_call *call, sqlite3_value *arg, wj_arg *out)
{
    out->ptr = NULL;
    out->len = 0;
    if (sqlite3_value_type(arg) == SQLITE_NULL)
        return 0;
    out->ptr = (const char *)sqlite3_value_text(arg);
    if (!out->ptr) {
        sqlite3_result_error_nomem(call->ctx);
        return -1;
    }
    out->len = (size_t)sqlite3_value_bytes(arg);
    return 0;
}

/* Sets the result res of a call of fn. */
static void set_result(wirejson_call *call, const wj_function *fn,
                       wj_result *res)
{
    if (res->is_null) {
        wj_result_free(&call->alloc, res);
        sqlite3_result_null(call->ctx);
        return;
    }
    switch (fn->result) {
    case WJ_RESULT_DIGEST:
        wirejson_result_digest(call->ctx, res->digest);
        return;
    case WJ_RESULT_INTEGER:
        sqlite3_result_int64(call->ctx, (sqlite3_int64)res->integer);
        return;
    case WJ_RESULT_JSON:
    case WJ_RESULT_DIGESTS:
    case WJ_RESULT_TEXTS:
        wirejson_result_text(call, res->text, res->len, 1);
        return;
    case WJ_RESULT_BODY: /* a raw body: the client's spelling, no subtype */
    case WJ_RESULT_TEXT:
        wirejson_result_text(call, res->text, res->len, 0);
        return;
    }
}

static int is_null(const void *argv, size_t k)
{
    return sqlite3_value_type(((sqlite3_value *const *)argv)[k]) == SQLITE_NULL;
}

/* Every scalar: the arguments by the kinds of the row (the user data). */
static void wirejsonFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const wj_function *fn = sqlite3_user_data(ctx);
    size_t fixed = wj_function_min_args(fn), n = (size_t)argc, k;
    wirejson_call call;
    wirejson_json json[WK_MAX_FIXED];
    wk_args room;
    wj_arg *args;
    char *owned = NULL;
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    wirejson_call_init(&call, ctx);
    switch (wk_call_check(fn, n, is_null, argv, &err)) {
    case WK_CALL_ARITY:
        wirejson_result_error(&call, WJ_ERR_ARGUMENT, &err);
        return;
    case WK_CALL_NULL:
        sqlite3_result_null(ctx);
        return;
    case WK_CALL_RUN:
        break;
    }
    if (!(args = wk_args_room(&room, n))) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    for (k = 0; k < n; k++) {
        char label[32];
        const char *name = k < fixed ? param_label(fn, k, label, sizeof label)
                                     : NULL;
        int got;
        if (k >= fixed)
            got = name_arg(&call, argv[k], &args[k]);
        else if (fn->params[k].kind == WJ_ARG_VALUE)
            got = value_arg(&call, argv[k], name, &json[k], &owned);
        else
            got = wirejson_arg_json(&call, argv[k], name, &json[k]);
        if (got != 0)
            goto done; /* reported (NULL was dealt with above) */
        if (k < fixed) {
            args[k].ptr = json[k].ptr;
            args[k].len = json[k].len;
        }
    }
    rc = wj_function_call(fn, args, n, &call.alloc, &res, &err);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        set_result(&call, fn, &res);
done:
    sqlite3_free(owned);
    wk_args_free(&room);
}

#define PURE (SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS)

/* SQLite's flags for fn: pure; reads subtypes when it takes a VALUE (as
 * json_set does), sets one when its result is JSON. */
static int sqlite_flags(const wj_function *fn)
{
    int flags = PURE;
    size_t k;
    for (k = 0; k < fn->n_params; k++)
        if (fn->params[k].kind == WJ_ARG_VALUE)
            flags |= SQLITE_SUBTYPE;
    if (fn->result == WJ_RESULT_JSON || fn->result == WJ_RESULT_DIGESTS ||
        fn->result == WJ_RESULT_TEXTS)
        flags |= SQLITE_RESULT_SUBTYPE;
    return flags;
}

/* Registers one row, once for each number of arguments it takes (any
 * number: once); an aggregate gets sqlite_aggregate.c's callbacks, the only
 * aggregate there is. */
static int register_function(sqlite3 *db, const wj_function *fn)
{
    size_t max = wj_function_max_args(fn), least = wj_function_min_args(fn);
    int n_arg = max == (size_t)-1 ? -1 : (int)max;
    void *row = (void *)(size_t)fn;

    if (!(fn->flags & WJ_FN_AGGREGATE)) {
        /* an optional word: the shorter call too */
        int rc = n_arg >= 0 && least < max
                     ? sqlite3_create_function_v2(db, fn->name, (int)least,
                                                  sqlite_flags(fn), row,
                                                  wirejsonFunc, NULL, NULL,
                                                  NULL)
                     : SQLITE_OK;
        if (rc != SQLITE_OK)
            return rc;
        return sqlite3_create_function_v2(db, fn->name, n_arg, sqlite_flags(fn),
                                          row, wirejsonFunc, NULL, NULL, NULL);
    }
    if (strcmp(fn->name, "messages_digest_agg") != 0)
        return SQLITE_MISUSE;
    return sqlite3_create_window_function(
        db, fn->name, n_arg, sqlite_flags(fn), row, messagesDigestAggStep,
        messagesDigestAggFinal, messagesDigestAggValue,
        messagesDigestAggInverse, NULL);
}

#ifdef _WIN32
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
    int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi)
{
    size_t n, k;
    const wj_function *table = wj_functions(&n);
    SQLITE_EXTENSION_INIT2(pApi);
    for (k = 0; k < n; k++) {
        const wj_function *fn = &table[k];
        int rc;
        if (!(wk_function_hosts(fn) & WK_HOST_SQLITE))
            continue;
        rc = register_function(db, fn);
        if (rc != SQLITE_OK) {
            if (pzErrMsg)
                *pzErrMsg = sqlite3_mprintf("wirejson: cannot register %s: %s",
                                            fn->name, sqlite3_errmsg(db));
            return rc;
        }
    }
    return SQLITE_OK;
}
