/* SPDX-License-Identifier: MIT */
/*
 * builtins.c - glue between libjq values and the wirejson core.
 *
 * Values become JSON text through jv_dump_string(v, 0), jq's own printer;
 * a string given as a raw body (with_top_level, tool_schemas,
 * encode_with_schemas, canonical_arguments) is passed as its own bytes
 * instead, and any other value there as its JSON text, as the SQL functions
 * take a JSON value.  The text forms (wire_json_text, ..., wirejson_error)
 * take only strings, and pass their bytes.  Errors name the SQL function
 * whose answer the builtin gives.  No JSON logic lives here.
 */
#include "builtins.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson.h"

/* Most arguments a builtin takes after its input. */
#define MAX_ARGS 2
/* Names held without allocating; longer lists are allocated. */
#define LOCAL_NAMES 8

typedef struct builtin builtin;
typedef jv (*builtin_fn)(const builtin *b, jv input, jv *args);

struct builtin {
    const char *name; /* as jq programs call it */
    const char *func; /* the SQL function named in its errors */
    int nargs;        /* arguments after the input */
    int text;         /* 1: the input must be a string of JSON text */
    builtin_fn run;
};

static size_t text_len(jv s)
{
    return (size_t)jv_string_length_bytes(jv_copy(s));
}

/* An error of code with reason msg and nothing else set. */
static wj_error error_of(wj_code code, const char *msg)
{
    wj_error err = WJ_ERROR_INIT;
    err.code = code;
    err.msg = msg;
    return err;
}

/* A message from the core for err (func NULL: without the name). */
static jv error_text(const char *func, const wj_error *err)
{
    char local[256];
    size_t need = wj_error_format(err, func, local, sizeof(local));
    jv msg;
    char *big;
    if (need < sizeof(local))
        return jv_string(local);
    big = malloc(need + 1);
    if (big == NULL)
        return jv_string(local);
    wj_error_format(err, func, big, need + 1);
    msg = jv_string(big);
    free(big);
    return msg;
}

/* The error jq raises for function `func`: the core's text for err. */
static jv fail(const char *func, const wj_error *err)
{
    return jv_invalid_with_msg(error_text(func, err));
}

static jv fail_argument(const char *func, const char *reason)
{
    wj_error err = error_of(WJ_ERR_ARGUMENT, reason);
    return fail(func, &err);
}

/* JSON text of v (consumed), as jq prints it compactly. */
static jv json_text(jv v)
{
    return jv_dump_string(v, 0);
}

/* What a builtin works on: the input's own bytes for a text form (the
 * dispatcher has checked it is a string), else its JSON text. */
static jv source(const builtin *b, jv input)
{
    return b->text ? input : json_text(input);
}

/* A raw body: a string's own bytes, any other value's JSON text. */
static jv body_text(jv v)
{
    return jv_get_kind(v) == JV_KIND_STRING ? v : json_text(v);
}

/* A result buffer of the core as a jq string (null when there is none). */
static jv text_result(const char *func, wj_code rc, char *out, size_t len,
                      const wj_error *err)
{
    jv result;
    if (rc != WJ_OK)
        return fail(func, err);
    if (out == NULL)
        return jv_null();
    if (len > INT_MAX) {
        wj_error big = error_of(WJ_ERR_TOOBIG, "result too large for jq");
        wj_free(NULL, out);
        return fail(func, &big);
    }
    result = jv_string_sized(out, (int)len);
    wj_free(NULL, out);
    return result;
}

static jv digest_result(const char *func, wj_code rc,
                        const char hex[WJ_DIGEST_HEX_SIZE], const wj_error *err)
{
    if (rc != WJ_OK)
        return fail(func, err);
    return jv_string_sized(hex, WJ_DIGEST_HEX_SIZE - 1);
}

/*
 * A list of names: a string, or an array of strings in which nulls are
 * skipped (as the SQL functions skip NULL names).  On success *held keeps
 * the strings alive while *names points into them; release with
 * names_free.  On failure returns 0 and leaves nothing to release.
 */
typedef struct name_list {
    jv held;        /* the strings, as an array */
    wj_name *names; /* names[0..n) */
    size_t n;
    wj_name local[LOCAL_NAMES]; /* storage for short lists */
} name_list;

