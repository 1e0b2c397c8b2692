/*
 * wirejson_ext.c - the SQLite extension: the scalar renderings and digests,
 * and the table that registers every wirejson SQL function (SPEC §8).
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

/* Renders argv[0] with render(), naming the rest of the arguments as data
 * members / ignored names where the function takes them. */
typedef wj_code (*render_fn)(const char *json, size_t len, const wj_name *names,
                             size_t n_names, const wj_alloc *alloc, char **out,
                             size_t *out_len, wj_error *err);

static void render_result(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          render_fn render, int is_json)
{
    const char *json;
    size_t len, n_names, out_len = 0;
    wj_name *names;
    wj_error err = {WJ_OK, 0, NULL};
    char *out = NULL;
    wj_code rc;

    if (wirejson_arg_json(ctx, argv[0], &json, &len) != 0)
        return;
    if (wirejson_arg_names(ctx, argc - 1, argv + 1, &names, &n_names) != 0)
        return;
    rc = render(json, len, names, n_names, &wirejson_sqlite_alloc, &out,
                &out_len, &err);
    sqlite3_free(names);
    if (rc != WJ_OK)
        wirejson_result_error(ctx, rc, &err);
    else
        wirejson_result_text(ctx, out, out_len, is_json);
}

static wj_code render_sorted(const char *json, size_t len, const wj_name *names,
                             size_t n_names, const wj_alloc *alloc, char **out,
                             size_t *out_len, wj_error *err)
{
    (void)names;
    (void)n_names;
    return wj_wire_json_sorted(json, len, alloc, out, out_len, err);
}

static wj_code render_canonical(const char *json, size_t len,
                                const wj_name *names, size_t n_names,
                                const wj_alloc *alloc, char **out,
                                size_t *out_len, wj_error *err)
{
    (void)names;
    (void)n_names;
    return wj_canonical_json(json, len, alloc, out, out_len, err);
}

static wj_code render_arguments(const char *json, size_t len,
                                const wj_name *names, size_t n_names,
                                const wj_alloc *alloc, char **out,
                                size_t *out_len, wj_error *err)
{
    (void)names;
    (void)n_names;
    return wj_canonical_arguments(json, len, alloc, out, out_len, err);
}

/* Digests render into a hex string instead of a buffer. */
typedef wj_code (*digest_fn)(const char *json, size_t len, const wj_name *names,
                             size_t n_names, const wj_alloc *alloc,
                             char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

static void digest_result(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          digest_fn digest)
{
    const char *json;
    size_t len, n_names;
    wj_name *names;
    wj_error err = {WJ_OK, 0, NULL};
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc;

    if (wirejson_arg_json(ctx, argv[0], &json, &len) != 0)
        return;
    if (wirejson_arg_names(ctx, argc - 1, argv + 1, &names, &n_names) != 0)
        return;
    rc = digest(json, len, names, n_names, &wirejson_sqlite_alloc, hex, &err);
    sqlite3_free(names);
    if (rc != WJ_OK)
        wirejson_result_error(ctx, rc, &err);
    else
        sqlite3_result_text(ctx, hex, 64, SQLITE_TRANSIENT);
}

static wj_code digest_data(const char *json, size_t len, const wj_name *names,
                           size_t n_names, const wj_alloc *alloc,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)names;
    (void)n_names;
    return wj_data_digest(json, len, alloc, hex, err);
}

static wj_code digest_messages(const char *json, size_t len,
                               const wj_name *names, size_t n_names,
                               const wj_alloc *alloc,
                               char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)names;
    (void)n_names;
    return wj_messages_digest(json, len, alloc, hex, err);
}

static int has_json_arg(sqlite3_context *ctx, int argc)
{
    if (argc >= 1)
        return 1;
    wj_error err = {WJ_ERR_ARGUMENT, 0, "wrong number of arguments"};
    wirejson_result_error(ctx, err.code, &err);
    return 0;
}

static void wireJsonFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (has_json_arg(ctx, argc))
        render_result(ctx, argc, argv, wj_wire_json, 1);
}

static void wireJsonSortedFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv)
{
    render_result(ctx, argc, argv, render_sorted, 1);
}

static void canonicalJsonFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    render_result(ctx, argc, argv, render_canonical, 1);
}

static void canonicalArgumentsFunc(sqlite3_context *ctx, int argc,
                                   sqlite3_value **argv)
{
    render_result(ctx, argc, argv, render_arguments, 0);
}

static void dataDigestFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    digest_result(ctx, argc, argv, digest_data);
}

static void messageDigestFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    if (has_json_arg(ctx, argc))
        digest_result(ctx, argc, argv, wj_message_digest);
}

static void messagesDigestFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv)
{
    digest_result(ctx, argc, argv, digest_messages);
}

/* NULL for valid input (§3), else the error message without a function
 * name: "malformed JSON at byte 3: expected a value". */
static void wirejsonErrorFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    const char *json;
    size_t len;
    wj_error err = {WJ_OK, 0, NULL};
    wj_code rc;
    char msg[256];

    (void)argc;
    if (wirejson_arg_json(ctx, argv[0], &json, &len) != 0)
        return;
    rc = wj_validate(json, len, &wirejson_sqlite_alloc, &err);
    if (rc == WJ_OK)
        return;
    if (!wj_error_is_input(rc)) {
        wirejson_result_error(ctx, rc, &err);
        return;
    }
    wj_error_format(&err, NULL, msg, sizeof msg);
    sqlite3_result_text(ctx, msg, -1, SQLITE_TRANSIENT);
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
