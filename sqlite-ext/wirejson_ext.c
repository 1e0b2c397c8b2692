/* SPDX-License-Identifier: MIT */
/*
 * wirejson_ext.c - the SQLite extension: the scalar renderings and digests,
 * and the table that registers every wirejson SQL function (docs/contract.md
 * §8).
 *
 *   .load ./build/wirejson        -- sqlite3 shell
 *   SELECT wire_json('{"b":1,"a":2}');                 -- {"a":2,"b":1}
 *   SELECT data_digest('{"a":1.0}') = data_digest('{"a":1}');   -- 1
 *
 * Every function is deterministic and innocuous, so it may be used in
 * indexes, generated columns, CHECK constraints and views under
 * PRAGMA trusted_schema=OFF.
 */
#include "ext.h"

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

/* Renders argv[0] as kind says, naming the rest of the arguments as data
 * members / ignored names where the function takes them. */
static void render_result(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          wj_rendering kind, int is_json)
{
    wirejson_call call;
    wirejson_json json;
    size_t n_names, out_len = 0;
    wj_name *names;
    wj_error err = WJ_ERROR_INIT;
    char *out = NULL;
    wj_code rc;

    wirejson_call_init(&call, ctx);
    if (wirejson_arg_json(&call, argv[0], "argument 1", &json) != 0)
        return;
    if (wirejson_arg_names(&call, argc - 1, argv + 1, &names, &n_names) != 0)
        return;
    rc = wj_rendering_text(kind, json.ptr, json.len, names, n_names,
                           &call.alloc, &out, &out_len, &err);
    sqlite3_free(names);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        wirejson_result_text(&call, out, out_len, is_json);
}

/* Digests render into a hex string instead of a buffer. */
static void digest_result(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          wj_digest_kind kind)
{
    wirejson_call call;
    wirejson_json json;
    size_t n_names;
    wj_name *names;
    wj_error err = WJ_ERROR_INIT;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc;

    wirejson_call_init(&call, ctx);
    if (wirejson_arg_json(&call, argv[0], "argument 1", &json) != 0)
        return;
    if (wirejson_arg_names(&call, argc - 1, argv + 1, &names, &n_names) != 0)
        return;
    rc = wj_digest_hex(kind, json.ptr, json.len, names, n_names, &call.alloc,
                       hex, &err);
    sqlite3_free(names);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        wirejson_result_digest(ctx, hex);
}

static int has_json_arg(sqlite3_context *ctx, int argc)
{
    wirejson_call call;
    wirejson_call_init(&call, ctx);
    return wirejson_has_json_arg(&call, argc);
}

static void wireJsonFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (has_json_arg(ctx, argc))
        render_result(ctx, argc, argv, WJ_RENDERING_WIRE, 1);
}

static void wireJsonSortedFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv)
{
    render_result(ctx, argc, argv, WJ_RENDERING_WIRE_SORTED, 1);
}

static void canonicalJsonFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    render_result(ctx, argc, argv, WJ_RENDERING_CANONICAL, 1);
}

static void canonicalArgumentsFunc(sqlite3_context *ctx, int argc,
                                   sqlite3_value **argv)
{
    render_result(ctx, argc, argv, WJ_RENDERING_CANONICAL_ARGUMENTS, 0);
}

static void dataDigestFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    digest_result(ctx, argc, argv, WJ_DIGEST_DATA);
}

static void messageDigestFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    if (has_json_arg(ctx, argc))
        digest_result(ctx, argc, argv, WJ_DIGEST_MESSAGE);
}

static void messagesDigestFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv)
{
    digest_result(ctx, argc, argv, WJ_DIGEST_MESSAGES);
}

/* Validates argument 1 for wirejson_error and wirejson_error_position: 1
 * and *err filled when it is not valid input (§3), 0 when it is, -1 when
 * the result is already set (NULL in, or an error). */
static int validate_arg(wirejson_call *call, sqlite3_value *arg, wj_error *err)
{
    wirejson_json json;
    wj_code rc;
    int got = wirejson_arg_json(call, arg, "argument 1", &json);

    if (got != 0)
        return -1;
    rc = wj_validate(json.ptr, json.len, &call->alloc, err);
    if (rc == WJ_OK)
        return 0;
    if (!wj_error_is_input(rc)) {
        wirejson_result_error(call, rc, err);
        return -1;
    }
    return 1;
}