static int names_init(name_list *list, jv v)
{
    int len, i;
    list->n = 0;
    list->names = list->local;
    if (jv_get_kind(v) == JV_KIND_STRING) {
        list->held = JV_ARRAY(v);
    } else if (jv_get_kind(v) == JV_KIND_ARRAY) {
        list->held = jv_array();
        jv_array_foreach(v, k, elem)
        {
            if (jv_get_kind(elem) == JV_KIND_STRING) {
                list->held = jv_array_append(list->held, elem);
            } else if (jv_get_kind(elem) == JV_KIND_NULL) {
                jv_free(elem);
            } else {
                jv_free(elem);
                jv_free(v);
                jv_free(list->held);
                return 0;
            }
        }
        jv_free(v);
    } else {
        jv_free(v);
        return 0;
    }
    len = jv_array_length(jv_copy(list->held));
    if (len > LOCAL_NAMES) {
        list->names = malloc((size_t)len * sizeof(wj_name));
        if (list->names == NULL) {
            jv_free(list->held);
            return 0;
        }
    }
    for (i = 0; i < len; i++) {
        jv s = jv_array_get(jv_copy(list->held), i);
        list->names[i].ptr = jv_string_value(s);
        list->names[i].len = text_len(s);
        jv_free(s); /* list->held still holds it */
    }
    list->n = (size_t)len;
    return 1;
}

static void names_free(name_list *list)
{
    if (list->names != list->local)
        free(list->names);
    jv_free(list->held);
}

/* ------------------------------------------------------------ renderings */

typedef jv (*named_fn)(const builtin *b, jv input, const wj_name *names,
                       size_t n_names);

/* fn with the names that arg holds (a string or an array of strings). */
static jv with_names(const builtin *b, jv input, jv arg, const char *what,
                     named_fn fn)
{
    name_list names;
    jv result;
    if (!names_init(&names, arg)) {
        jv_free(input);
        return fail_argument(b->func, what);
    }
    result = fn(b, input, names.names, names.n);
    names_free(&names);
    return result;
}

static jv wire_json_with(const builtin *b, jv input, const wj_name *members,
                         size_t n_members)
{
    jv text = source(b, input);
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc = wj_wire_json(jv_string_value(text), text_len(text), members,
                              n_members, NULL, &out, &len, &err);
    jv_free(text);
    return text_result(b->func, rc, out, len, &err);
}

static jv wire_json0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return wire_json_with(b, input, NULL, 0);
}

static jv wire_json1(const builtin *b, jv input, jv *args)
{
    return with_names(b, input, args[0],
                      "data members must be a string or an array of strings",
                      wire_json_with);
}

typedef wj_code (*render_fn)(const char *, size_t, const wj_alloc *, char **,
                             size_t *, wj_error *);

/* fn over text (consumed), a string. */
static jv render(const char *func, jv text, render_fn fn)
{
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc =
        fn(jv_string_value(text), text_len(text), NULL, &out, &len, &err);
    jv_free(text);
    return text_result(func, rc, out, len, &err);
}

static jv wire_json_sorted0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return render(b->func, source(b, input), wj_wire_json_sorted);
}

static jv canonical_json0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return render(b->func, source(b, input), wj_canonical_json);
}

/* A string is a tool call's arguments text; any other value, JSON. */
static jv canonical_arguments0(const builtin *b, jv input, jv *args)
{
    (void)args;
    if (jv_get_kind(input) == JV_KIND_STRING)
        return render(b->func, input, wj_canonical_arguments);
    return render(b->func, json_text(input), wj_canonical_json);
}

/* --------------------------------------------------------------- digests */

typedef wj_code (*digest_fn)(const char *, size_t, const wj_alloc *,
                             char[WJ_DIGEST_HEX_SIZE], wj_error *);

/* fn over text (consumed), a string. */
static jv digest(const char *func, jv text, digest_fn fn)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = fn(jv_string_value(text), text_len(text), NULL, hex, &err);
    jv_free(text);
    return digest_result(func, rc, hex, &err);
}

static jv data_digest0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return digest(b->func, source(b, input), wj_data_digest);
}

static jv message_digest_with(const builtin *b, jv input,
                              const wj_name *ignored, size_t n_ignored)
{
    jv text = source(b, input);
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = wj_message_digest(jv_string_value(text), text_len(text),
                                   ignored, n_ignored, NULL, hex, &err);
    jv_free(text);
    return digest_result(b->func, rc, hex, &err);
}

