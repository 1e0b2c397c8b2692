/* SPDX-License-Identifier: MIT */
/*
 * raw_body.c - the SQL functions over raw request bodies (docs/contract.md §7, §8):
 * with_top_level, tool_schemas and encode_with_schemas.
 *
 *   SELECT with_top_level(body, 'model', 'local-llama') FROM requests;
 *   SELECT tool_schemas(body, 'function', 'parameters') FROM requests;
 *
 * with_top_level's VALUE follows json_set: SQL NULL is JSON null, a number
 * is a number (a REAL as ECMAScript spells it), JSON-subtype TEXT and BLOB
 * are JSON text spliced as they are (and must be valid JSON), other TEXT is
 * a string, quoted with the wire rendering's escapes by the core.
 */
#include "ext.h"

/* The JSON text with_top_level writes for its VALUE argument, in *value
 * (*owned set when the caller must sqlite3_free it).  Returns 0, or -1 when
 * an error is already reported. */
static int top_level_value(wirejson_call *call, sqlite3_value *arg,
                           wirejson_json *value, char **owned)
{
    int type = sqlite3_value_type(arg);
    wj_error err = WJ_ERROR_INIT;
    const char *text;
    wj_code rc;

    *owned = NULL;
    if (type == SQLITE_NULL) {
        value->ptr = "null";
        value->len = 4;
        return 0;
    }
    if (type != SQLITE_TEXT || sqlite3_value_subtype(arg) == WIREJSON_SUBTYPE)
        return wirejson_arg_json(call, arg, "value", value) == 0 ? 0 : -1;
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

void withTopLevelFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    wirejson_call call;
    wirejson_json body, value;
    const unsigned char *name;
    size_t out_len = 0;
    char *owned, *out = NULL;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    (void)argc;
    wirejson_call_init(&call, ctx);
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL ||
        wirejson_arg_json(&call, argv[0], "argument 1", &body) != 0)
        return;
    name = sqlite3_value_text(argv[1]);
    if (!name) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (top_level_value(&call, argv[2], &value, &owned) != 0)
        return;
    rc = wj_with_top_level(body.ptr, body.len, (const char *)name,
                           (size_t)sqlite3_value_bytes(argv[1]), value.ptr,
                           value.len, &call.alloc, &out, &out_len, &err);
    sqlite3_free(owned);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        wirejson_result_text(&call, out, out_len, 0);
}

void toolSchemasFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    wirejson_call call;
    wirejson_json body;
    size_t n_path, out_len = 0;
    wj_name *path;
    char *out = NULL;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    wirejson_call_init(&call, ctx);
    if (!wirejson_has_json_arg(&call, argc) ||
        wirejson_arg_json(&call, argv[0], "argument 1", &body) != 0)
        return;
    if (wirejson_arg_names(&call, argc - 1, argv + 1, &path, &n_path) != 0)
        return;
    rc = wj_tool_schemas(body.ptr, body.len, path, n_path, &call.alloc, &out,
                         &out_len, &err);
    sqlite3_free(path);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        wirejson_result_text(&call, out, out_len, 1);
}

void encodeWithSchemasFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    wirejson_call call;
    wirejson_json body, texts;
    size_t out_len = 0;
    char *out = NULL;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    (void)argc;
    wirejson_call_init(&call, ctx);
    if (wirejson_arg_json(&call, argv[0], "argument 1", &body) != 0 ||
        wirejson_arg_json(&call, argv[1], "texts", &texts) != 0)
        return;
    rc = wj_encode_with_schemas(body.ptr, body.len, texts.ptr, texts.len,
                                &call.alloc, &out, &out_len, &err);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
    else
        wirejson_result_text(&call, out, out_len, 1);
}