/* NULL for valid input (§3), else the error message without a function
 * name: "malformed JSON at byte 3: expected a value". */
static void wirejsonErrorFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    wirejson_call call;
    wj_error err = WJ_ERROR_INIT;
    char msg[256];

    (void)argc;
    wirejson_call_init(&call, ctx);
    if (validate_arg(&call, argv[0], &err) != 1)
        return;
    wj_error_format(&err, NULL, msg, sizeof msg);
    sqlite3_result_text(ctx, msg, -1, SQLITE_TRANSIENT);
}

/* NULL for valid input, else the 0-based byte offset of the error
 * (docs/contract.md §8; SQLite's json_error_position counts from 1 and gives 0
 * when valid). */
static void wirejsonErrorPositionFunc(sqlite3_context *ctx, int argc,
                                      sqlite3_value **argv)
{
    wirejson_call call;
    wj_error err = WJ_ERROR_INIT;

    (void)argc;
    wirejson_call_init(&call, ctx);
    if (validate_arg(&call, argv[0], &err) == 1)
        sqlite3_result_int64(ctx, (sqlite3_int64)err.offset);
}

static void wirejsonVersionFunc(sqlite3_context *ctx, int argc,
                                sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, wj_version(), -1, SQLITE_STATIC);
}

#define PURE (SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS)
#define JSON_OUT (PURE | SQLITE_RESULT_SUBTYPE)

static const struct wirejson_function {
    const char *name;
    int n_arg; /* -1: any number */
    int flags;
    void (*func)(sqlite3_context *, int, sqlite3_value **);
    void (*step)(sqlite3_context *, int, sqlite3_value **);
    void (*final)(sqlite3_context *);
    void (*value)(sqlite3_context *);
    void (*inverse)(sqlite3_context *, int, sqlite3_value **);
} wirejson_functions[] = {
    {"wire_json", -1, JSON_OUT, wireJsonFunc, 0, 0, 0, 0},
    {"wire_json_sorted", 1, JSON_OUT, wireJsonSortedFunc, 0, 0, 0, 0},
    {"canonical_json", 1, JSON_OUT, canonicalJsonFunc, 0, 0, 0, 0},
    {"data_digest", 1, PURE, dataDigestFunc, 0, 0, 0, 0},
    {"message_digest", -1, PURE, messageDigestFunc, 0, 0, 0, 0},
    {"messages_digest", 1, PURE, messagesDigestFunc, 0, 0, 0, 0},
    {"messages_digest_agg", 1, PURE, 0, messagesDigestAggStep,
     messagesDigestAggFinal, messagesDigestAggValue, messagesDigestAggInverse},
    {"canonical_arguments", 1, PURE, canonicalArgumentsFunc, 0, 0, 0, 0},
    {"with_top_level", 3, PURE | SQLITE_SUBTYPE, withTopLevelFunc, 0, 0, 0, 0},
    {"tool_schemas", -1, JSON_OUT, toolSchemasFunc, 0, 0, 0, 0},
    {"encode_with_schemas", 2, JSON_OUT, encodeWithSchemasFunc, 0, 0, 0, 0},
    {"wirejson_error", 1, PURE, wirejsonErrorFunc, 0, 0, 0, 0},
    {"wirejson_error_position", 1, PURE, wirejsonErrorPositionFunc, 0, 0, 0, 0},
    {"wirejson_version", 0, PURE, wirejsonVersionFunc, 0, 0, 0, 0},
};

#ifdef _WIN32
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
    int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                              const sqlite3_api_routines *pApi)
{
    size_t k;
    SQLITE_EXTENSION_INIT2(pApi);
    for (k = 0; k < sizeof wirejson_functions / sizeof *wirejson_functions;
         k++) {
        const struct wirejson_function *f = &wirejson_functions[k];
        void *name = (void *)(size_t)f->name;
        int rc;
        if (f->step)
            rc = sqlite3_create_window_function(db, f->name, f->n_arg, f->flags,
                                                name, f->step, f->final,
                                                f->value, f->inverse, NULL);
        else
            rc = sqlite3_create_function_v2(db, f->name, f->n_arg, f->flags,
                                            name, f->func, NULL, NULL, NULL);
        if (rc != SQLITE_OK) {
            if (pzErrMsg)
                *pzErrMsg = sqlite3_mprintf("wirejson: cannot register %s: %s",
                                            f->name, sqlite3_errmsg(db));
            return rc;
        }
    }
    return SQLITE_OK;
}