static jv message_digest0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return message_digest_with(b, input, NULL, 0);
}

static jv message_digest1(const builtin *b, jv input, jv *args)
{
    return with_names(b, input, args[0],
                      "ignored members must be a string or an array of strings",
                      message_digest_with);
}

static jv messages_digest0(const builtin *b, jv input, jv *args)
{
    (void)args;
    return digest(b->func, source(b, input), wj_messages_digest);
}

/* --------------------------------------------------- the digest of prefixes */

/*
 * The error of prefix_digests when a prefix has no digest: what
 * messages_digest says about the whole array (the first element it rejects
 * is the one the conversation rejected), else the conversation's own.
 */
static jv prefix_error(const builtin *b, jv input, const wj_error *own)
{
    jv text = json_text(input);
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = wj_messages_digest(jv_string_value(text), text_len(text), NULL,
                                    hex, &err);
    jv_free(text);
    if (rc != WJ_OK && rc != WJ_ERR_NOMEM)
        return fail(b->func, &err);
    return fail(b->func, own);
}

/* [messages_digest of .[:1], of .[:2], ...], in one pass: each message is
 * pushed on the core's conversation object, whose digest is read after
 * each push. */
static jv prefix_digests0(const builtin *b, jv input, jv *args)
{
    wj_conversation *conv = NULL;
    wj_error err = error_of(WJ_ERR_NOMEM, "out of memory");
    jv out;
    int n, k;
    (void)args;
    if (jv_get_kind(input) != JV_KIND_ARRAY)
        return prefix_error(b, input, &err);
    if (wj_conversation_new(NULL, &conv) != WJ_OK) {
        jv_free(input);
        return fail(b->func, &err);
    }
    n = jv_array_length(jv_copy(input));
    out = jv_array_sized(n);
    for (k = 0; k < n; k++) {
        jv text = json_text(jv_array_get(jv_copy(input), k));
        char hex[WJ_DIGEST_HEX_SIZE];
        wj_code rc = wj_conversation_push(conv, jv_string_value(text),
                                          text_len(text), &err);
        jv_free(text);
        if (rc == WJ_OK)
            rc = wj_conversation_digest(conv, hex, &err);
        if (rc != WJ_OK) {
            wj_conversation_free(conv);
            jv_free(out);
            return prefix_error(b, input, &err);
        }
        out =
            jv_array_append(out, jv_string_sized(hex, WJ_DIGEST_HEX_SIZE - 1));
    }
    wj_conversation_free(conv);
    jv_free(input);
    return out;
}

/* ------------------------------------------------------ validity of text */

/* null when the text is valid input (docs/contract.md §3), else the error message
 * without a function name, as SQL's wirejson_error gives it. */
static jv wirejson_error0(const builtin *b, jv input, jv *args)
{
    wj_error err;
    wj_code rc =
        wj_validate(jv_string_value(input), text_len(input), NULL, &err);
    (void)args;
    jv_free(input);
    if (rc == WJ_OK)
        return jv_null();
    if (!wj_error_is_input(rc))
        return fail(b->func, &err);
    return error_text(NULL, &err);
}

/* ---------------------------------------------------- raw request bodies */

static jv with_top_level2(const builtin *b, jv input, jv *args)
{
    jv body, value;
    char *value_text = NULL, *out = NULL;
    size_t value_len = 0, len = 0;
    wj_error err;
    wj_code rc;
    if (jv_get_kind(args[0]) != JV_KIND_STRING) {
        jv_free(input);
        jv_free(args[0]);
        jv_free(args[1]);
        return fail_argument(b->func, "the member name must be a string");
    }
    value = json_text(args[1]);
    rc = wj_wire_json(jv_string_value(value), text_len(value), NULL, 0, NULL,
                      &value_text, &value_len, &err);
    jv_free(value);
    if (rc != WJ_OK) {
        jv_free(input);
        jv_free(args[0]);
        err.argument = "value";
        return fail(b->func, &err);
    }
    body = body_text(input);
    rc = wj_with_top_level(jv_string_value(body), text_len(body),
                           jv_string_value(args[0]), text_len(args[0]),
                           value_text, value_len, NULL, &out, &len, &err);
    wj_free(NULL, value_text);
    jv_free(body);
    jv_free(args[0]);
    return text_result(b->func, rc, out, len, &err);
}

