/* SPDX-License-Identifier: MIT */
/*
 * functions.c - the scalar SQL functions of the extension (docs/contract.md §8,
 * §13): each converts its arguments (args.c), calls the core and returns its
 * result or raises its error (errors.c).
 *
 *   CREATE EXTENSION wirejson;
 *   SELECT wire_json('{"b":1,"a":2}');                        -- {"a":2,"b":1}
 *   SELECT data_digest('{"a":1.0}') = data_digest('{"a":1}'::jsonb);  -- t
 */
#include "wirejson_pg.h"

#include "utils/builtins.h"

PG_MODULE_MAGIC;

/* A rendering of argument 0 with the names of the VARIADIC argument 1 (the
 * kinds without names ignore them). */
static Datum render(FunctionCallInfo fcinfo, const char *func,
                    wj_rendering kind)
{
    const char *json;
    size_t len, n_names, out_len = 0;
    wj_name *names;
    char *out = NULL;
    wj_error err;
    wj_code rc;

    wjpg_arg_doc_as(fcinfo, 0, func,
                    kind == WJ_RENDERING_CANONICAL ? WJPG_DOC_DOUBLES
                                                   : WJPG_DOC_AS_IS,
                    &json, &len, NULL);
    wjpg_arg_names(fcinfo, 1, &names, &n_names);
    rc = wj_rendering_text(kind, json, len, names, n_names, &wjpg_current_alloc,
                           &out, &out_len, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_TEXT_P(wjpg_result_text(out, out_len, func));
}

/* A digest of argument 0, with the names of argument 1 where it has them. */
static Datum digest(FunctionCallInfo fcinfo, const char *func,
                    wj_digest_kind kind)
{
    const char *json;
    size_t len, n_names;
    wj_name *names;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc;

    wjpg_arg_doc_as(fcinfo, 0, func, WJPG_DOC_DOUBLES, &json, &len, NULL);
    wjpg_arg_names(fcinfo, 1, &names, &n_names);
    rc = wj_digest_hex(kind, json, len, names, n_names, &wjpg_current_alloc,
                       hex, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_TEXT_P(cstring_to_text_with_len(hex, WJ_DIGEST_HEX_SIZE - 1));
}

PG_FUNCTION_INFO_V1(wirejson_wire_json);
Datum wirejson_wire_json(PG_FUNCTION_ARGS)
{
    return render(fcinfo, "wire_json", WJ_RENDERING_WIRE);
}

PG_FUNCTION_INFO_V1(wirejson_wire_json_sorted);
Datum wirejson_wire_json_sorted(PG_FUNCTION_ARGS)
{
    return render(fcinfo, "wire_json_sorted", WJ_RENDERING_WIRE_SORTED);
}

PG_FUNCTION_INFO_V1(wirejson_canonical_json);
Datum wirejson_canonical_json(PG_FUNCTION_ARGS)
{
    return render(fcinfo, "canonical_json", WJ_RENDERING_CANONICAL);
}

PG_FUNCTION_INFO_V1(wirejson_data_digest);
Datum wirejson_data_digest(PG_FUNCTION_ARGS)
{
    return digest(fcinfo, "data_digest", WJ_DIGEST_DATA);
}

PG_FUNCTION_INFO_V1(wirejson_message_digest);
Datum wirejson_message_digest(PG_FUNCTION_ARGS)
{
    return digest(fcinfo, "message_digest", WJ_DIGEST_MESSAGE);
}

PG_FUNCTION_INFO_V1(wirejson_messages_digest);
Datum wirejson_messages_digest(PG_FUNCTION_ARGS)
{
    return digest(fcinfo, "messages_digest", WJ_DIGEST_MESSAGES);
}

/* The arguments text of a tool call.  text and json: the text itself.  A
 * jsonb string (what ->'arguments' gives): its content, as ->> would give
 * it and as wirejq reads a string; any other jsonb value: its canonical
 * JSON, which is what the function gives for JSON text that is valid. */
PG_FUNCTION_INFO_V1(wirejson_canonical_arguments);
Datum wirejson_canonical_arguments(PG_FUNCTION_ARGS)
{
    static const char func[] = "canonical_arguments";
    const char *json;
    size_t len, out_len = 0;
    char *out = NULL;
    wj_error err;
    wj_code rc;

    if (!wjpg_arg_jsonb_string(fcinfo, 0, &json, &len))
        wjpg_arg_doc(fcinfo, 0, func, &json, &len);
    rc = wj_canonical_arguments(json, len, &wjpg_current_alloc, &out, &out_len,
                                &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_TEXT_P(wjpg_result_text(out, out_len, func));
}

/* NULL when nothing is replaced (docs/contract.md §7). */
PG_FUNCTION_INFO_V1(wirejson_with_top_level);
Datum wirejson_with_top_level(PG_FUNCTION_ARGS)
{
    static const char func[] = "with_top_level";
    const char *body, *value;
    size_t len, value_len, out_len = 0;
    text *name = PG_GETARG_TEXT_PP(1);
    char *out = NULL;
    wj_error err;
    wj_code rc;

    wjpg_arg_doc(fcinfo, 0, func, &body, &len);
    wjpg_arg_value(fcinfo, 2, func, &value, &value_len);
    rc = wj_with_top_level(body, len, VARDATA_ANY(name),
                           VARSIZE_ANY_EXHDR(name), value, value_len,
                           &wjpg_current_alloc, &out, &out_len, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    if (!out)
        PG_RETURN_NULL();
    PG_RETURN_TEXT_P(wjpg_result_text(out, out_len, func));
}

/* A json array of the tools' raw texts; NULL without a tools array. */
PG_FUNCTION_INFO_V1(wirejson_tool_schemas);
Datum wirejson_tool_schemas(PG_FUNCTION_ARGS)
{
    static const char func[] = "tool_schemas";
    const char *body;
    size_t len, n_path, out_len = 0;
    wj_name *path;
    char *out = NULL;
    wj_error err;
    wj_code rc;

    wjpg_arg_doc(fcinfo, 0, func, &body, &len);
    wjpg_arg_names(fcinfo, 1, &path, &n_path);
    rc = wj_tool_schemas(body, len, path, n_path, &wjpg_current_alloc, &out,
                         &out_len, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    if (!out)
        PG_RETURN_NULL();
    PG_RETURN_TEXT_P(wjpg_result_text(out, out_len, func));
}

PG_FUNCTION_INFO_V1(wirejson_encode_with_schemas);
Datum wirejson_encode_with_schemas(PG_FUNCTION_ARGS)
{
    static const char func[] = "encode_with_schemas";
    const char *body, *texts;
    size_t len, texts_len, out_len = 0;
    char *out = NULL;
    wj_error err;
    wj_code rc;

    wjpg_arg_doc(fcinfo, 0, func, &body, &len);
    wjpg_arg_doc(fcinfo, 1, func, &texts, &texts_len);
    rc = wj_encode_with_schemas(body, len, texts, texts_len,
                                &wjpg_current_alloc, &out, &out_len, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    if (!out)
        PG_RETURN_NULL();
    PG_RETURN_TEXT_P(wjpg_result_text(out, out_len, func));
}

/* Validates argument 0: true when valid; false with *err filled for an input
 * error; any other failure is raised. */
static bool validate(FunctionCallInfo fcinfo, const char *func, wj_error *err)
{
    const char *json;
    size_t len;
    wj_code rc;

    if (!wjpg_arg_doc_as(fcinfo, 0, func, WJPG_DOC_VERDICT, &json, &len, err))
        return false;
    rc = wj_validate(json, len, &wjpg_current_alloc, err);
    if (rc == WJ_OK)
        return true;
    if (!wj_error_is_input(rc))
        wjpg_raise(rc, err, func);
    return false;
}

/* NULL for valid input, else the message without a function name:
 * "malformed JSON at byte 7: duplicate member name". */
PG_FUNCTION_INFO_V1(wirejson_error);
Datum wirejson_error(PG_FUNCTION_ARGS)
{
    wj_error err;
    char msg[256];
    size_t need;

    if (validate(fcinfo, "wirejson_error", &err))
        PG_RETURN_NULL();
    need = wj_error_format(&err, NULL, msg, sizeof msg);
    if (need >= sizeof msg) {
        char *big = palloc(need + 1);
        wj_error_format(&err, NULL, big, need + 1);
        PG_RETURN_TEXT_P(cstring_to_text_with_len(big, (int)need));
    }
    PG_RETURN_TEXT_P(cstring_to_text_with_len(msg, (int)need));
}

/* NULL for valid input, else the 0-based byte offset of the error. */
PG_FUNCTION_INFO_V1(wirejson_error_position);
Datum wirejson_error_position(PG_FUNCTION_ARGS)
{
    wj_error err;

    if (validate(fcinfo, "wirejson_error_position", &err))
        PG_RETURN_NULL();
    /* Documents are at most 1 GB here (jsonb's text is stopped there too),
     * but an offset that did not fit an integer would be an error, never
     * a wrapped number. */
    if (err.offset > (size_t)PG_INT32_MAX)
        wjpg_raise_reason(WJ_ERR_TOOBIG, "error position out of integer range",
                          "wirejson_error_position");
    PG_RETURN_INT32((int32)err.offset);
}

PG_FUNCTION_INFO_V1(wirejson_version);
Datum wirejson_version(PG_FUNCTION_ARGS)
{
    (void)fcinfo;
    PG_RETURN_TEXT_P(cstring_to_text(wj_version()));
}
