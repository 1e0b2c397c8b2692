/*
 * raw_body.c - the SQL functions over raw request bodies (SPEC §7, §8):
 * with_top_level, tool_schemas and encode_with_schemas.
 *
 *   SELECT with_top_level(body, 'model', 'local-llama') FROM requests;
 *   SELECT tool_schemas(body, 'function', 'parameters') FROM requests;
 *
 * with_top_level's VALUE follows json_set: SQL NULL is JSON null, a number
 * is a number, JSON-subtype TEXT and BLOB are JSON text spliced as they are
 * (and must be valid JSON), other TEXT is a string, quoted with the wire
 * rendering's escapes by the core.
 */
#include "ext.h"

#include <math.h>

/* The JSON text with_top_level writes for its VALUE argument, in *value
 * (*owned set when the caller must wj_free it).  Returns 0, or -1 when an
 * error is already reported. */
static int top_level_value(sqlite3_context *ctx, sqlite3_value *arg,
                           const char **value, size_t *len, char **owned)
{
    int type = sqlite3_value_type(arg);
    wj_error err = {WJ_OK, 0, NULL};
    wj_code rc;

    *owned = NULL;
    if (type == SQLITE_NULL) {
        *value = "null";
        *len = 4;
        return 0;
    }
    if (type == SQLITE_FLOAT && !isfinite(sqlite3_value_double(arg))) {
        char msg[128];
        sqlite3_snprintf(sizeof msg, msg, "%s: value is not a finite number",
                         wirejson_func_name(ctx));
        sqlite3_result_error(ctx, msg, -1);
        return -1;
    }
    if (type != SQLITE_TEXT || sqlite3_value_subtype(arg) == WIREJSON_SUBTYPE)
        return wirejson_arg_json(ctx, arg, value, len) == 0 ? 0 : -1;
    *value = (const char *)sqlite3_value_text(arg);
    if (!*value) {
        sqlite3_result_error_nomem(ctx);
        return -1;
    }
    rc = wj_quote_text(*value, (size_t)sqlite3_value_bytes(arg),
                       &wirejson_sqlite_alloc, owned, len, &err);
    if (rc != WJ_OK) {
        wirejson_result_error(ctx, rc, &err);
        return -1;
    }
    *value = *owned;
    return 0;
}

void withTopLevelFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *body, *value;
    const unsigned char *name;
    size_t len, value_len, out_len = 0;
    char *owned, *out = NULL;
    wj_error err = {WJ_OK, 0, NULL};
    wj_code rc;

    (void)argc;
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL ||
        wirejson_arg_json(ctx, argv[0], &body, &len) != 0)
        return;
    name = sqlite3_value_text(argv[1]);
    if (!name) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (top_level_value(ctx, argv[2], &value, &value_len, &owned) != 0)
        return;
    rc = wj_with_top_level(
        body, len, (const char *)name, (size_t)sqlite3_value_bytes(argv[1]),
        value, value_len, &wirejson_sqlite_alloc, &out, &out_len, &err);
    sqlite3_free(owned);
    if (rc != WJ_OK)
        wirejson_result_error(ctx, rc, &err);
    else
        wirejson_result_text(ctx, out, out_len, 0);
}

void toolSchemasFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *body;
    size_t len, n_path, out_len = 0;
    wj_name *path;
    char *out = NULL;
    wj_error err = {WJ_OK, 0, NULL};
    wj_code rc;

    if (argc < 1) {
        sqlite3_result_error(ctx, "tool_schemas: wrong number of arguments",
                             -1);
        return;
    }
    if (wirejson_arg_json(ctx, argv[0], &body, &len) != 0)
        return;
    if (wirejson_arg_names(ctx, argc - 1, argv + 1, &path, &n_path) != 0)
        return;
    rc = wj_tool_schemas(body, len, path, n_path, &wirejson_sqlite_alloc, &out,
                         &out_len, &err);
    sqlite3_free(path);
    if (rc != WJ_OK)
        wirejson_result_error(ctx, rc, &err);
    else
        wirejson_result_text(ctx, out, out_len, 1);
}

void encodeWithSchemasFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *body, *texts;
    size_t len, texts_len, out_len = 0;
    char *out = NULL;
    wj_error err = {WJ_OK, 0, NULL};
    wj_code rc;

    (void)argc;
    if (wirejson_arg_json(ctx, argv[0], &body, &len) != 0 ||
        wirejson_arg_json(ctx, argv[1], &texts, &texts_len) != 0)
        return;
    rc = wj_encode_with_schemas(body, len, texts, texts_len,
                                &wirejson_sqlite_alloc, &out, &out_len, &err);
    if (rc != WJ_OK)
        wirejson_result_error(ctx, rc, &err);
    else
        wirejson_result_text(ctx, out, out_len, 1);
}