static jv tool_schemas1(const builtin *b, jv input, jv *args)
{
    name_list path;
    jv body, texts, result;
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc;
    if (!names_init(&path, args[0])) {
        jv_free(input);
        return fail_argument(b->func,
                             "the path must be an array of member names");
    }
    body = body_text(input);
    rc = wj_tool_schemas(jv_string_value(body), text_len(body), path.names,
                         path.n, NULL, &out, &len, &err);
    jv_free(body);
    names_free(&path);
    texts = text_result(b->func, rc, out, len, &err);
    if (jv_get_kind(texts) != JV_KIND_STRING)
        return texts;
    result = jv_parse_sized(jv_string_value(texts), (int)text_len(texts));
    jv_free(texts);
    return result;
}

static jv encode_with_schemas1(const builtin *b, jv input, jv *args)
{
    jv body = body_text(input);
    jv texts = json_text(args[0]);
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc = wj_encode_with_schemas(jv_string_value(body), text_len(body),
                                        jv_string_value(texts), text_len(texts),
                                        NULL, &out, &len, &err);
    jv_free(body);
    jv_free(texts);
    return text_result(b->func, rc, out, len, &err);
}

/* ------------------------------------------------------------- dispatch */

static const builtin builtins[] = {
    {"wire_json", "wire_json", 0, 0, wire_json0},
    {"wire_json", "wire_json", 1, 0, wire_json1},
    {"wire_json_sorted", "wire_json_sorted", 0, 0, wire_json_sorted0},
    {"canonical_json", "canonical_json", 0, 0, canonical_json0},
    {"data_digest", "data_digest", 0, 0, data_digest0},
    {"message_digest", "message_digest", 0, 0, message_digest0},
    {"message_digest", "message_digest", 1, 0, message_digest1},
    {"messages_digest", "messages_digest", 0, 0, messages_digest0},
    {"canonical_arguments", "canonical_arguments", 0, 0, canonical_arguments0},
    {"with_top_level", "with_top_level", 2, 0, with_top_level2},
    {"tool_schemas", "tool_schemas", 1, 0, tool_schemas1},
    {"encode_with_schemas", "encode_with_schemas", 1, 0, encode_with_schemas1},
    {"wire_json_text", "wire_json", 0, 1, wire_json0},
    {"wire_json_text", "wire_json", 1, 1, wire_json1},
    {"wire_json_sorted_text", "wire_json_sorted", 0, 1, wire_json_sorted0},
    {"canonical_json_text", "canonical_json", 0, 1, canonical_json0},
    {"data_digest_text", "data_digest", 0, 1, data_digest0},
    {"message_digest_text", "message_digest", 0, 1, message_digest0},
    {"message_digest_text", "message_digest", 1, 1, message_digest1},
    {"messages_digest_text", "messages_digest", 0, 1, messages_digest0},
    {"wirejson_error", "wirejson_error", 0, 1, wirejson_error0},
    {"prefix_digests", "prefix_digests", 0, 0, prefix_digests0},
};

jv wirejq_run_call(jv call)
{
    jv name = jv_array_get(jv_copy(call), 1);
    int nargs = jv_array_length(jv_copy(call)) - 3;
    size_t i;
    for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        const builtin *b = &builtins[i];
        jv args[MAX_ARGS];
        jv input;
        int k;
        if (b->nargs != nargs || jv_get_kind(name) != JV_KIND_STRING ||
            strcmp(b->name, jv_string_value(name)) != 0)
            continue;
        jv_free(name);
        input = jv_array_get(jv_copy(call), 2);
        if (b->text && jv_get_kind(input) != JV_KIND_STRING) {
            jv_free(input);
            jv_free(call);
            return fail_argument(b->name,
                                 "the input must be a string of JSON text");
        }
        for (k = 0; k < nargs; k++)
            args[k] = jv_array_get(jv_copy(call), 3 + k);
        jv_free(call);
        return b->run(b, input, args);
    }
    jv_free(name);
    jv_free(call);
    return jv_invalid_with_msg(jv_string("wirejson: no such builtin"));
}
